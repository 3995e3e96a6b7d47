/**
 * One parsed HAR entry, checked and taken apart: method, origin and raw path+query, lower-cased
 * headers, where each body is (inline text, base64, or a file beside the HAR as Playwright's `attach`
 * mode leaves it), status and timing. Entries the judge cannot use are skipped with a reason (a request
 * that got no answer, status 0; a `data:` or `blob:` URL); entries that break the format are refused with
 * the member at fault. Pure: decoding bodies and reading files is the reader's.
 */
import { isObject, type JsonObject } from '../../rules/inspect-json.js';
import { headerRecord } from './headers.js';

/** Where a body is. `member` names it in messages (`response.content`). */
export type BodySource =
  | { readonly kind: 'none' }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'base64'; readonly data: string; readonly member: string }
  | { readonly kind: 'file'; readonly name: string; readonly member: string };

export interface HarDraft {
  readonly method: string;
  /** `https://api.example.com` (no user info, default port dropped). */
  readonly origin: string;
  /** Path plus raw query, exactly as in the HAR's `request.url` (fragment dropped). */
  readonly url: string;
  readonly requestHeaders: Record<string, string>;
  readonly requestBody: BodySource;
  readonly status: number;
  readonly responseHeaders: Record<string, string>;
  readonly responseBody: BodySource;
  readonly startedAt?: string;
  readonly durationMs?: number;
}

export type HarEntryRead = { readonly kind: 'draft'; readonly draft: HarDraft } | { readonly kind: 'skip'; readonly reason: string } | { readonly kind: 'bad'; readonly message: string };

const bad = (message: string): HarEntryRead => ({ kind: 'bad', message });

export function readHarEntry(value: unknown): HarEntryRead {
  if (!isObject(value)) return bad('not an object');
  const { request, response } = value;
  if (!isObject(request)) return bad('request missing');
  if (!isObject(response)) return bad('response missing');
  const { method, url } = request;
  if (typeof method !== 'string' || method === '') return bad('request.method missing');
  if (typeof url !== 'string') return bad('request.url missing');
  const split = splitUrl(url);
  if (split.kind !== 'url') return split.kind === 'skip' ? split : bad(split.message);
  const status = response['status'];
  if (status === undefined) return bad('response.status missing');
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 0 || status > 999) return bad(`response.status is not an HTTP status: ${JSON.stringify(status)}`);
  if (status === 0) {
    const error = typeof response['_error'] === 'string' ? `: ${response['_error']}` : '';
    return { kind: 'skip', reason: `no response (status 0${error})` };
  }
  const requestHeaders = headerRecord(request['headers'], 'request.headers');
  if (!requestHeaders.ok) return bad(requestHeaders.message);
  const responseHeaders = headerRecord(response['headers'], 'response.headers');
  if (!responseHeaders.ok) return bad(responseHeaders.message);
  const requestBody = postDataBody(request['postData']);
  if (requestBody.kind === 'bad') return requestBody;
  const responseBody = contentBody(response['content']);
  if (responseBody.kind === 'bad') return responseBody;
  const { startedDateTime, time } = value;
  return {
    kind: 'draft',
    draft: {
      method,
      origin: split.origin,
      url: split.path,
      requestHeaders: requestHeaders.value,
      requestBody,
      status,
      responseHeaders: responseHeaders.value,
      responseBody,
      ...(typeof startedDateTime === 'string' && startedDateTime !== '' ? { startedAt: startedDateTime } : {}),
      ...(typeof time === 'number' && Number.isFinite(time) && time >= 0 ? { durationMs: time } : {}),
    },
  };
}

type UrlSplit = { readonly kind: 'url'; readonly origin: string; readonly path: string } | { readonly kind: 'skip'; readonly reason: string } | { readonly kind: 'bad'; readonly message: string };

const SCHEMES = new Set(['http', 'https', 'ws', 'wss']);

/** Origin and raw path+query of an absolute URL; the query is kept byte for byte (no re-encoding). */
function splitUrl(url: string): UrlSplit {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(\/\/[^/?#]*)?(.*)$/s.exec(url);
  const scheme = m?.[1]?.toLowerCase();
  if (m === null || scheme === undefined) return { kind: 'bad', message: `request.url is not an absolute URL: ${JSON.stringify(url.slice(0, 200))}` };
  if (!SCHEMES.has(scheme)) return { kind: 'skip', reason: `not an HTTP URL (${scheme}:)` };
  const authority = m[2];
  let origin: string;
  try {
    origin = new URL(`${scheme}:${authority ?? ''}/`).origin;
  } catch {
    origin = 'null';
  }
  if (authority === undefined || origin === 'null') return { kind: 'bad', message: `request.url has no host: ${JSON.stringify(url.slice(0, 200))}` };
  const rest = (m[3] ?? '').split('#', 1)[0] ?? '';
  return { kind: 'url', origin, path: rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}` };
}

type BodyRead = BodySource | { readonly kind: 'bad'; readonly message: string };

/** `request.postData`: text, else Playwright's `_file`, else `params` form-encoded; absent: no body. */
function postDataBody(postData: unknown): BodyRead {
  if (postData === undefined || postData === null) return { kind: 'none' };
  if (!isObject(postData)) return { kind: 'bad', message: 'request.postData is not an object' };
  const inline = inlineBody(postData, 'request.postData');
  if (inline !== undefined) return inline;
  const { params } = postData;
  if (!Array.isArray(params)) return { kind: 'text', text: '' };
  const pairs: string[] = [];
  for (const [i, p] of params.entries()) {
    if (!isObject(p) || typeof p['name'] !== 'string') return { kind: 'bad', message: `request.postData.params[${i}] needs a name` };
    pairs.push(`${encodeURIComponent(p['name'])}=${encodeURIComponent(typeof p['value'] === 'string' ? p['value'] : '')}`);
  }
  return { kind: 'text', text: pairs.join('&') };
}

/** `response.content`: text (base64 when `encoding` says so), else Playwright's `_file`; absent: empty. */
function contentBody(content: unknown): BodyRead {
  if (content === undefined || content === null) return { kind: 'text', text: '' };
  if (!isObject(content)) return { kind: 'bad', message: 'response.content is not an object' };
  return inlineBody(content, 'response.content') ?? { kind: 'text', text: '' };
}

/** Playwright's `attach` mode leaves `text` empty and names the body's file in `_file`. */
function inlineBody(holder: JsonObject, member: string): BodyRead | undefined {
  const { text, encoding, _file: file } = holder;
  if (text !== undefined && text !== null && typeof text !== 'string') return { kind: 'bad', message: `${member}.text is not a string` };
  if (typeof file === 'string' && file !== '' && (text === undefined || text === null || text === '')) return { kind: 'file', name: file, member };
  if (typeof text === 'string') return encoding === 'base64' ? { kind: 'base64', data: text, member } : { kind: 'text', text };
  return undefined;
}
