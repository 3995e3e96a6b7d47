/**
 * `commerce-sim check` end to end, in-process: the shipped suite's traffic against the simulator,
 * written as HAR by the proxy's writer, judged by `check`: exit codes, merged files, the report's traffic
 * section, a malformed file named with its entry, and nothing secret in what it writes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { check } from '../../src/cli/check.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { ruleById } from '../../src/rules/catalogue.js';
import type { RunReport } from '../../src/report/model.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { COMPLETE_MARK } from '../../src/traffic/har/format.js';
import { openHarWriter } from '../../src/traffic/har/write.js';
import { observedTarget } from '../../src/traffic/observed-target.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { captureIo } from '../support/cli-io.js';
import { writeTrafficReports } from '../../src/cli/traffic-output.js';
import { startJudgingProxy } from '../../src/traffic/proxy/judging-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The shipped suite's traffic against a simulator, as a HAR file; `complete` marks it as the proxy does in
 * front of the simulator; `unmarked` takes out the header with which its deliberate requests name the rules they break.
 */
async function suiteHar(name: string, complete: boolean, unmarked = false): Promise<string> {
  const sim = await createSimTarget({ wallClock: () => Date.UTC(2025, 0, 1) });
  const entries: TrafficEntry[] = [];
  await runScenarios(await loadSuite(), { target: observedTarget(sim, (e) => entries.push(e)), ruleById, concurrency: 1 });
  const file = join(dir, name);
  // Written as the proxy writes it: every header it relayed is in the file.
  const har = await openHarWriter(file, { creator: { name: 'commerce-sim proxy', version: '1', ...(complete ? { comment: COMPLETE_MARK } : {}) } });
  for (const e of entries) await har.write({ ...(unmarked ? withoutExpect(e) : e), origin: 'http://sim.test' });
  await har.close();
  return file;
}

function withoutExpect(e: TrafficEntry): TrafficEntry {
  const { 'x-commerce-sim-expect': _gone, ...headers } = e.exchange.request.headers ?? {};
  return { ...e, exchange: { ...e.exchange, request: { ...e.exchange.request, headers } } };
}

const reportOf = (reports: string): RunReport => JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as RunReport;

