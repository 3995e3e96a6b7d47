/**
 * `commerce-sim proxy` as a user runs it (the built bin): in front of the embedded simulator it relays,
 * prints a line per finding, stops after --requests N or on SIGTERM, and writes the reports and the HAR;
 * in front of a port nobody listens on, the client gets a 502 in the API's error shape and the report an
 * infrastructure note, never a rule failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'dist/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-proxy-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  readonly token: string | undefined;
  out(): string;
  exited: Promise<number | null>;
}

/** Starts the proxy; resolves once it says where it listens. */
function proxy(args: readonly string[]): Promise<Running> {
  const child = spawn(process.execPath, [MAIN, 'proxy', '--port', '0', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((done, fail) => {
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
      const m = /commerce-sim proxy: (http:\/\/127\.0\.0\.1:\d+) → (?:the embedded simulator \(token: ([^)]+)\)|\S+)/.exec(err);
      if (m?.[1] !== undefined) done({ child, url: m[1], token: m[2], out: () => out, exited });
    });
    void exited.then((code) => fail(new Error(`proxy exited (${code}) before listening: ${err}`)));
  });
}

const report = (reports: string): RunReport => JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as RunReport;

describe('commerce-sim proxy', () => {
  it('relays to the embedded simulator, prints findings as they happen, stops after --requests and writes the reports and the HAR', async () => {
    const p = await proxy(['--upstream', 'sim', '--requests', '3', '--har', 'traffic.har', '--report', 'r1']);
    const get = (path: string) => fetch(`${p.url}${path}`, { headers: { authorization: `Bearer ${p.token ?? ''}` } });
    const first = await get('/v2/accounts?sort=created_at&page[limit]=5');
    expect(first.status).toBe(200);
    const body = (await first.json()) as { data: { meta: { timestamps: { created_at: string } } }[] };
    const last = body.data.at(-1)?.meta.timestamps.created_at ?? '';
    // A gt on a timestamp: the client rule says so, on stdout, as it happens.
    expect((await get(`/v2/accounts?sort=created_at&page[limit]=5&filter=gt(created_at,${last})`)).status).toBe(200);
    expect((await get('/v2/orders?page[offset]=10001')).status).toBe(400);
    expect(await p.exited).toBe(1);
    expect(p.out()).toContain('client.keyset.timestamp-ge (documented, client)');
    expect(p.out()).toContain('client.offset.hard-limit (documented, client)');
    const r = report(join(dir, 'r1'));
    expect(r.traffic).toMatchObject({ entries: 3, complete: true, sources: ['proxy'] });
    expect(r.rules.find((x) => x.id === 'client.keyset.timestamp-ge')?.status).toBe('fail');
    for (const f of ['report.json', 'junit.xml', 'report.md', 'report.html']) expect(existsSync(join(dir, 'r1', 'latest', f))).toBe(true);
    const har = readFileSync(join(dir, 'traffic.har'), 'utf8');
    expect(JSON.parse(har).log.entries).toHaveLength(3);
    expect(har).not.toContain(p.token ?? 'no token');
  }, 60_000);

  it('writes its reports on SIGTERM', async () => {
    const p = await proxy(['--upstream', 'sim', '--report', 'r2', '--quiet']);
    expect((await fetch(`${p.url}/v2/accounts`, { headers: { authorization: `Bearer ${p.token ?? ''}` } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(report(join(dir, 'r2')).traffic?.entries).toBe(1);
  }, 60_000);

  it('answers 502 when the upstream is unreachable, and reports it as infrastructure, not a rule: nothing judged is exit 2, not a pass', async () => {
    const p = await proxy(['--upstream', 'http://127.0.0.1:9', '--requests', '1', '--report', 'r3', '--duration', '20']);
    const res = await fetch(`${p.url}/v2/accounts`);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { errors: { status: number }[] }).errors[0]?.status).toBe(502);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(2);
    expect(p.out()).toContain('NOTHING JUDGED');
    const r = report(join(dir, 'r3'));
    expect(r.traffic?.infrastructure.length).toBeGreaterThan(0);
    expect(r.summary.documented.fail + r.summary.assumed.fail).toBe(0);
    expect(readFileSync(join(dir, 'r3', 'latest', 'report.md'), 'utf8')).toContain('Infrastructure (never a rule failure)');
  }, 60_000);

  it('refuses a bad upstream with a usage error', async () => {
    const child = spawn(process.execPath, [MAIN, 'proxy', '--upstream', 'ftp://x'], { cwd: dir });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).toBe(2);
    expect(err).toMatch(/--upstream must be an http\(s\) base URL or sim/);
  });
});
