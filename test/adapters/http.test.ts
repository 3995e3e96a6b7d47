import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpTarget } from '../../src/adapters/http.js';
import { retryAfterMs, TokenBucket } from '../../src/adapters/http-pacing.js';
import { TargetError, type Target } from '../../src/port.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

type Handler = (req: Seen, res: ServerResponse) => void;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serve(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(s);
      handler(s, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const { port } = address;
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${port}`, seen };
}

async function target(options: Parameters<typeof createHttpTarget>[0]): Promise<Target> {
  const t = await createHttpTarget({ backoffBaseMs: 1, ...options });
  closers.push(() => t.close());
  return t;
}

const send =
  (status: number, body: unknown = {}, headers: Record<string, string> = {}) =>
  (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

const always =
  (status: number, body: unknown = {}, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    send(status, body, headers)(res);

/** Answers the given statuses in turn, then 200. */
const script = (...steps: ((res: ServerResponse) => void)[]): Handler => {
  let i = 0;
  return (_req, res) => (steps[i++] ?? send(200, { ok: true }))(res);
};

async function errorOf(promise: Promise<unknown>): Promise<TargetError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TargetError)) throw new Error(`expected a TargetError, got ${String(error)}`);
  return error;
}

describe('http target', () => {
  it('retries 429 honouring Retry-After (seconds and HTTP date)', async () => {
    const { url, seen } = await serve(script(send(429, {}, { 'retry-after': '0' }), send(429, {}, { 'retry-after': '2' }), send(429, {}, { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' })));
    const waits: number[] = [];
    const t = await target({ baseUrl: url, now: () => Date.parse('2026-01-01T00:00:00Z'), sleep: async (ms) => void waits.push(ms) });
    const res = await t.send({ method: 'GET', url: '/v2/accounts?page[limit]=3' });
    expect(res.status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(Array(4).fill('/v2/accounts?page[limit]=3'));
    expect(waits).toEqual([0, 2000, 5000]);
  });

  it('caps a long Retry-After and gives back the last answer once retries run out', async () => {
    const { url, seen } = await serve(always(503, { errors: [] }, { 'retry-after': '3600' }));
    const waits: number[] = [];
    const t = await target({ baseUrl: url, retries: 2, maxDelayMs: 30_000, sleep: async (ms) => void waits.push(ms) });
    expect((await t.send({ method: 'GET', url: '/x' })).status).toBe(503);
    expect(seen).toHaveLength(3);
    expect(waits).toEqual([30_000, 30_000]);
  });

  it('retries a 5xx with seeded backoff, then succeeds', async () => {
    const { url, seen } = await serve(script(send(500), send(502)));
    const t = await target({ baseUrl: url, seed: 7 });
    const res = await t.send({ method: 'POST', url: '/v2/x', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
    expect(res).toMatchObject({ status: 200, body: '{"ok":true}' });
    expect(res.headers['content-type']).toBe('application/json');
    expect(seen.map((s) => [s.method, s.body, s.headers['content-type']])).toEqual(Array(3).fill(['POST', '{"a":1}', 'application/json']));
  });

  it('throws TARGET_BUDGET_EXHAUSTED past the budget, retries included', async () => {
    const { url, seen } = await serve(script(send(429, {}, { 'retry-after': '0' })));
    const t = await target({ baseUrl: url, budget: 3 });
    await t.send({ method: 'GET', url: '/a' }); // 429 then 200: two requests
    await t.send({ method: 'GET', url: '/b' });
    const error = await errorOf(t.send({ method: 'GET', url: '/c' }));
    expect(error.code).toBe('TARGET_BUDGET_EXHAUSTED');
    expect(error.message).toContain('--budget');
    expect(seen).toHaveLength(3);
  });

  it('throws TARGET_UNREACHABLE naming the URL and the cause, without the token', async () => {
    const { url } = await serve(always(200));
    await closers.pop()?.(); // the port is now closed
    const t = await target({ baseUrl: url, token: 'sekrit-token-123' });
    const error = await errorOf(t.send({ method: 'GET', url: '/v2/accounts' }));
    expect(error.code).toBe('TARGET_UNREACHABLE');
    expect(error.message).toContain(`${url}/v2/accounts`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(`${error.message} ${String(error.stack)} ${JSON.stringify(error)}`).not.toContain('sekrit-token-123');
  });

  it('sends the bearer token unless auth is none, and refuses a bad base URL', async () => {
    const { url, seen } = await serve(always(200));
    const t = await target({ baseUrl: `${url}/`, token: 'tok' });
    await t.send({ method: 'GET', url: '/v2/a' });
    await t.send({ method: 'GET', url: '/v2/b', auth: 'none' });
    await t.send({ method: 'GET', url: '/v2/c', headers: { Authorization: 'Bearer other' } });
    expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer tok', undefined, 'Bearer other']);
    expect(t.baseUrl).toBe(url);
    expect((await errorOf(createHttpTarget({ baseUrl: 'ftp://x' }))).code).toBe('TARGET_BAD_URL');
  });

  it('exchanges client credentials for a token, and fetches a new one when it expires or is refused', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    let issued = 0;
    const { url, seen } = await serve((req, res) => {
      if (req.url === '/oauth/access_token') {
        issued += 1;
        return send(200, { access_token: `tok-${issued}`, token_type: 'Bearer', expires: Math.floor(now / 1000) + 3600, expires_in: 3600 })(res);
      }
      if (req.url === '/v2/revoked' && req.headers.authorization === 'Bearer tok-2') return send(401, { errors: [{ status: 401, title: 'Unauthorized' }] })(res);
      return send(200, { auth: req.headers.authorization })(res);
    });
    const t = await target({ baseUrl: url, clientId: 'cid', clientSecret: 'csecret', now: () => now });
    const token = seen[0];
    expect(token?.method).toBe('POST');
    expect(token?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token?.body))).toEqual({ grant_type: 'client_credentials', client_id: 'cid', client_secret: 'csecret' });
    expect((await t.send({ method: 'GET', url: '/v2/a' })).body).toBe('{"auth":"Bearer tok-1"}');
    now += 3600_000; // expired
    expect((await t.send({ method: 'GET', url: '/v2/a' })).body).toBe('{"auth":"Bearer tok-2"}');
    expect((await t.send({ method: 'GET', url: '/v2/revoked' })).status).toBe(200); // 401 → tok-3 → retried once
    expect(issued).toBe(3);
    expect(t.vars['client_id']).toBe('cid');
  });

  it('fails with TARGET_AUTH_FAILED when the token request is refused, never showing the secret', async () => {
    const { url } = await serve(always(401, { errors: [{ status: 401, title: 'Unauthorized', detail: 'bad secret csecret-xyz' }] }));
    const error = await errorOf(createHttpTarget({ baseUrl: url, clientId: 'cid', clientSecret: 'csecret-xyz' }));
    expect(error.code).toBe('TARGET_AUTH_FAILED');
    expect(error.message).toContain('401');
    expect(error.message).not.toContain('csecret-xyz');
  });
});

describe('pacing', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs(' 12 ', now)).toBe(12_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('lets rps requests per second through a token bucket', async () => {
    let now = 0;
    const slept: number[] = [];
    const bucket = new TokenBucket(
      2,
      2,
      () => now,
      async (ms) => {
        slept.push(ms);
        now += ms;
      },
    );
    for (let i = 0; i < 5; i += 1) await bucket.take();
    expect(now).toBe(1500); // 2 at once, then one every 500 ms
    expect(slept).toEqual([500, 500, 500]);
  });
});

describe('http target: transport a conforming deployment may choose', () => {
  const body = { data: [{ id: 'a' }], meta: { page: { limit: 1 } } };

  it('decodes gzip, deflate and br bodies whatever the request asked for (RFC 9110 §12.5.3)', async () => {
    const { gzipSync, deflateSync, deflateRawSync, brotliCompressSync } = await import('node:zlib');
    const coders: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    for (const [coding, code] of Object.entries(coders)) {
      const { url, seen } = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(code(Buffer.from(JSON.stringify(body))));
      });
      const t = await target({ baseUrl: url });
      const res = await t.send({ method: 'GET', url: '/v2/accounts' });
      expect(JSON.parse(res.body)).toEqual(body);
      expect(seen[0]?.headers['accept-encoding']).toBeUndefined();
    }
    // Raw deflate under the name deflate, as some servers send it.
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'deflate' });
      res.end(deflateRawSync(Buffer.from('{"data":[]}')));
    });
    expect((await (await target({ baseUrl: url })).send({ method: 'GET', url: '/' })).body).toBe('{"data":[]}');
  });

  it('passes the preflight of a deployment that always answers gzip', async () => {
    const { gzipSync } = await import('node:zlib');
    const { preflight } = await import('../../src/adapters/preflight.js');
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/vnd.api+json', 'content-encoding': 'gzip', connection: 'close' });
      res.end(gzipSync(Buffer.from(JSON.stringify(body))));
    });
    await expect(preflight(await target({ baseUrl: url, token: 't' }))).resolves.toBeUndefined();
  });

  it('retries a GET whose connection is reset, never a POST', async () => {
    let gets = 0;
    const { url, seen } = await serve((req, res) => {
      if ((req.method === 'GET' && gets++ === 0) || req.method === 'POST') res.socket?.destroy();
      else send(200, body)(res);
    });
    const t = await target({ baseUrl: url });
    expect((await t.send({ method: 'GET', url: '/v2/accounts' })).status).toBe(200);
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(2);
    const error = await errorOf(t.send({ method: 'POST', url: '/v2/accounts', body: '{}' }));
    expect(error.code).toBe('TARGET_UNREACHABLE');
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it("retries the simulator's admin reset and restore whose connection is reset (the same state however often sent), not another POST", async () => {
    const resets = new Map<string, number>();
    const { url, seen } = await serve((req, res) => {
      const n = resets.get(req.url ?? '') ?? 0;
      resets.set(req.url ?? '', n + 1);
      if (n === 0 || req.url === '/__sim/snapshot') res.socket?.destroy();
      else send(200, body)(res);
    });
    const t = await target({ baseUrl: url });
    expect((await t.send({ method: 'POST', url: '/__sim/reset' })).status).toBe(200);
    expect((await t.send({ method: 'POST', url: '/__sim/restore', body: '{}' })).status).toBe(200);
    expect((await errorOf(t.send({ method: 'POST', url: '/__sim/snapshot' }))).code).toBe('TARGET_UNREACHABLE');
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /__sim/reset', 'POST /__sim/reset', 'POST /__sim/restore', 'POST /__sim/restore', 'POST /__sim/snapshot']);
  });

  it('gives up on a GET reset every time after its retries', async () => {
    const { url, seen } = await serve((_req, res) => res.socket?.destroy());
    const t = await target({ baseUrl: url, retries: 2 });
    expect((await errorOf(t.send({ method: 'GET', url: '/v2/accounts' }))).code).toBe('TARGET_UNREACHABLE');
    expect(seen).toHaveLength(3);
  });
});
