/** What a served simulator shows of its traffic (issue 11): the request journal and `serve --log`. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { logLine, parseServeArgs, startServer } from '../../src/cli/serve.js';
import { listen } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';
import { Journal, redactUrl } from '../../src/sim/journal.js';
import { at, FIXED_NOW, harness } from './helpers.js';

describe('GET /__sim/requests', () => {
  it('lists the requests answered, oldest first, with status and client id; not its own reads', () => {
    const h = harness();
    h.get('/v2/accounts?page[limit]=2');
    h.get('/v2/nowhere');
    h.get('/v2/accounts', { token: h.sim.issueToken('other', 'read-only') });
    const res = h.admin('GET', '/__sim/requests');
    expect(res.status).toBe(200);
    const data = at(res.json, 'data') as { seq: number; method: string; url: string; status: number; client_id: string | null }[];
    expect(data.map((e) => [e.method, e.url, e.status, e.client_id])).toEqual([
      ['GET', '/v2/accounts?page[limit]=2', 200, 'commerce-sim'],
      ['GET', '/v2/nowhere', 404, null],
      ['GET', '/v2/accounts', 200, 'other'],
    ]);
    expect(data.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(at(h.admin('GET', '/__sim/requests').json, 'data')).toHaveLength(3);
  });

  it('filters by method, path prefix, status, client, since and limit', () => {
    const h = harness();
    h.get('/v2/accounts');
    h.post('/v2/accounts', { data: { type: 'account', name: 'J' } });
    h.get('/v2/orders');
    h.get('/v2/accounts', { token: 'wrong' });
    const urls = (q: string) => (at(h.admin('GET', `/__sim/requests?${q}`).json, 'data') as { url: string; status: number }[]).map((e) => `${e.status} ${e.url}`);
    expect(urls('method=POST')).toEqual(['201 /v2/accounts']);
    expect(urls('path=/v2/orders')).toEqual(['200 /v2/orders']);
    expect(urls('status=401')).toEqual(['401 /v2/accounts']);
    expect(urls('client=commerce-sim&method=GET')).toEqual(['200 /v2/accounts', '200 /v2/orders']);
    expect(urls('since=2')).toEqual(['200 /v2/orders', '401 /v2/accounts']);
    expect(urls('limit=1')).toEqual(['401 /v2/accounts']);
    expect(h.admin('GET', '/__sim/requests?limit=many').status).toBe(400);
  });

  it('is cleared by a reset, and needs the admin token', () => {
    const h = harness();
    h.get('/v2/accounts');
    h.admin('POST', '/__sim/reset');
    expect(at(h.admin('GET', '/__sim/requests').json, 'data')).toEqual([]);
    expect(h.get('/__sim/requests').status).toBe(401);
  });

  it('keeps secrets out: no headers or bodies, secret-looking query values redacted', () => {
    const h = harness();
    h.call('POST', '/oauth/access_token', {
      token: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=x&client_secret=hunter2-secret',
    });
    h.get('/v2/accounts?access_token=abc123&page[limit]=1');
    const body = h.admin('GET', '/__sim/requests').body;
    expect(body).not.toContain('hunter2');
    expect(body).not.toContain('abc123');
    expect(body).not.toContain(h.token);
    expect(body).toContain('access_token=<redacted>');
    expect(redactUrl('/x?password=p&page=2')).toBe('/x?password=<redacted>&page=2');
  });

  it('is a ring buffer: it keeps the newest N, however many requests come', () => {
    const j = new Journal(3);
    for (let i = 0; i < 10; i++) j.record('GET', `/r${i}`, null, { status: 200, latencyMs: 0, fault: null }, 0);
    expect(j.list().map((e) => [e.seq, e.url])).toEqual([
      [8, '/r7'],
      [9, '/r8'],
      [10, '/r9'],
    ]);
    const h = harness({ journalSize: 5 });
    for (let i = 0; i < 50; i++) h.get(`/v2/accounts?page[offset]=${i}`);
    expect(at(h.admin('GET', '/__sim/requests').json, 'data')).toHaveLength(5);
  });
});

type Entry = { url: string; status: number | null; received_at: string; answered_at: string; latency_ms: number; fault: string | null };

describe('what the client met', () => {
  it("in process: the injected clock's time, the latency and the fault injected; a reset has no status", () => {
    const h = harness();
    h.get('/v2/accounts?page[limit]=1');
    h.admin('PUT', '/__sim/adversity', { latency_ms: 40, reset_share: 1 });
    expect(h.get('/v2/accounts?page[limit]=2').transport).toEqual({ delayMs: 40, cut: 'reset' });
    h.admin('PUT', '/__sim/adversity', { truncate_share: 1 });
    h.get('/v2/accounts?page[limit]=3');
    h.admin('PUT', '/__sim/adversity', { error_share: 1 });
    const failed = h.get('/v2/accounts?page[limit]=4');
    const data = at(h.admin('GET', '/__sim/requests').json, 'data') as Entry[];
    const now = new Date(FIXED_NOW).toISOString();
    expect(data.map((e) => [e.url, e.status, e.latency_ms, e.fault])).toEqual([
      ['/v2/accounts?page[limit]=1', 200, 0, null],
      ['/v2/accounts?page[limit]=2', null, 40, 'reset'],
      ['/v2/accounts?page[limit]=3', 200, 0, 'truncated'],
      ['/v2/accounts?page[limit]=4', failed.status, 0, 'error'],
    ]);
    expect([500, 503]).toContain(failed.status);
    expect(data.every((e) => e.received_at === now && e.answered_at === now)).toBe(true);
  });

  it("served: the adapter's times, the latency it held the answer for, and the reset or cut it applied; --log lines likewise", async () => {
    let out = '';
    const stdout = new Writable({ write: (c: Buffer, _e, done) => ((out += c.toString()), done()) });
    const options = parseServeArgs(['--port', '0', '--log', '--json']);
    if (options === 'help') throw new Error('help');
    const session = await startServer(options, { cwd: process.cwd(), stdout }, () => Date.now());
    const base = session.info.base_url;
    const admin = { authorization: `Bearer ${session.info.admin_token}`, 'content-type': 'application/json' };
    const api = { authorization: `Bearer ${session.info.token}` };
    const adversity = async (body: unknown) => expect((await fetch(`${base}/__sim/adversity`, { method: 'PUT', headers: admin, body: JSON.stringify(body) })).status).toBe(200);
    let data: Entry[];
    try {
      await adversity({ latency_ms: 150 });
      expect((await fetch(`${base}/v2/accounts?page[limit]=1`, { headers: api })).status).toBe(200);
      await adversity({ reset_share: 1 });
      await expect(fetch(`${base}/v2/accounts?page[limit]=2`, { headers: api })).rejects.toThrow();
      await adversity({ truncate_share: 1 });
      await expect(fetch(`${base}/v2/accounts?page[limit]=3`, { headers: api }).then((r) => r.text())).rejects.toThrow();
      await adversity({});
      // The entries of cut connections are settled as the adapter cuts them, a moment after the client sees it: read until they are.
      const read = async () => at((await (await fetch(`${base}/__sim/requests`, { headers: admin })).json()) as unknown, 'data') as Entry[];
      data = await read();
      while (data.filter((e) => e.url.startsWith('/v2/')).some((e) => e.answered_at === null || e.answered_at === undefined) || (data[2]?.fault ?? null) === null) data = await read();
    } finally {
      await session.server.close();
    }
    expect(data.map((e) => [e.url, e.status, e.latency_ms, e.fault])).toEqual([
      ['/v2/accounts?page[limit]=1', 200, 150, null],
      ['/v2/accounts?page[limit]=2', null, 0, 'reset'],
      ['/v2/accounts?page[limit]=3', 200, 0, 'truncated'],
    ]);
    const held = data[0] as Entry;
    expect(Date.parse(held.answered_at) - Date.parse(held.received_at)).toBeGreaterThanOrEqual(150);
    const lines = out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Entry & { method: string; ms: number })
      .filter((l) => l.url.startsWith('/v2/'));
    expect(lines.map((l) => [l.url, l.status, l.fault])).toEqual(data.map((e) => [e.url, e.status, e.fault]));
    // The ms of --log run from received to answered: the injected latency is in them.
    expect((lines[0] as { ms: number }).ms).toBeGreaterThanOrEqual(150);
  });

  it('text --log lines show a reset as the status, and a cut answer, an injected 5xx or latency after the client', () => {
    const entry = { seq: 1, method: 'GET', url: '/v2/accounts', client_id: 'c', received_at: '', answered_at: '' };
    expect(logLine({ ...entry, status: null, latency_ms: 0, fault: 'reset' }, 2, 0, false)).toBe('1970-01-01T00:00:00.000Z GET /v2/accounts reset 2.0ms c\n');
    expect(logLine({ ...entry, status: 200, latency_ms: 300, fault: 'truncated' }, 301, 0, false)).toBe('1970-01-01T00:00:00.000Z GET /v2/accounts 200 301.0ms c fault=truncated latency=300ms\n');
    expect(logLine({ ...entry, status: 503, latency_ms: 0, fault: 'error' }, 1, 0, false)).toBe('1970-01-01T00:00:00.000Z GET /v2/accounts 503 1.0ms c fault=error\n');
  });

  it('shutdown cuts held latency short, and the entry says how long the answer was held', async () => {
    const sim = new Simulator({ seed: 42, accounts: 5, wallClock: () => Date.now() });
    const token = sim.issueToken('commerce-sim', 'read-write');
    expect(sim.handle({ method: 'PUT', url: '/__sim/adversity', headers: { authorization: `Bearer ${sim.adminToken}` }, body: '{"latency_ms": 5000}' }).status).toBe(200);
    const served = await listen(sim, 0, '127.0.0.1');
    const got = fetch(`${served.baseUrl}/v2/accounts`, { headers: { authorization: `Bearer ${token}` } });
    // Close once the request is held (handled, its answer waiting out the latency), not after a guessed pause.
    while (sim.journal.list().length === 0) await new Promise((r) => setImmediate(r));
    await served.close();
    expect((await got).status).toBe(200);
    const [entry] = sim.journal.list();
    expect(entry?.latency_ms).toBeGreaterThanOrEqual(0);
    expect(entry?.latency_ms).toBeLessThan(5000);
    expect(Date.parse(entry?.answered_at ?? '') - Date.parse(entry?.received_at ?? '')).toBeGreaterThanOrEqual(entry?.latency_ms ?? 0);
  });
});

describe('serve --log', () => {
  it('prints one line per request: method, path, status, ms, client id; no token', async () => {
    let out = '';
    const stdout = new Writable({ write: (c: Buffer, _e, done) => ((out += c.toString()), done()) });
    const options = parseServeArgs(['--port', '0', '--log']);
    if (options === 'help') throw new Error('help');
    const session = await startServer(options, { cwd: process.cwd(), stdout }, () => Date.UTC(2026, 0, 1));
    try {
      await fetch(`${session.info.base_url}/v2/accounts?page[limit]=1`, { headers: { authorization: `Bearer ${session.info.token}` } });
      await fetch(`${session.info.base_url}/v2/nope`, { headers: { authorization: `Bearer ${session.info.token}` } });
    } finally {
      await session.server.close();
    }
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^2026-01-01T00:00:00\.000Z GET \/v2\/accounts\?page\[limit\]=1 200 \d+\.\dms commerce-sim$/);
    expect(lines[1]).toMatch(/ GET \/v2\/nope 404 \d+\.\dms -$/);
    expect(out).not.toContain(session.info.token);
  });
});
