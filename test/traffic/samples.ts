/**
 * Small HAR files shaped like the tools' own: Chrome DevTools' export (pretty-printed, HTTP/2
 * pseudo-headers, a failed request, a `data:` URL, a base64 image), Playwright's `recordHar` in `attach`
 * mode (bodies in files beside the HAR), and mitmproxy's export (binary bodies base64). Plus a temp
 * directory helper.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ACCOUNTS_BODY = '{"data":[{"type":"account","id":"a1","name":"Ada"}],"meta":{"page":{"limit":2,"offset":0,"current":1,"total":1}}}';

export function chromeHar(): unknown {
  return {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [{ startedDateTime: '2026-11-20T10:00:00.000Z', id: 'page_1', title: 'https://shop.example.com/', pageTimings: { onContentLoad: 120, onLoad: 300 } }],
      entries: [
        {
          _initiator: { type: 'script' },
          _priority: 'High',
          _resourceType: 'fetch',
          cache: {},
          connection: '443',
          pageref: 'page_1',
          request: {
            method: 'GET',
            url: 'https://api.example.com/v2/accounts?page[limit]=2&filter=eq(name,%22Ada%20L%22)',
            httpVersion: 'http/2.0',
            headers: [
              { name: ':authority', value: 'api.example.com' },
              { name: ':method', value: 'GET' },
              { name: ':path', value: '/v2/accounts?page[limit]=2&filter=eq(name,%22Ada%20L%22)' },
              { name: ':scheme', value: 'https' },
              { name: 'accept', value: 'application/json' },
              { name: 'Accept-Language', value: 'en' },
            ],
            queryString: [{ name: 'page[limit]', value: '2' }],
            cookies: [],
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status: 200,
            statusText: '',
            httpVersion: 'http/2.0',
            headers: [
              { name: 'content-type', value: 'application/json' },
              { name: 'content-encoding', value: 'gzip' },
              { name: 'vary', value: 'Accept' },
              { name: 'vary', value: 'Origin' },
            ],
            cookies: [],
            content: { size: ACCOUNTS_BODY.length, mimeType: 'application/json', compression: 20, text: ACCOUNTS_BODY },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
            _transferSize: 321,
            _error: null,
          },
          serverIPAddress: '192.0.2.1',
          startedDateTime: '2026-11-20T10:00:01.123Z',
          time: 87.654,
          timings: { blocked: 1.2, dns: -1, ssl: -1, connect: -1, send: 0.1, wait: 80, receive: 6.3, _blocked_queueing: 0.5 },
        },
        {
          request: { method: 'GET', url: 'https://api.example.com/v2/accounts/a2', httpVersion: '', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
          response: {
            status: 0,
            statusText: '',
            httpVersion: '',
            headers: [],
            cookies: [],
            content: { size: 0, mimeType: 'x-unknown' },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
            _error: 'net::ERR_CONNECTION_REFUSED',
          },
          startedDateTime: '2026-11-20T10:00:02.000Z',
          time: 3,
          timings: { send: 0, wait: 0, receive: 0 },
          cache: {},
        },
        {
          request: { method: 'GET', url: 'data:image/png;base64,iVBORw0KGgo=', httpVersion: 'data', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
          response: { status: 200, statusText: 'OK', httpVersion: 'data', headers: [], cookies: [], content: { size: 8, mimeType: 'image/png' }, redirectURL: '', headersSize: -1, bodySize: 0 },
          startedDateTime: '2026-11-20T10:00:03.000Z',
          time: 0,
          timings: { send: 0, wait: 0, receive: 0 },
          cache: {},
        },
        {
          request: { method: 'GET', url: 'https://cdn.example.com/logo.png', httpVersion: 'http/2.0', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
          response: {
            status: 200,
            statusText: '',
            httpVersion: 'http/2.0',
            headers: [
              { name: 'content-type', value: 'image/png' },
              { name: 'content-encoding', value: 'gzip' },
            ],
            cookies: [],
            content: { size: 8, mimeType: 'image/png', text: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64'), encoding: 'base64' },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
          },
          startedDateTime: '2026-11-20T10:00:04.000Z',
          time: 5,
          timings: { send: 0, wait: 4, receive: 1 },
          cache: {},
        },
      ],
    },
  };
}

/** Playwright `recordHar: { path, content: 'attach' }`: the HAR, and the files its entries name. */
export function playwrightHar(): { har: unknown; files: Record<string, string> } {
  const requestBody = '{"data":{"type":"account","name":"Ada","legal_name":"Ada Ltd"}}';
  const responseBody = '{"data":{"type":"account","id":"a9","name":"Ada","legal_name":"Ada Ltd"}}';
  return {
    files: { '5f2b51ca2fdc5baa31ec02e002f69aec.json': requestBody, '0b9f1d1c0c7e4c5e9a1f2a3b4c5d6e7f.json': responseBody },
    har: {
      log: {
        version: '1.2',
        creator: { name: 'Playwright', version: '1.49.1' },
        browser: { name: 'chromium', version: '131.0.6778.33' },
        pages: [],
        entries: [
          {
            startedDateTime: '2026-11-20T11:00:00.000Z',
            time: 14.2,
            request: {
              method: 'POST',
              url: 'http://127.0.0.1:4747/v2/accounts',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [
                { name: 'Content-Type', value: 'application/json' },
                { name: 'Accept', value: '*/*' },
              ],
              queryString: [],
              headersSize: -1,
              bodySize: requestBody.length,
              postData: { mimeType: 'application/json', text: '', params: [], _file: '5f2b51ca2fdc5baa31ec02e002f69aec.json' },
            },
            response: {
              status: 201,
              statusText: 'Created',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }],
              content: { size: responseBody.length, mimeType: 'application/json; charset=utf-8', _file: '0b9f1d1c0c7e4c5e9a1f2a3b4c5d6e7f.json' },
              headersSize: -1,
              bodySize: -1,
              redirectURL: '',
              _transferSize: -1,
            },
            cache: {},
            timings: { send: -1, wait: -1, receive: 14.2 },
            _frameref: 'frame@1',
            _monotonicTime: 123.4,
            serverIPAddress: '127.0.0.1',
            _serverPort: 4747,
            _securityDetails: {},
          },
        ],
      },
    },
  };
}

