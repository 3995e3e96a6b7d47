/**
 * The same traffic written as the tools that capture it write HAR: this project's proxy (its writer,
 * credentials as keyed marks), a browser's export (HTTP/2 pseudo-headers, absolute URLs, bodies stored
 * decoded while `content-encoding: gzip` stays), Playwright's `recordHar` in attach mode (bodies in files
 * beside the HAR), mitmproxy's (the bytes as they came: gzip, base64) and Firefox's (a page and each entry's
 * `pageref`, `serverIPAddress`, header names as sent in any case, decoded bodies with no content.encoding but a
 * `compression` member and `Content-Encoding: gzip` kept). `check` must read each alike.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { TrafficEntry } from '../../../src/traffic/entry.js';
import { openHarWriter } from '../../../src/traffic/har/write.js';
import { headerValue } from '../../../src/traffic/har/headers.js';

export type HarShape = 'proxy' | 'browser' | 'playwright' | 'mitmproxy' | 'firefox';
export const HAR_SHAPES: readonly HarShape[] = ['proxy', 'browser', 'playwright', 'mitmproxy', 'firefox'];

/** `content-type` → `Content-Type`: how a browser shows the names it sent. */
const titled = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => `${dash}${ch.toUpperCase()}`);

const ORIGIN = 'http://127.0.0.1:4747';
const headerList = (h: Readonly<Record<string, string>>) => Object.entries(h).map(([name, value]) => ({ name, value }));

/** Writes `entries` to `dir/traffic.har` in `shape`; returns the file. */
export async function writeHarShape(dir: string, entries: readonly TrafficEntry[], shape: HarShape): Promise<string> {
  const file = join(dir, 'traffic.har');
  if (shape === 'proxy') {
    const har = await openHarWriter(file, { creator: { name: 'commerce-sim proxy', version: '1' } });
    for (const e of entries) await har.write(e);
    await har.close();
    return file;
  }
  const out = await Promise.all(
    entries.map(async (e, i) => {
      const { request, response } = e.exchange;
      const url = `${ORIGIN}${request.url}`;
      const started = e.startedAt ?? new Date(Date.UTC(2026, 0, 1) + i).toISOString();
      const reqHeaders =
        shape === 'browser'
          ? [{ name: ':authority', value: '127.0.0.1:4747' }, { name: ':method', value: request.method }, ...headerList(request.headers ?? {})]
          : shape === 'firefox'
            ? [{ name: 'Host', value: '127.0.0.1:4747' }, ...headerList(request.headers ?? {}).map((h) => ({ ...h, name: titled(h.name) }))]
            : headerList(request.headers ?? {});
      const postData = request.body === undefined || request.body === '' ? {} : { postData: { mimeType: 'application/json', text: request.body } };
      let content: Record<string, unknown>;
      const resHeaders = headerList(response.headers);
      if (shape === 'mitmproxy') {
        resHeaders.push({ name: 'content-encoding', value: 'gzip' });
        content = { size: response.body.length, mimeType: 'application/json', text: gzipSync(response.body).toString('base64'), encoding: 'base64' };
      } else if (shape === 'playwright') {
        const name = `${i.toString(16).padStart(8, '0')}.json`;
        await writeFile(join(dir, name), response.body);
        content = { size: response.body.length, mimeType: 'application/json', _file: name };
      } else if (shape === 'firefox') {
        resHeaders.splice(0, resHeaders.length, ...resHeaders.map((h) => ({ ...h, name: titled(h.name) })), { name: 'Content-Encoding', value: 'gzip' });
        const zipped = gzipSync(response.body).length;
        content = {
          mimeType: headerValue(response.headers, 'content-type') ?? 'application/json',
          size: Buffer.byteLength(response.body),
          text: response.body,
          compression: Buffer.byteLength(response.body) - zipped,
        };
      } else {
        resHeaders.push({ name: 'content-encoding', value: 'gzip' });
        content = { size: response.body.length, mimeType: 'application/json', compression: 0, text: response.body };
      }
      return {
        ...(shape === 'firefox' ? { pageref: 'page_1', serverIPAddress: '127.0.0.1', connection: '4747' } : {}),
        startedDateTime: started,
        time: e.durationMs ?? 1,
        request: {
          method: request.method,
          url,
          httpVersion: shape === 'browser' ? 'http/2.0' : 'HTTP/1.1',
          headers: reqHeaders,
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: request.body?.length ?? 0,
          ...postData,
        },
        response: { status: response.status, statusText: '', httpVersion: 'HTTP/1.1', headers: resHeaders, cookies: [], content, redirectURL: '', headersSize: -1, bodySize: -1 },
        cache: {},
        timings: { send: 0, wait: 1, receive: 0 },
      };
    }),
  );
  const creator =
    shape === 'browser'
      ? { name: 'WebInspector', version: '537.36' }
      : shape === 'playwright'
        ? { name: 'Playwright', version: '1.49.1' }
        : shape === 'firefox'
          ? { name: 'Firefox', version: '140.0' }
          : { name: 'mitmproxy', version: '11.0.0' };
  const pages =
    shape === 'firefox' ? [{ startedDateTime: out[0]?.startedDateTime ?? '2026-01-01T00:00:00.000Z', id: 'page_1', title: 'Back office', pageTimings: { onContentLoad: -1, onLoad: -1 } }] : [];
  await writeFile(
    file,
    JSON.stringify(
      { log: { version: '1.2', creator, ...(shape === 'firefox' ? { browser: { name: 'Firefox', version: '140.0' } } : {}), pages, entries: out } },
      null,
      shape === 'browser' || shape === 'firefox' ? 2 : 0,
    ),
  );
  return file;
}
