/**
 * The relay of `commerce-sim proxy` on real sockets: answers relayed byte for byte (the simulator as the
 * upstream, compared with asking it directly), entries for the judge off the request path, the relay's own
 * 502/504, `annotate`, HTTPS, keep-alive, clients that go, and shutdown with a request in flight.
 */
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { startSimulator, type StartedSimulator } from '../../src/kit/start-simulator.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { startBareRelay, startRelay, type InfraNote, type Relay, type RelayOptions } from '../../src/traffic/relay/relay.js';
import { asFrom, Collector, deferred, endToEnd, headerValues, httpsUpstream, later, raw, selfSigned, upstream } from './helpers.js';

async function sim(options: Parameters<typeof startSimulator>[0] = {}): Promise<StartedSimulator> {
  const s = await startSimulator({ accounts: 120, ...options });
  later(() => s.close());
  return s;
}

async function relay(options: Omit<RelayOptions, 'port' | 'onExchange'> & { onExchange?: RelayOptions['onExchange'] }): Promise<Relay> {
  const r = await startRelay({ port: 0, onExchange: () => undefined, ...options });
  later(() => r.close());
  return r;
}

const auth = (s: StartedSimulator) => ({ authorization: `Bearer ${s.token}` });
const createBody = JSON.stringify({ data: { type: 'account', name: 'Relayed' } });

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('relay: answers unchanged', () => {
  it('a list GET, a POST create, a 404 and a HEAD come through byte for byte, headers equal but the per-connection ones', async () => {
    const s = await sim();
    const r = await relay({ upstream: s.baseUrl });
    const cases = [
      { path: '/v2/accounts?page[limit]=100', headers: auth(s) },
      { method: 'POST', path: '/v2/accounts', headers: { ...auth(s), 'content-type': 'application/json' }, body: createBody },
      { path: '/v2/accounts/00000000-0000-4000-8000-000000000000', headers: auth(s) },
      { path: '/v2/nothing-here?x=%2F&y', headers: auth(s) },
      { method: 'HEAD', path: '/v2/accounts?page[limit]=2', headers: auth(s) },
    ];
    for (const c of cases) {
      await s.reset(); // a create answers the same record both times
      const direct = await raw(s.baseUrl, asFrom(r, c));
      await s.reset();
      const proxied = await raw(r.url, c);
      expect(proxied.status, c.path).toBe(direct.status);
      expect(proxied.statusMessage).toBe(direct.statusMessage);
      expect(endToEnd(proxied.rawHeaders)).toEqual(endToEnd(direct.rawHeaders));
      expect(proxied.body.equals(direct.body), `${c.method ?? 'GET'} ${c.path}`).toBe(true);
    }
    const statuses = await Promise.all(cases.map((c) => raw(r.url, c).then((a) => a.status)));
    expect(statuses).toEqual([200, 201, 404, 404, 405]); // the simulator answers no HEAD
  });

  it('a gzip answer is relayed still compressed, and judged decoded', async () => {
    const s = await sim({ readings: { compression: 'always' } });
    const entries = new Collector<TrafficEntry>();
    const r = await relay({ upstream: s.baseUrl, onExchange: entries.push });
    const c = { path: '/v2/accounts?page[limit]=50', headers: { ...auth(s), 'accept-encoding': 'gzip' } };
    const direct = await raw(s.baseUrl, asFrom(r, c));
    const proxied = await raw(r.url, c);
    expect(headerValues(proxied.rawHeaders, 'content-encoding')).toEqual(['gzip']);
    expect(proxied.body.equals(direct.body)).toBe(true);
    expect(proxied.body[0]).toBe(0x1f); // gzip's magic byte: not decoded on the way
    const [entry] = await entries.next(1);
    expect(entry?.exchange.response.headers['content-encoding']).toBe('gzip');
    expect(entry?.exchange.response.body.startsWith('{')).toBe(true);
    expect(entry?.exchange.json).toMatchObject({ data: expect.any(Array) });
    expect(entry?.truncated).toBeUndefined();
  });

  it('an answer whose br stream is broken is relayed as it came, and its entry says it could not be decoded', async () => {
    const broken = Buffer.from([0x1b, 0xff, 0xfe, 0x00, 0x9c, 0x80, 0xc3, 0x28]);
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
      res.end(broken);
    });
    const entries = new Collector<TrafficEntry>();
    const r = await relay({ upstream: up.url, onExchange: entries.push });
    const proxied = await raw(r.url, { path: '/v2/accounts' });
    expect(proxied.body.equals(broken)).toBe(true);
    const [entry] = await entries.next(1);
    expect(entry?.undecodable).toBe("the answer's br body could not be decoded");
  });

  it('tells the upstream who asked and at which address: X-Forwarded-For, -Host, -Proto and Forwarded', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const up = await upstream((req, res) => {
      seen.push(req.headers);
      res.end('{}');
    });
    const r = await relay({ upstream: up.url, onExchange: () => undefined });
    await raw(r.url, { path: '/v2/accounts' });
    await raw(r.url, {
      path: '/v2/accounts',
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-host': 'shop.example.com', 'x-forwarded-proto': 'https', forwarded: 'for=203.0.113.9;host=shop.example.com;proto=https' },
    });
    const host = new URL(r.url).host;
    // RFC 7239: a host with a port is a quoted string (':' is no token character).
    expect(seen[0]).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-host': host, 'x-forwarded-proto': 'http', forwarded: `for=127.0.0.1;host="${host}";proto=http` });
    // An earlier proxy's word stands; this one adds itself to the chains.
    expect(seen[1]).toMatchObject({
      'x-forwarded-for': '203.0.113.9, 127.0.0.1',
      'x-forwarded-host': 'shop.example.com',
      'x-forwarded-proto': 'https',
      forwarded: `for=203.0.113.9;host=shop.example.com;proto=https, for=127.0.0.1;host="${host}";proto=http`,
    });
  });

  it('the bare relay relays the same bytes and calls nothing', async () => {
    const s = await sim();
    const r = await startBareRelay({ upstream: s.baseUrl, port: 0 });
    later(() => r.close());
    const c = { path: '/v2/accounts?page[limit]=100', headers: auth(s) };
    const [direct, proxied] = [await raw(s.baseUrl, asFrom(r, c)), await raw(r.url, c)];
    expect(proxied.body.equals(direct.body)).toBe(true);
    expect(r.stats()).toEqual({ relayed: 1, infra: 0, failedCallbacks: 0 });
  });

  it('repeated and odd header lines pass unchanged; hop-by-hop ones, and those Connection names, stop at the relay', async () => {
    const seen: string[][] = [];
    const up = await upstream((req, res) => {
      seen.push(req.rawHeaders);
      res.writeHead(200, 'Fine Thanks', ['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'X-Odd-Case', 'Yes', 'Connection', 'X-Secret', 'X-Secret', 'hop', 'Content-Length', '2']);
      res.end('ok');
    });
    const r = await relay({ upstream: up.url });
    const a = await raw(r.url, { path: '/p?q=1', headers: { 'X-Mine': 'm', Connection: 'X-Hop', 'X-Hop': 'h', 'Proxy-Authorization': 'p', TE: 'trailers' } });
    expect(a.status).toBe(200);
    expect(a.statusMessage).toBe('Fine Thanks');
    expect(headerValues(a.rawHeaders, 'set-cookie')).toEqual(['a=1', 'b=2']);
    expect(a.rawHeaders).toContain('X-Odd-Case');
    expect(headerValues(a.rawHeaders, 'x-secret')).toEqual([]);
    const sent = seen[0] ?? [];
    expect(headerValues(sent, 'x-mine')).toEqual(['m']);
    expect(headerValues(sent, 'host')).toEqual([new URL(up.url).host]);
    for (const gone of ['x-hop', 'proxy-authorization', 'te']) expect(headerValues(sent, gone), gone).toEqual([]);
    const head = await raw(r.url, { method: 'HEAD', path: '/p' });
    expect(head.status).toBe(200);
    expect(headerValues(head.rawHeaders, 'content-length')).toEqual(['2']);
    expect(head.body.length).toBe(0);
  });
});

