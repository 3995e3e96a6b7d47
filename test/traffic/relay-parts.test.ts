/** The relay's pure parts, without sockets: which header lines pass, the findings value, its own answers, entries. */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/adapters/http.js';
import { relayAnswer, upstreamFailure } from '../../src/traffic/relay/answers.js';
import { entryOf, firstBytes, type Captured } from '../../src/traffic/relay/entry.js';
import { announcesBody, findingsValue, forwardRequestHeaders, forwardResponseHeaders, headerRecord, withFindings } from '../../src/traffic/relay/headers.js';

describe('relay headers', () => {
  it('requests lose hop-by-hop lines, proxy-*, host, expect and what Connection names; the rest keeps case and order', () => {
    const raw = [
      'Host',
      'proxy:4748',
      'Accept',
      'a',
      'Connection',
      'keep-alive, X-Hop',
      'X-Hop',
      '1',
      'Keep-Alive',
      'timeout=5',
      'TE',
      'trailers',
      'Expect',
      '100-continue',
      'Proxy-Authorization',
      'p',
      'Upgrade',
      'h2c',
      'X-Rep',
      '1',
      'X-Rep',
      '2',
    ];
    expect(forwardRequestHeaders(raw)).toEqual(['Accept', 'a', 'X-Rep', '1', 'X-Rep', '2']);
  });

  it('answers keep host-like and repeated lines, lose transfer-encoding and trailer; Buffers are read as latin1', () => {
    const raw = [
      Buffer.from('Content-Type'),
      Buffer.from('application/json'),
      Buffer.from('Transfer-Encoding'),
      Buffer.from('chunked'),
      Buffer.from('Trailer'),
      Buffer.from('X'),
      Buffer.from('X-Name'),
      Buffer.from([0x63, 0x61, 0x66, 0xe9]),
    ];
    expect(forwardResponseHeaders(raw)).toEqual(['Content-Type', 'application/json', 'X-Name', 'café']);
  });

  it('a body is announced by a content-length above 0 or any transfer-encoding', () => {
    expect(announcesBody(['Content-Length', '0'])).toBe(false);
    expect(announcesBody(['content-length', '12'])).toBe(true);
    expect(announcesBody(['Transfer-Encoding', 'chunked'])).toBe(true);
    expect(announcesBody(['Accept', '*/*'])).toBe(false);
  });

  it('records for judging: names lower-cased, repeated lines joined', () => {
    expect(headerRecord(['Set-Cookie', 'a=1', 'set-cookie', 'b=2', 'X-A', 'v'])).toEqual({ 'set-cookie': 'a=1, b=2', 'x-a': 'v' });
  });

  it('findings: header-safe, at most 1,024 bytes, nothing left is no header; one line of that name', () => {
    expect(findingsValue(undefined)).toBeUndefined();
    expect(findingsValue(' \r\n ')).toBeUndefined();
    expect(findingsValue('a\r\nb\u0000c→d')).toBe('a  b c d');
    expect(findingsValue('y'.repeat(5000))).toHaveLength(1024);
    expect(withFindings(['X-Commerce-Sim-Findings', 'upstream', 'A', 'b'], 'ours')).toEqual(['A', 'b', 'x-commerce-sim-findings', 'ours']);
  });
});

describe('relay answers', () => {
  it("the relay's own answers are the API's error shape", () => {
    const a = relayAnswer(502, 'nobody home');
    expect(a.headers).toEqual(['content-type', 'application/json', 'content-length', String(a.body.length)]);
    expect(JSON.parse(a.body.toString())).toEqual({ errors: [{ status: 502, title: 'Bad Gateway', detail: 'nobody home' }] });
  });

  it('timeouts are 504, every other failure 502', () => {
    const timeout = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(upstreamFailure(timeout, 'http://u', 100)).toMatchObject({ kind: 'timeout', status: 504 });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const failure = upstreamFailure(refused, 'http://u', 100);
    expect(failure).toMatchObject({ kind: 'unreachable', status: 502 });
    expect(failure.detail).toBe('The upstream http://u could not be reached: connect ECONNREFUSED 127.0.0.1:9');
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    expect(upstreamFailure(dns, 'http://nowhere.invalid', 100).status).toBe(502);
  });
});

describe('relay entries', () => {
  const json = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: i })) });
  const captured = (over: Partial<Captured>): Captured => ({
    n: 7,
    method: 'GET',
    path: '/v2/accounts?page[limit]=2',
    arrivedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    requestHeaders: ['Authorization', 'Bearer t'],
    requestChunks: undefined,
    status: 200,
    responseHeaders: ['Content-Type', 'application/json'],
    responseChunks: [Buffer.from(json.slice(0, 100)), Buffer.from(json.slice(100))],
    requestTruncated: false,
    responseTruncated: false,
    ...over,
  });
  const context = { origin: 'https://api.example.com', host: 'api.example.com', maxCaptureBytes: 1 << 20 };

  it('an entry: source, origin, start, the upstream host, body decoded and JSON parsed', () => {
    const entry = entryOf(captured({}), context, 1.23456);
    expect(entry).toMatchObject({ origin: 'https://api.example.com', source: 'proxy #7', startedAt: '2026-01-02T03:04:05.000Z', durationMs: 1.235 });
    expect(entry.exchange.request).toEqual({ method: 'GET', url: '/v2/accounts?page[limit]=2', headers: { authorization: 'Bearer t', host: 'api.example.com' } });
    expect(entry.exchange.response.body).toBe(json);
    expect(entry.exchange.json).toEqual(JSON.parse(json));
    expect(entry.truncated).toBeUndefined();
  });

  it('json is parsed when first read, then kept; spreading the exchange carries it', () => {
    const exchange = entryOf(captured({}), context, 0).exchange;
    const first = exchange.json;
    expect(exchange.json).toBe(first);
    expect({ ...exchange }.json).toBe(first);
    expect(Object.keys(exchange)).toEqual(['request', 'response', 'json']);
  });

  it('a body past the capture is cut, and a compressed one decoded as far as its first bytes go', () => {
    for (const [coding, compress] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const bytes = compress(json);
      const entry = entryOf(captured({ responseHeaders: ['Content-Encoding', coding], responseChunks: [bytes] }), { ...context, maxCaptureBytes: Math.floor(bytes.length / 2) }, 0);
      expect(entry.truncated, coding).toBe(true);
      expect(entry.exchange.response.body.startsWith('{"data":[{"id":0},'), coding).toBe(true);
      expect(entry.exchange.json).toBeUndefined();
    }
    expect(firstBytes([Buffer.from('abc'), Buffer.from('def')], 4)).toEqual({ bytes: Buffer.from('abcd'), cut: true });
    expect(decodeBody(Buffer.from('not gzip'), 'gzip')).toBe('not gzip');
  });
});