describe('commerce-sim check', () => {
  let complete: string;
  let plain: string;
  let unmarked: string;
  beforeAll(async () => {
    complete = await suiteHar('complete.har', true);
    plain = await suiteHar('plain.har', false);
    unmarked = await suiteHar('unmarked.har', true, true);
  }, 90_000);

  it('judges the faithful simulator’s traffic: no documented server failure (exit 0 with --judge server)', async () => {
    const reports = join(dir, 'server');
    const p = captureIo({ cwd: dir });
    expect(await check([complete, '--judge', 'server', '--report', reports], p.io), p.out() + p.err()).toBe(0);
    const report = reportOf(reports);
    expect(report.summary.documented.fail).toBe(0);
    expect(report.traffic).toMatchObject({ complete: true, judged: 'server', sources: [complete] });
    expect(report.rules.some((r) => r.id.startsWith('client.'))).toBe(false);
    // Rules the traffic never exercised are counted 0 and reported as not observed, never as passed.
    const notObserved = report.rules.filter((r) => r.status === 'not-covered');
    expect(notObserved.length).toBeGreaterThan(0);
    for (const r of notObserved) expect(r.passed + r.failed + r.inconclusive).toBe(0);
    expect(readFileSync(join(reports, 'latest', 'report.md'), 'utf8')).toContain('not observed');
  });

  it('judges the client too: the suite probes limits on purpose and says so, so its findings are deliberate (exit 0); unmarked they fail (exit 1)', async () => {
    const reports = join(dir, 'both');
    const p = captureIo({ cwd: dir });
    expect(await check([complete, '--report', reports], p.io), p.out()).toBe(0);
    const deliberate = reportOf(reports).traffic?.deliberate;
    expect(deliberate?.byRule['client.offset.hard-limit']).toBe(4);
    expect(p.out()).toContain(`  ${deliberate?.total ?? 0} deliberate client findings, never failures (`);
    expect(readFileSync(join(reports, 'latest', 'report.md'), 'utf8')).toContain(`${deliberate?.total ?? 0} deliberate client findings, never failures`);
    const failingReports = join(dir, 'both-unmarked');
    const q = captureIo({ cwd: dir });
    expect(await check([unmarked, '--report', failingReports], q.io)).toBe(1);
    const failing = reportOf(failingReports)
      .rules.filter((r) => r.status === 'fail' && r.level === 'documented')
      .map((r) => r.id)
      .sort();
    expect(failing).toEqual(['client.create.authorization', 'client.create.body', 'client.create.fields', 'client.create.password-length', 'client.create.type', 'client.offset.hard-limit']);
    expect(reportOf(failingReports).traffic?.deliberate).toBeUndefined();
    // Traffic that cannot be marked names the rules it breaks on purpose with --expect.
    const expected = captureIo({ cwd: dir });
    expect(await check([unmarked, '--report', join(dir, 'both-expect'), ...failing.flatMap((id) => ['--expect', id])], expected.io), expected.out()).toBe(0);
  });

  it('--expect takes client rule ids only, and suggests the nearest', async () => {
    const p = captureIo({ cwd: dir });
    expect(await check([complete, '--expect', 'client.create.passwd-length'], p.io)).toBe(2);
    expect(p.err()).toContain("--expect takes a client rule id, got 'client.create.passwd-length' (did you mean client.create.password-length?)");
  });

  it('appends its summary, with the traffic line, to the GitHub job summary', async () => {
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '');
    const p = captureIo({ cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
    await check([complete, '--judge', 'server', '--report', join(dir, 'gh')], p.io);
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain('commerce-sim check');
    expect(text).toMatch(/exchanges from .*complete\.har/);
    expect(text).toContain('not observed');
  });

  it('under GitHub Actions annotates each failure that fails the run, at the HAR checked', async () => {
    const p = captureIo({ cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(await check([unmarked, '--report', join(dir, 'annotated')], p.io)).toBe(1);
    expect(p.out()).toMatch(/^::error file=[^,]*unmarked\.har,title=client\.offset\.hard-limit/m);
  });

  it('--findings prints the findings of the side it judges only', async () => {
    const p = captureIo({ cwd: dir });
    await check([complete, '--judge', 'server', '--findings', '--report', join(dir, 'printed')], p.io);
    expect(p.out()).not.toMatch(/^. client\./m);
    const q = captureIo({ cwd: dir });
    await check([unmarked, '--findings', '--report', join(dir, 'printed')], q.io);
    expect(q.out()).toMatch(/^✗ client\.offset\.hard-limit \(documented, client\)/m);
  });

  it('merges several files into one report', async () => {
    const reports = join(dir, 'merged');
    const p = captureIo({ cwd: dir });
    await check([complete, plain, '--judge', 'server', '--report', reports], p.io);
    const one = reportOf(join(dir, 'server'));
    const merged = reportOf(reports);
    expect(merged.traffic?.entries).toBe(2 * (one.traffic?.entries ?? 0));
    // Only one file says it is complete: the merged traffic is not.
    expect(merged.traffic?.complete).toBe(false);
  });

  it('exits 2 on a malformed entry, naming the file and the entry', async () => {
    const bad = join(dir, 'bad.har');
    writeFileSync(
      bad,
      JSON.stringify({
        log: {
          version: '1.2',
          creator: { name: 'x', version: '1' },
          entries: [{ startedDateTime: '2025-01-01T00:00:00Z', request: { method: 'GET', url: 'http://x/v2/accounts', headers: [] }, response: { headers: [] } }],
        },
      }),
    );
    const p = captureIo({ cwd: dir });
    expect(await check([bad], p.io)).toBe(2);
    expect(p.err()).toMatch(/bad\.har: entry 1: .*status/);
    expect(p.err()).toContain('TRAFFIC_BAD_INPUT');
  });

  it('exits 2 on a file that is not there, and on no file at all', async () => {
    const p = captureIo({ cwd: dir });
    expect(await check([join(dir, 'missing.har')], p.io)).toBe(2);
    expect(p.err()).toContain('missing.har');
    const q = captureIo({ cwd: dir });
    expect(await check([], q.io)).toBe(2);
    expect(q.err()).toContain('at least one');
  });
});

describe('a redacted credential is not judged', () => {
  it('auth.missing-401 does not take `Bearer [REDACTED 3f9a0c12]` for a request without a valid token', async () => {
    const file = join(dir, 'marked.har');
    const har = await openHarWriter(file, { creator: { name: 'test', version: '1' } });
    const body = JSON.stringify({ data: [], meta: { page: { limit: 25, offset: 0, current: 1, total: 0 }, results: { total: 0 } } });
    await har.write({
      exchange: {
        request: { method: 'GET', url: '/v2/accounts', headers: { authorization: 'Bearer a-real-token-0123456789' } },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body },
        json: JSON.parse(body) as unknown,
      },
      origin: 'http://sim.test',
      source: 's',
    });
    await har.close();
    expect(readFileSync(file, 'utf8')).toMatch(/Bearer \[REDACTED [0-9a-f]{8}\]/);
    const reports = join(dir, 'marked');
    await check([file, '--report', reports], captureIo({ cwd: dir }).io);
    expect(reportOf(reports).rules.find((r) => r.id === 'auth.missing-401')?.status).toBe('not-covered');
  });
});

describe('what was judged is what the verdict says', () => {
  const harOf = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });
  const entry = (url: string, status: number, headers: { name: string; value: string }[], content: Record<string, unknown>) => ({
    startedDateTime: '2026-11-20T10:00:00.000Z',
    time: 1,
    request: { method: 'GET', url, httpVersion: 'HTTP/1.1', headers: [{ name: 'authorization', value: 'Bearer t' }], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: { status, statusText: '', httpVersion: 'HTTP/1.1', headers, cookies: [], content, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  });

  it('a HAR with no entries is NOTHING JUDGED, exit 2, not PASS', async () => {
    const file = join(dir, 'empty.har');
    writeFileSync(file, harOf([]));
    const p = captureIo({ cwd: dir });
    expect(await check([file, '--report', join(dir, 'empty')], p.io), p.out()).toBe(2);
    expect(p.out()).toContain('NOTHING JUDGED');
    expect(p.out()).not.toMatch(/\bPASS\b/);
  });

  it('a HAR of exchanges no rule covers (a path the document does not list, token calls) is NOTHING JUDGED, exit 2, not PASS', async () => {
    const json = [{ name: 'content-type', value: 'application/json' }];
    const text = (value: unknown) => {
      const t = JSON.stringify(value);
      return { size: t.length, mimeType: 'application/json', text: t };
    };
    const token = {
      ...entry('http://api.test/oauth/access_token', 200, json, text({ access_token: 'a-token-0123456789', token_type: 'Bearer', expires_in: 3600 })),
      request: {
        method: 'POST',
        url: 'http://api.test/oauth/access_token',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'content-type', value: 'application/x-www-form-urlencoded' }],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 60,
        postData: { mimeType: 'application/x-www-form-urlencoded', text: 'grant_type=client_credentials&client_id=id&client_secret=secret' },
      },
    };
    const entries = [
      token,
      entry('http://api.test/v2/unknown-things', 200, json, text({ data: [{ id: 'u1', type: 'unknown_thing' }] })),
      entry('http://api.test/v2/unknown-things?page[limit]=5&page[offset]=20', 200, json, text({ data: [] })),
      entry('http://api.test/v2/unknown-things/u1', 404, json, text({ errors: [{ status: 404, title: 'Not Found' }] })),
    ];
    const file = join(dir, 'uncovered.har');
    writeFileSync(file, harOf(entries));
    const reports = join(dir, 'uncovered');
    const p = captureIo({ cwd: dir });
    expect(await check([file, '--report', reports], p.io), p.out() + p.err()).toBe(2);
    const lines = p.out().split('\n');
    expect(lines[0]).toBe(`commerce-sim check ${file}: 4 exchanges, 2 clients, 2 walks`);
    expect(lines[1]).toBe('  NOTHING JUDGED: no documented rule was exercised by these 4 exchanges');
    expect(p.out()).not.toMatch(/\bPASS\b/);
    const report = reportOf(reports);
    expect(report.traffic?.entries).toBe(4);
    expect(report.rules.filter((r) => r.level === 'documented' && r.status !== 'not-covered').map((r) => r.id)).toEqual([]);
  });

  it('a proxy whose upstream never answered (only its own 502s): NOTHING JUDGED, exit 2', async () => {
    const proxy = await startJudgingProxy({ upstream: 'http://127.0.0.1:1', timeoutMs: 2_000 });
    for (let i = 0; i < 3; i++) expect((await fetch(`${proxy.url}/v2/accounts`)).status).toBe(502);
    const result = await proxy.close();
    expect(result.infrastructure).toHaveLength(3);
    const p = captureIo({ cwd: dir });
    const written = writeTrafficReports(p.io, {
      command: 'proxy',
      result,
      judged: 'both',
      strict: false,
      sources: ['proxy'],
      target: { kind: 'http', baseUrl: 'http://127.0.0.1:1' },
      started: Date.now(),
      reportDir: join(dir, 'only-502'),
      json: false,
      reporter: 'summary',
    });
    // Exit 2 through the one error printer (command.ts), which the command wraps around this.
    await expect(written, p.out()).rejects.toMatchObject({ code: 'TRAFFIC_NOTHING_JUDGED' });
    expect(p.out()).toContain('NOTHING JUDGED');
    expect(p.out()).toContain('3 infrastructure note(s)');
  });

  it('a body that cannot be decoded (a broken br stream) is an infrastructure note, never a server failure', async () => {
    const file = join(dir, 'broken-br.har');
    const good = JSON.stringify({ data: [], meta: { page: { limit: 10, offset: 0, current: 1, total: 0 }, results: { total: 0 } } });
    const broken = Buffer.from([0x1b, 0xff, 0xfe, 0x00, 0x9c, 0x80, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1]).toString('base64');
    writeFileSync(
      file,
      harOf([
        entry('http://api.test/v2/accounts?page[limit]=10', 200, [{ name: 'content-type', value: 'application/json' }], { size: good.length, mimeType: 'application/json', text: good }),
        entry(
          'http://api.test/v2/accounts?page[limit]=10&page[offset]=10',
          200,
          [
            { name: 'content-type', value: 'application/json' },
            { name: 'content-encoding', value: 'br' },
          ],
          { size: 40, mimeType: 'application/json', text: broken, encoding: 'base64' },
        ),
      ]),
    );
    const reports = join(dir, 'broken-br');
    const p = captureIo({ cwd: dir });
    expect(await check([file, '--judge', 'server', '--report', reports], p.io), p.out()).toBe(0);
    const report = reportOf(reports);
    expect(report.summary.documented.fail).toBe(0);
    expect(report.traffic?.infrastructure.map((n) => n.kind)).toEqual(['undecodable']);
    expect(report.traffic?.infrastructure[0]?.message).toMatch(/entry 2: GET .*: the answer's br body could not be decoded; not judged/);
  });
});