describe('relay: entries for the judge', () => {
  it('onExchange gets each exchange in order, off the path, with the JSON parsed', async () => {
    const s = await sim();
    const entries = new Collector<TrafficEntry>();
    const r = await relay({ upstream: s.baseUrl, onExchange: entries.push });
    const before = Date.now();
    await raw(r.url, { path: '/v2/accounts?page[limit]=3', headers: auth(s) });
    await raw(r.url, { method: 'POST', path: '/v2/accounts', headers: { ...auth(s), 'content-type': 'application/json' }, body: createBody });
    await raw(r.url, { path: '/v2/accounts/nope', headers: auth(s) });
    const [list, create, missing] = await entries.next(3);
    expect([list, create, missing].map((e) => e?.source)).toEqual(['proxy #1', 'proxy #2', 'proxy #3']);
    for (const e of [list, create, missing]) {
      expect(e?.origin).toBe(s.baseUrl);
      expect(Date.parse(e?.startedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
      expect(e?.durationMs).toBeGreaterThanOrEqual(0);
      expect(e?.exchange.request.headers?.['authorization']).toBe(`Bearer ${s.token}`);
      expect(e?.exchange.request.headers?.['host']).toBe(new URL(s.baseUrl).host);
    }
    expect(list?.exchange.request).toMatchObject({ method: 'GET', url: '/v2/accounts?page[limit]=3' });
    expect(list?.exchange.request.body).toBeUndefined();
    expect(list?.exchange.response.status).toBe(200);
    expect((list?.exchange.json as { data: unknown[] }).data).toHaveLength(3);
    expect(create?.exchange.request).toMatchObject({ method: 'POST', url: '/v2/accounts', body: createBody });
    expect(create?.exchange.response.status).toBe(201);
    expect(create?.exchange.json).toMatchObject({ data: { name: 'Relayed' } });
    expect(missing?.exchange.response.status).toBe(404);
    expect(missing?.exchange.json).toMatchObject({ errors: expect.any(Array) });
    expect(r.stats()).toEqual({ relayed: 3, infra: 0, failedCallbacks: 0 });
  });

  it('an onExchange that throws changes no answer and stops nothing', async () => {
    const s = await sim();
    const calls = new Collector<string>();
    const r = await relay({
      upstream: s.baseUrl,
      onExchange: (e) => {
        calls.push(e.source);
        throw new Error('consumer broke');
      },
    });
    for (let i = 0; i < 5; i++) expect((await raw(r.url, { path: '/v2/accounts?page[limit]=1', headers: auth(s) })).status).toBe(200);
    await calls.next(5);
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.stats()).toEqual({ relayed: 5, infra: 0, failedCallbacks: 5 });
  });

  it('bodies past maxCaptureBytes: the client gets every byte, the entry the first ones, marked truncated', async () => {
    const big = JSON.stringify({ data: Array.from({ length: 400 }, (_, i) => ({ id: i, name: `account ${i}` })) });
    const up = await upstream((req, res) => {
      req.resume();
      req.on('end', () => {
        const gz = req.url === '/gz';
        const body = gz ? gzipSync(big) : Buffer.from(big);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, ...(gz ? { 'content-encoding': 'gzip' } : {}) });
        res.end(body);
      });
    });
    const entries = new Collector<TrafficEntry>();
    const r = await relay({ upstream: up.url, maxCaptureBytes: 1000, onExchange: entries.push });
    const sentBody = 'x'.repeat(5000);
    const plain = await raw(r.url, { method: 'POST', path: '/plain', headers: { 'content-type': 'text/plain' }, body: sentBody });
    const gz = await raw(r.url, { path: '/gz' });
    expect(plain.body.toString()).toBe(big);
    expect(gz.body.equals(gzipSync(big))).toBe(true);
    const [p, g] = await entries.next(2);
    expect(p?.truncated).toBe(true);
    expect(p?.exchange.response.body).toBe(big.slice(0, 1000));
    expect(p?.exchange.request.body).toBe('x'.repeat(1000));
    expect(p?.exchange.json).toBeUndefined();
    expect(g?.truncated).toBe(true);
    // The first 1,000 compressed bytes, decoded as far as they go.
    expect(g?.exchange.response.body.startsWith('{"data":[{"id":0,"name":"account 0"}')).toBe(true);
  });
});

