/**
 * The HAR 1.2 shapes this tool writes, and an entry of traffic as one (pure): every member HAR 1.2
 * requires is there (`cookies`, `headersSize`, `timings`, `cache`, ...), bodies as text, the URL the
 * entry's origin plus its path and raw query, the query also as `queryString` pairs. What the traffic
 * does not know is written as HAR says to: -1 for sizes, 0 for send and receive (the whole duration is
 * `wait`), `HTTP/1.1` for the version.
 */
import { STATUS_CODES } from 'node:http';
import type { TrafficEntry } from '../entry.js';
import { headerList, headerValue, type HarHeader } from './headers.js';

export interface HarCreator {
  readonly name: string;
  readonly version: string;
  readonly comment?: string;
}

export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly queryString: readonly HarHeader[];
    readonly postData?: { readonly mimeType: string; readonly text: string };
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text: string };
    readonly redirectURL: string;
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
}

const HTTP_VERSION = 'HTTP/1.1';

/** An entry of traffic (already redacted) as a HAR entry; `startedAt` stands in when the entry has none. */
export function harEntryOf(entry: TrafficEntry, startedAt: string): HarEntry {
  const { request, response } = entry.exchange;
  const time = entry.durationMs ?? 0;
  const requestHeaders = request.headers ?? {};
  const size = Buffer.byteLength(response.body, 'utf8');
  return {
    startedDateTime: entry.startedAt ?? startedAt,
    time,
    request: {
      method: request.method,
      url: `${entry.origin}${request.url}`,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: headerList(requestHeaders),
      queryString: queryPairs(request.url),
      ...(request.body === undefined ? {} : { postData: { mimeType: headerValue(requestHeaders, 'content-type') ?? '', text: request.body } }),
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body, 'utf8'),
    },
    response: {
      status: response.status,
      statusText: STATUS_CODES[response.status] ?? '',
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: headerList(response.headers),
      content: { size, mimeType: headerValue(response.headers, 'content-type') ?? '', text: response.body },
      redirectURL: headerValue(response.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
  };
}

/** The query of a path as HAR `queryString` pairs, decoded (`+` as space); a malformed escape is kept as written. */
function queryPairs(url: string): HarHeader[] {
  const at = url.indexOf('?');
  if (at === -1) return [];
  const query = url.slice(at + 1).split('#', 1)[0] ?? '';
  if (query === '') return [];
  return query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return eq === -1 ? { name: decode(pair), value: '' } : { name: decode(pair.slice(0, eq)), value: decode(pair.slice(eq + 1)) };
  });
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The text of a HAR file up to its first entry, and what closes it after the last. */
export function harFrame(creator: HarCreator): { readonly head: string; readonly tail: string } {
  const log = JSON.stringify({ version: '1.2', creator: { ...creator } });
  return { head: `{"log":${log.slice(0, -1)},"entries":[`, tail: '\n]}}\n' };
}

/** The creator comment of a HAR written in front of the embedded simulator: `check` reads such a file as complete traffic. */
export const COMPLETE_MARK = 'commerce-sim: complete traffic (every request the upstream received)';