/** mitmproxy's HAR export: a binary body base64 (here still gzip, as some tools store it), a form POST. */
export function mitmproxyHar(bodies: { gzipBase64: string }): unknown {
  return {
    log: {
      version: '1.2',
      creator: { name: 'mitmproxy', version: '11.0.0', comment: '' },
      pages: [],
      entries: [
        {
          startedDateTime: '2026-11-20T12:00:00.123456+00:00',
          time: 45.6,
          request: {
            method: 'GET',
            url: 'https://api.example.com:443/v2/accounts?page%5Blimit%5D=1&sort=id',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [
              { name: 'Host', value: 'api.example.com' },
              { name: 'Accept-Encoding', value: 'gzip' },
            ],
            queryString: [
              { name: 'page[limit]', value: '1' },
              { name: 'sort', value: 'id' },
            ],
            headersSize: 120,
            bodySize: 0,
          },
          response: {
            status: 200,
            statusText: 'OK',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [
              { name: 'Content-Type', value: 'application/json' },
              { name: 'Content-Encoding', value: 'gzip' },
            ],
            content: { size: 400, compression: -300, mimeType: 'application/json', text: bodies.gzipBase64, encoding: 'base64' },
            redirectURL: '',
            headersSize: 90,
            bodySize: 100,
          },
          cache: {},
          timings: { connect: -1, ssl: -1, send: 1, receive: 2, wait: 42.6, blocked: -1, dns: -1 },
          serverIPAddress: '192.0.2.7',
        },
        {
          startedDateTime: '2026-11-20T12:00:01.000000+00:00',
          time: 12,
          request: {
            method: 'POST',
            url: 'https://api.example.com/oauth/access_token',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
            queryString: [],
            headersSize: 80,
            bodySize: 40,
            postData: {
              mimeType: 'application/x-www-form-urlencoded',
              params: [
                { name: 'grant_type', value: 'implicit' },
                { name: 'client_id', value: 'my app' },
              ],
            },
          },
          response: {
            status: 200,
            statusText: 'OK',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [{ name: 'Content-Type', value: 'application/json' }],
            content: { size: 0, mimeType: 'application/json', text: '' },
            redirectURL: '',
            headersSize: 50,
            bodySize: 0,
          },
          cache: {},
          timings: { send: 0, receive: 0, wait: 12 },
        },
      ],
    },
  };
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'traffic-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function writeJson(file: string, value: unknown, indent?: number): Promise<string> {
  await writeFile(file, JSON.stringify(value, null, indent));
  return file;
}