describe('relay: when there is no answer to relay', () => {
  it('an upstream that refuses: 502 in the API error shape, onInfra unreachable, no entry', async () => {
    const port = await closedPort();
    const notes = new Collector<InfraNote>();
    const entries = new Collector<TrafficEntry>();
    const r = await relay({ upstream: `http://127.0.0.1:${port}`, onInfra: notes.push, onExchange: entries.push });
    const a = await raw(r.url, { path: '/v2/accounts?page[limit]=1' });
    expect(a.status).toBe(502);
    expect(headerValues(a.rawHeaders, 'content-type')).toEqual(['application/json']);
    const body = JSON.parse(a.body.toString()) as { errors: { status: number; title: string; detail: string }[] };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ status: 502, title: 'Bad Gateway' });
    expect(body.errors[0]?.detail).toMatch(/ECONNREFUSED/);
    const [note] = await notes.next(1);
    expect(note).toMatchObject({ kind: 'unreachable', method: 'GET', url: '/v2/accounts?page[limit]=1' });
    expect(note?.message).toMatch(/ECONNREFUSED/);
    expect(Number.isNaN(Date.parse(note?.at ?? ''))).toBe(false);
    expect(entries.items).toEqual([]);
    expect(r.stats()).toMatchObject({ relayed: 0, infra: 1 });
  });

  it('an upstream that never answers: 504 after timeoutMs, onInfra timeout', async () => {
    const up = await upstream(() => undefined);
    const notes = new Collector<InfraNote>();
    const r = await relay({ upstream: up.url, timeoutMs: 150, onInfra: notes.push });
    const a = await raw(r.url, { path: '/slow' });
    expect(a.status).toBe(504);
    expect(JSON.parse(a.body.toString())).toMatchObject({ errors: [{ status: 504, title: 'Gateway Timeout' }] });
    const [note] = await notes.next(1);
    expect(note).toMatchObject({ kind: 'timeout', url: '/slow' });
  });

  it('a client that goes in the middle of an answer: the upstream leg is cut, the relay goes on', async () => {
    const upstreamClosed = deferred();
    const up = await upstream((req, res) => {
      if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first chunk;');
        res.once('close', () => upstreamClosed.resolve());
        return; // the rest never comes
      }
      res.end('fine');
    });
    const notes = new Collector<InfraNote>();
    const entries = new Collector<TrafficEntry>();
    const r = await relay({ upstream: up.url, onInfra: notes.push, onExchange: entries.push });
    const first = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${r.url}/slow`, { agent: false }, (res) => {
        res.once('data', (chunk: Buffer) => {
          req.destroy(); // gone, with the answer half read
          resolve(chunk.toString());
        });
      });
      req.on('error', () => undefined);
      req.on('close', () => reject(new Error('closed before the first chunk')));
      req.end();
    });
    expect(first).toBe('first chunk;'); // streamed: the first chunk came before the answer ended
    const [note] = await notes.next(1);
    expect(note).toMatchObject({ kind: 'aborted', url: '/slow' });
    await upstreamClosed.promise;
    expect((await raw(r.url, { path: '/next' })).body.toString()).toBe('fine');
    await entries.next(1);
    expect(entries.items.map((e) => e.exchange.request.url)).toEqual(['/next']);
  });
});

describe('relay: streams', () => {
  it('a chunked request body (no content-length) reaches the upstream whole and is captured', async () => {
    const got = new Collector<string>();
    const up = await upstream((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        // Framing is per connection: chunked, or a content-length when the body was all in before undici wrote it.
        got.push(body);
        res.end('{"ok":true}');
      });
    });
    const entries = new Collector<TrafficEntry>();
    const r = await relay({ upstream: up.url, onExchange: entries.push });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${r.url}/upload`, { method: 'POST', agent: false, headers: { 'content-type': 'text/plain' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.write('first,');
      setImmediate(() => req.end('second'));
    });
    expect(status).toBe(200);
    expect(await got.next(1)).toEqual(['first,second']);
    const [entry] = await entries.next(1);
    expect(entry?.exchange.request.body).toBe('first,second');
    expect(entry?.exchange.json).toEqual({ ok: true });
  });

  it('an upstream that stops in the middle of its answer: the client connection is cut, onInfra says so, no entry', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('only ten b', () => res.socket?.destroy());
    });
    const notes = new Collector<InfraNote>();
    const entries = new Collector<TrafficEntry>();
    const r = await relay({ upstream: up.url, onInfra: notes.push, onExchange: entries.push });
    await expect(raw(r.url, { path: '/cut' })).rejects.toThrow(/aborted|socket hang up|ECONNRESET/);
    const [note] = await notes.next(1);
    expect(note).toMatchObject({ kind: 'aborted', url: '/cut' });
    expect(note?.message).toMatch(/stopped in the middle of its answer/);
    expect(entries.items).toEqual([]);
  });
});

