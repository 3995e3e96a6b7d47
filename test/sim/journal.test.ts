/** What a served simulator shows of its traffic (issue 11): the request journal and `serve --log`. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseServeArgs, startServer } from '../../src/cli/serve.js';
import { Journal, redactUrl } from '../../src/sim/journal.js';
import { at, harness } from './helpers.js';

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
    for (let i = 0; i < 10; i++) j.record('GET', `/r${i}`, 200, null);
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
