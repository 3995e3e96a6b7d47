/**
 * The judging proxy in front of a URL judges in a worker thread (the built package: a thread runs the
 * compiled file). Findings still arrive as they are made and the result is the judge's, the answers
 * unchanged; when the thread falls behind, whole clients are shed, counted, and taken back once it has
 * caught up.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as TrafficOutput from '../../src/cli/traffic-output.js';
import type * as Kit from '../../src/index.js';
import type * as Port from '../../src/port.js';
import type { RunReport } from '../../src/report/model.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import type * as Traffic from '../../src/traffic/index.js';
import type * as JudgeThread from '../../src/traffic/proxy/judge-thread.js';
import { captureIo } from '../support/cli-io.js';

const DIST = resolve(import.meta.dirname, '../../dist');

describe('the judge thread', () => {
  it('judges a URL upstream off the relay thread: findings as they happen, the same result', async () => {
    const kit = (await import(pathToFileURL(resolve(DIST, 'index.js')).href)) as typeof Kit;
    const traffic = (await import(pathToFileURL(resolve(DIST, 'traffic/index.js')).href)) as typeof Traffic;
    await using sim = await kit.startSimulator({ dataset: 'shared-timestamps', accounts: 320 });
    const seen: string[] = [];
    const proxy = await traffic.startJudgingProxy({ upstream: sim.baseUrl, onFinding: (f) => seen.push(f.ruleId) });
    expect(proxy.judging).toBe('thread');
    const auth = { authorization: `Bearer ${sim.token}` };
    const first = await fetch(`${proxy.url}/v2/accounts?sort=created_at&page[limit]=100`, { headers: auth });
    const last = ((await first.json()) as { data: { meta: { timestamps: { created_at: string } } }[] }).data.at(-1)?.meta.timestamps.created_at ?? '';
    const url = `/v2/accounts?sort=created_at&page[limit]=100&filter=gt(created_at,${last})`;
    const viaProxy = await (await fetch(`${proxy.url}${url}`, { headers: auth })).text();
    // Asked directly as the proxy asks (its forwarding headers): the simulator builds its links for the proxy's origin.
    expect(viaProxy).toBe(await (await fetch(`${sim.baseUrl}${url}`, { headers: { ...auth, 'x-forwarded-host': new URL(proxy.url).host } })).text());
    const result = await proxy.close();
    expect(result.entries).toBe(2);
    expect(result.complete).toBe(false);
    expect(result.tallies.get('client.keyset.timestamp-ge')?.failed).toBe(1);
    expect(result.findings.map((f) => f.ruleId)).toContain('client.keyset.timestamp-ge');
    expect(seen).toContain('client.keyset.timestamp-ge');
  });

  it('sheds whole clients when judging falls behind, relays every answer, and says how many exchanges of how many clients went unjudged', async () => {
    const kit = (await import(pathToFileURL(resolve(DIST, 'index.js')).href)) as typeof Kit;
    const traffic = (await import(pathToFileURL(resolve(DIST, 'traffic/index.js')).href)) as typeof Traffic;
    await using sim = await kit.startSimulator({ accounts: 200 });
    // A backlog of at most one page: the first client's first exchange is judged, the rest wait or are shed.
    const proxy = await traffic.startJudgingProxy({ upstream: sim.baseUrl, maxBacklogBytes: 60_000 });
    const tokens = [sim.token, sim.simulator.issueToken(sim.clientId, 'read-only'), sim.simulator.issueToken(sim.clientId, 'read-only')];
    let answered = 0;
    await Promise.all(
      tokens.map(async (token) => {
        for (let i = 0; i < 20; i++) {
          const res = await fetch(`${proxy.url}/v2/accounts?page[limit]=100&page[offset]=${i * 5}`, { headers: { authorization: `Bearer ${token}` } });
          if (res.status === 200 && ((await res.json()) as { data: unknown[] }).data.length > 0) answered++;
        }
      }),
    );
    const result = await proxy.close();
    expect(answered).toBe(60);
    expect(result.shed?.clients ?? 0).toBeGreaterThan(0);
    // Every exchange was either judged or counted as shed, whole clients at a time (which ones, and how many, the
    // race between three clients and the thread decides: the exact counts are the next test's).
    expect(result.entries + (result.shed?.exchanges ?? 0)).toBe(60);
  });

  it('a client shed while the judge is behind is counted exactly, judged again once it has caught up, and the "not judged" line says so', async () => {
    const thread = (await import(pathToFileURL(resolve(DIST, 'traffic/proxy/judge-thread.js')).href)) as typeof JudgeThread;
    const { toExchange } = (await import(pathToFileURL(resolve(DIST, 'port.js')).href)) as typeof Port;
    const output = (await import(pathToFileURL(resolve(DIST, 'cli/traffic-output.js')).href)) as typeof TrafficOutput;
    let sent = 0;
    const entry = (client: string, url: string, status: number, body: string): TrafficEntry => ({
      exchange: toExchange({ method: 'GET', url, headers: { authorization: `Bearer ${client}` } }, { status, headers: { 'content-type': 'application/json' }, body }),
      origin: 'https://api.test',
      source: `sent #${++sent}`,
    });
    const refused = '{"errors":[{"status":400,"title":"Bad Request"}]}';
    /** A GET past the hard offset limit of /v2/orders: client.offset.hard-limit fails on it, wherever it is judged. */
    const pastLimit = (client: string) => entry(client, '/v2/orders?page[offset]=10001', 400, refused);
    // One page of 100 accounts holding 30 MB of text: the thread takes a while over it (it has not even started yet).
    const name = 'x'.repeat(300_000);
    const heavyBody = JSON.stringify({
      data: Array.from({ length: 100 }, (_, i) => ({ id: `a${i}`, type: 'account', name })),
      meta: { page: { limit: 100, offset: 0, current: 1, total: 1 }, results: { total: 100 } },
    });
    const heavy = entry('heavy', '/v2/accounts?page[limit]=100', 200, heavyBody);
    const weight = 256 + heavy.exchange.request.url.length + heavyBody.length;
    // The bound holds the heavy exchange and nothing more: while it waits, any other exchange would pass it.
    const judge = thread.startJudgeThread({ complete: false, maxBacklogBytes: weight + 100 });
    if (judge === undefined) throw new Error('no judge thread started from dist/');
    judge.observe(heavy);
    expect(judge.backlog()).toBe(weight);
    // Behind: clients a and b are shed whole, three exchanges between them, none of them judged.
    const shedNow = [pastLimit('a'), pastLimit('b'), pastLimit('a')];
    for (const e of shedNow) judge.observe(e);
    expect(judge.backlog()).toBe(weight);
    // Load stops; the backlog drains to nothing.
    await expect.poll(() => judge.backlog(), { timeout: 50_000, interval: 20 }).toBe(0);
    // Caught up: a and b are judged again from their next exchange on, and so is a new client c.
    const later = [pastLimit('a'), pastLimit('b'), pastLimit('c')];
    for (const e of later) judge.observe(e);
    const result = await judge.finish();
    expect(result.entries).toBe(1 + later.length);
    expect(result.clients).toBe(4);
    expect(result.shed).toEqual({ exchanges: shedNow.length, clients: 2 });
    // The later exchanges were judged, each; the shed ones never were.
    expect(result.tallies.get('client.offset.hard-limit')).toMatchObject({ failed: later.length });
    expect(result.findings.filter((f) => f.ruleId === 'client.offset.hard-limit').flatMap((f) => f.evidence)).toEqual(later.map((e) => e.source));

    // What a user reads: the summary's line and report.md's.
    const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-judge-thread-'));
    try {
      const { io, out } = captureIo({ cwd: dir });
      const exit = await output.writeTrafficReports(io, {
        command: 'proxy',
        result,
        judged: 'both',
        strict: false,
        sources: ['proxy'],
        target: { kind: 'http', baseUrl: 'https://api.test' },
        started: Date.UTC(2026, 0, 1),
        reportDir: 'reports',
        json: false,
        reporter: 'summary',
      });
      expect(exit).toBe(1);
      const lines = out().split('\n');
      expect(lines[0]).toBe(`commerce-sim proxy → https://api.test: 4 exchanges, 4 clients, ${result.walksTotal} walk${result.walksTotal === 1 ? '' : 's'}`);
      expect(lines[1]).toBe('  not judged: 3 exchanges of 2 clients (the judge fell behind the traffic; relaying went on)');
      const md = readFileSync(join(dir, 'reports', 'latest', 'report.md'), 'utf8').split('\n');
      expect(md.filter((l) => l.includes('not judged: judge behind'))).toEqual([
        '**3 exchanges of 2 clients not judged: judge behind.** The proxy relayed them; the judge could not keep up, so whole clients were left unjudged rather than memory growing.',
      ]);
      expect((JSON.parse(readFileSync(join(dir, 'reports', 'latest', 'report.json'), 'utf8')) as RunReport).traffic?.shed).toEqual({ exchanges: 3, clients: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