describe('relay: annotate', () => {
  it('adds exactly one findings header of at most 1,024 header-safe bytes; the body is unchanged', async () => {
    const s = await sim();
    const seen = new Collector<TrafficEntry>();
    const entries = new Collector<TrafficEntry>();
    const r = await relay({
      upstream: s.baseUrl,
      onExchange: entries.push,
      annotate: (entry) => {
        seen.push(entry);
        return entry.exchange.response.status === 200 ? `pagination.limit ok\r\nInjected: yes ${'é'.repeat(10)}${'x'.repeat(2000)}` : undefined;
      },
    });
    const c = { path: '/v2/accounts?page[limit]=100', headers: auth(s) };
    const direct = await raw(s.baseUrl, asFrom(r, c));
    const proxied = await raw(r.url, c);
    expect(proxied.body.equals(direct.body)).toBe(true);
    const findings = headerValues(proxied.rawHeaders, 'x-commerce-sim-findings');
    expect(findings).toHaveLength(1);
    expect(Buffer.byteLength(findings[0] ?? '')).toBe(1024);
    expect(findings[0]).toMatch(/^pagination\.limit ok +Injected: yes +x+$/);
    expect(headerValues(proxied.rawHeaders, 'injected')).toEqual([]);
    expect(endToEnd(proxied.rawHeaders).filter(([n]) => n !== 'x-commerce-sim-findings')).toEqual(endToEnd(direct.rawHeaders));
    const [annotated] = await seen.next(1);
    expect((annotated?.exchange.json as { data: unknown[] }).data).toHaveLength(100);
    const [entry] = await entries.next(1);
    expect(entry?.exchange).toBe(annotated?.exchange);
    // No findings: no header.
    const missing = await raw(r.url, { path: '/v2/accounts/nope', headers: auth(s) });
    expect(headerValues(missing.rawHeaders, 'x-commerce-sim-findings')).toEqual([]);
  });

  it('an annotate that throws: the answer goes unchanged, without the header', async () => {
    const s = await sim();
    const r = await relay({
      upstream: s.baseUrl,
      annotate: () => {
        throw new Error('judge broke');
      },
    });
    const c = { path: '/v2/accounts?page[limit]=5', headers: auth(s) };
    const [direct, proxied] = [await raw(s.baseUrl, asFrom(r, c)), await raw(r.url, c)];
    expect(proxied.status).toBe(200);
    expect(proxied.body.equals(direct.body)).toBe(true);
    expect(headerValues(proxied.rawHeaders, 'x-commerce-sim-findings')).toEqual([]);
    expect(r.stats().failedCallbacks).toBe(1);
  });
});

