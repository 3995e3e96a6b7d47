/**
 * A live base URL as a Target, over an undici Pool (keep-alive, bounded connections, timeouts).
 * Bounded on purpose: a request budget, optional requests-per-second, retries with backoff on
 * 429/5xx honouring Retry-After. Credentials: a bearer token, or client credentials exchanged at
 * POST /oauth/access_token and re-fetched when expired. The token is never logged and is scrubbed
 * from every error message.
 */
import { brotliDecompressSync, constants as zlibConstants, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { backoffMs, realSleep, retryAfterMs, seededRandom, TokenBucket, type Sleep } from './http-pacing.js';
import { TargetError, type Target, type TargetErrorCode, type TargetRequest, type TargetResponse } from '../port.js';

export interface HttpTargetOptions {
  readonly baseUrl: string;
  readonly token?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly vars?: Readonly<Record<string, string>>;
  /** Connect, headers and body timeouts, each (default 30 s). */
  readonly timeoutMs?: number;
  /** Retries after a 429 or 5xx answer (default 3). */
  readonly retries?: number;
  /** Requests this target may send in all, retries and token requests included (default 5,000). */
  readonly budget?: number;
  /** Average requests per second; unlimited when absent. */
  readonly rps?: number;
  /** Connections in the pool (default 4). */
  readonly concurrency?: number;
  /** Seeds the backoff jitter. */
  readonly seed?: number;
  /** First backoff step (default 500 ms); the longest wait is `maxDelayMs` (default 30 s). */
  readonly backoffBaseMs?: number;
  readonly maxDelayMs?: number;
  readonly now?: () => number;
  readonly sleep?: Sleep;
}

const DEFAULT_BUDGET = 5000;
const TOKEN_PATH = '/oauth/access_token';
/** Re-fetch a token this long before it expires. */
const EXPIRY_MARGIN_MS = 60_000;

interface Bearer {
  readonly value: string;
  readonly expiresAt: number;
}

export async function createHttpTarget(options: HttpTargetOptions): Promise<Target> {
  const base = parseBaseUrl(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const baseUrl = `${base.origin}${prefix}`;
  const timeout = options.timeoutMs ?? 30_000;
  // undici loads with the first HTTP target, not with the library: most users of the simulator never need it.
  const { Pool } = await import('undici');
  const pool = new Pool(base.origin, {
    connections: Math.max(1, options.concurrency ?? 4),
    connect: { timeout },
    headersTimeout: timeout,
    bodyTimeout: timeout,
    keepAliveTimeout: 10_000,
  });
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = seededRandom(options.seed ?? 0x5eed);
  const bucket = options.rps === undefined ? undefined : new TokenBucket(options.rps, Math.max(1, options.rps), now, sleep);
  const budget = options.budget ?? DEFAULT_BUDGET;
  const retries = options.retries ?? 3;
  const secrets = [options.token, options.clientSecret].filter((s): s is string => s !== undefined && s !== '');
  let sent = 0;

  const scrub = (text: string): string => secrets.reduce((t, s) => t.split(s).join('[REDACTED]'), text);
  const fail = (code: TargetErrorCode, message: string, cause?: unknown): TargetError => new TargetError(code, scrub(message), cause === undefined ? undefined : { cause });

  /** One request on the wire: budget, pacing, error mapping; the body decoded whatever content coding it came in. */
  const once = async (method: string, url: string, headers: Record<string, string>, body: string | undefined): Promise<TargetResponse> => {
    if (sent >= budget) throw fail('TARGET_BUDGET_EXHAUSTED', `request budget of ${budget} exhausted for ${baseUrl} (raise it with --budget)`);
    sent += 1;
    await bucket?.take();
    try {
      const res = await pool.request({ method, path: `${prefix}${url}`, headers, ...(body === undefined ? {} : { body }) });
      const raw = Buffer.from(await res.body.arrayBuffer());
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: res.statusCode, headers: out, body: decodeBody(raw, out['content-encoding']) };
    } catch (error) {
      throw networkError(error, `${method} ${baseUrl}${url}`, fail);
    }
  };

  /**
   * Retries 429 and 5xx answers, waiting Retry-After when given, else exponential backoff with seeded
   * jitter; and, for requests that may be repeated (RFC 9110 §9.2.2: GET, HEAD, OPTIONS, PUT, DELETE;
   * never a create), a reset connection, a cut answer or a timeout the same way.
   */
  const withRetries = async (method: string, url: string, headers: Record<string, string>, body: string | undefined): Promise<TargetResponse> => {
    for (let attempt = 0; ; attempt += 1) {
      let res: TargetResponse;
      try {
        res = await once(method, url, headers, body);
      } catch (error) {
        if (!(error instanceof TargetError) || !retriedOnTransport(error, method, url) || attempt >= retries) throw error;
        await sleep(Math.min(backoffMs(attempt, options.backoffBaseMs ?? 500, random), options.maxDelayMs ?? 30_000));
        continue;
      }
      if (!(res.status === 429 || res.status >= 500) || attempt >= retries) return res;
      const wait = retryAfterMs(res.headers['retry-after'], now()) ?? backoffMs(attempt, options.backoffBaseMs ?? 500, random);
      await sleep(Math.min(wait, options.maxDelayMs ?? 30_000));
    }
  };

  let bearer: Bearer | undefined = options.token === undefined ? undefined : { value: options.token, expiresAt: Infinity };
  let fetching: Promise<Bearer> | undefined;
  const { clientId, clientSecret } = options;
  const fetchToken = async (): Promise<Bearer> => {
    if (clientId === undefined || clientSecret === undefined) throw fail('TARGET_AUTH_FAILED', 'no credentials to fetch a token with');
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString();
    const res = await withRetries('POST', TOKEN_PATH, { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, form);
    const parsed = readToken(res.body, now());
    if (res.status !== 200 || parsed === undefined) {
      throw fail('TARGET_AUTH_FAILED', `token request POST ${baseUrl}${TOKEN_PATH} for client '${clientId}' answered ${res.status}${parsed === undefined ? ' without an access_token' : ''}`);
    }
    secrets.push(parsed.value);
    return parsed;
  };
  const currentToken = async (): Promise<string | undefined> => {
    if (bearer !== undefined && now() < bearer.expiresAt - EXPIRY_MARGIN_MS) return bearer.value;
    if (clientId === undefined) return bearer?.value;
    fetching ??= fetchToken().finally(() => {
      fetching = undefined;
    });
    bearer = await fetching;
    return bearer.value;
  };
  if (clientId !== undefined) await currentToken(); // fail fast: unreachable target or bad credentials

  const vars: Record<string, string> = { ...(options.vars ?? {}) };
  if (clientId !== undefined) vars['client_id'] ??= clientId;

  return {
    kind: 'http',
    baseUrl,
    vars,
    async send(request: TargetRequest): Promise<TargetResponse> {
      const headers: Record<string, string> = { 'user-agent': 'commerce-sim' };
      for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
      const ours = request.auth !== 'none' && headers['authorization'] === undefined;
      for (let refreshed = false; ; refreshed = true) {
        if (ours) {
          const token = await currentToken();
          if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
        }
        const res = await withRetries(request.method.toUpperCase(), request.url, headers, request.body);
        // A token revoked or expired early: fetch a new one once, as the official SDK does.
        if (res.status !== 401 || !ours || clientId === undefined || refreshed) return res;
        bearer = undefined;
      }
    },
    close: () => pool.close(),
  };
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** A transport failure a repeat may get past (not a refused connection or a bad address: those stay). */
/**
 * The served simulator's admin writes that leave the same state however often they are sent (a reset, a
 * restore of one snapshot): idempotent by what they mean (RFC 9110 §9.2.2), so a reset connection retries them too.
 */
const IDEMPOTENT_ADMIN = new Set(['/__sim/reset', '/__sim/restore']);

function retriedOnTransport(error: TargetError, method: string, url: string): boolean {
  if (!IDEMPOTENT.has(method) && !(method === 'POST' && IDEMPOTENT_ADMIN.has(url.split('?')[0] ?? url))) return false;
  if (error.code === 'TARGET_TIMEOUT') return true;
  return error.code === 'TARGET_UNREACHABLE' && /ECONNRESET|UND_ERR_SOCKET|EPIPE|other side closed|UND_ERR_RES_CONTENT_LENGTH_MISMATCH|terminated/i.test(error.message);
}

/** The most a compressed body may grow to: far past any list page, short of a decompression bomb. */
const MAX_DECODED_BYTES = 256 * 1024 * 1024;

/**
 * A body in the content codings it names (gzip, deflate, br, in the order applied), as text. A server
 * may compress what was not asked for (RFC 9110 §12.5.3), so the body is decoded whatever the request said.
 * `partial`: the bytes are only the start of the body (a bounded capture); what they hold is decoded.
 */
export function decodeBody(raw: Buffer, encoding: string | undefined, options: { readonly partial?: boolean } = {}): string {
  return decodeBodyChecked(raw, encoding, options).text;
}

/** `decodeBody`, saying when the bytes were not what their coding claims (`failed` names the coding): the text is then the bytes as they came. */
export function decodeBodyChecked(raw: Buffer, encoding: string | undefined, options: { readonly partial?: boolean } = {}): { readonly text: string; readonly failed?: string } {
  if (encoding === undefined || raw.length === 0) return { text: raw.toString('utf8') };
  let bytes = raw;
  const codings = encoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  const partial = options.partial === true;
  const limits = { maxOutputLength: MAX_DECODED_BYTES, ...(partial ? { finishFlush: zlibConstants.Z_SYNC_FLUSH } : {}) };
  const brLimits = { maxOutputLength: MAX_DECODED_BYTES, ...(partial ? { finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH } : {}) };
  let current = '';
  try {
    for (const coding of codings) {
      current = coding;
      if (coding === 'gzip' || coding === 'x-gzip') bytes = gunzipSync(bytes, limits);
      // Some servers send raw deflate under that name.
      else if (coding === 'deflate') bytes = bytes[0] === 0x78 ? inflateSync(bytes, limits) : inflateRawSync(bytes, limits);
      else if (coding === 'br') bytes = brotliDecompressSync(bytes, brLimits);
      else break; // an unknown coding: what is left is shown as it came
    }
  } catch {
    // Not what the coding says (or past the size bound): the checks see a body that is not JSON.
    return { text: raw.toString('latin1'), failed: current };
  }
  return { text: bytes.toString('utf8') };
}

/** An http(s) base URL without query, fragment or credentials, else TARGET_BAD_URL. */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch (cause) {
    throw new TargetError('TARGET_BAD_URL', `not a URL: '${text}' (want e.g. https://api.example.com)`, { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetError('TARGET_BAD_URL', `target URL must be http or https: '${text}'`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TargetError('TARGET_BAD_URL', `target URL takes no query, fragment or credentials: '${url.origin}${url.pathname}'`);
  }
  return url;
}

/** `{access_token, expires (unix seconds) | expires_in}`; anything else is not a token. */
function readToken(body: string, now: number): Bearer | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || !('access_token' in json) || typeof json.access_token !== 'string' || json.access_token === '') return undefined;
  const expires = 'expires' in json && typeof json.expires === 'number' ? json.expires * 1000 : undefined;
  const expiresIn = 'expires_in' in json && typeof json.expires_in === 'number' ? now + json.expires_in * 1000 : undefined;
  return { value: json.access_token, expiresAt: expires ?? expiresIn ?? now + 3_600_000 };
}

function networkError(error: unknown, what: string, fail: (code: TargetErrorCode, message: string, cause?: unknown) => TargetError): TargetError {
  if (error instanceof TargetError) return error;
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message || (error instanceof AggregateError ? error.errors.map(String).join('; ') : '') : String(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return fail('TARGET_TIMEOUT', `${what} timed out (${code})`, error);
  const cause = [code, detail].filter((s) => s !== undefined && s !== '').join(': ');
  // ECONNREFUSED, ENOTFOUND, ECONNRESET, UND_ERR_CONNECT_TIMEOUT, UND_ERR_SOCKET, ...: the request got no answer.
  return fail('TARGET_UNREACHABLE', `cannot reach ${what}: ${cause || 'unknown network error'}`, error);
}

/** The error's code, looking into AggregateError (happy eyeballs) and `cause`. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if ('code' in error && typeof error.code === 'string') return error.code;
  if (error instanceof AggregateError) for (const e of error.errors) if (errorCode(e) !== undefined) return errorCode(e);
  return 'cause' in error ? errorCode(error.cause) : undefined;
}