describe('relay: connections', () => {
  const tls = selfSigned();
  it.skipIf(typeof tls === 'string')(`relays to an HTTPS upstream (self-signed: rejectUnauthorized false; refused by default)${typeof tls === 'string' ? ` — skipped: ${tls}` : ''}`, async () => {
    if (typeof tls === 'string') return;
    const up = await httpsUpstream(tls, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url, secure: true }));
    });
    const entries = new Collector<TrafficEntry>();
    const r = await relay({ upstream: up.url, rejectUnauthorized: false, onExchange: entries.push });
    const a = await raw(r.url, { path: '/v2/x?y=1' });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body.toString())).toEqual({ path: '/v2/x?y=1', secure: true });
    const [entry] = await entries.next(1);
    expect(entry?.origin).toBe(up.url);
    const strict = await relay({ upstream: up.url });
    const refused = await raw(strict.url, { path: '/v2/x' });
    expect(refused.status).toBe(502);
    expect(refused.body.toString()).toMatch(/certificate/i);
  });

  it('keeps upstream connections alive: far fewer connections than requests', async () => {
    const up = await upstream((req, res) => {
      req.resume();
      res.end('{}');
    });
    const r = await relay({ upstream: up.url });
    const client = async () => {
      for (let i = 0; i < 10; i++) await raw(r.url, { path: `/n/${i}` });
    };
    await Promise.all([client(), client(), client(), client()]);
    expect(up.requests()).toBe(40);
    expect(up.connections()).toBeLessThanOrEqual(4);
  });

  it('close() with a request in flight: it is answered in full, then the port closes', async () => {
    const arrived = deferred();
    const release = deferred();
    const up = await upstream((_req, res) => {
      arrived.resolve();
      void release.promise.then(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('late but whole');
      });
    });
    const r = await startRelay({ upstream: up.url, port: 0, onExchange: () => undefined });
    const answer = raw(r.url, { path: '/in-flight' });
    await arrived.promise;
    const closing = r.close();
    release.resolve();
    const a = await answer;
    expect(a.status).toBe(200);
    expect(a.body.toString()).toBe('late but whole');
    expect(headerValues(a.rawHeaders, 'connection')).toEqual(['close']);
    await closing;
    await expect(raw(r.url, { path: '/after' })).rejects.toThrow(/ECONNREFUSED/);
    expect(r.stats().relayed).toBe(1);
  });
});
