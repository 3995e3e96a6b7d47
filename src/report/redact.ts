/**
 * Secrets never leave: every request/response that reaches a report, fixture or log passes here.
 * Redaction happens on the whole text first and the excerpt is cut after, so a cut never leaves
 * half a secret behind.
 */
import type { Exchange } from '../target/types.js';
import type { ExchangeExcerpt } from './model.js';

export const REDACTED = '[REDACTED]';

/** Header names whose values are credentials (x-moltin-* carry customer and store tokens). */
const SECRET_HEADER = /^(?:authorization|proxy-authorization|cookie|set-cookie|x-moltin-.*)$/i;

/** Member/field names whose values are credentials: token, access_token, password, client_secret, ... */
const SECRET_KEY = /^(?:[a-z0-9]+_)*(?:token|password|secret)$/i;

export function isSecretKey(name: string): boolean {
  return SECRET_KEY.test(name);
}

export const isSecretHeader = (name: string): boolean => SECRET_HEADER.test(name);

export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = isSecretHeader(name) ? redactCredential(value) : value;
  }
  return out;
}

/** Keeps the auth scheme (`Bearer`, `Basic`): it is not secret and tells a wrong-scheme failure apart. */
function redactCredential(value: string): string {
  const scheme = /^([A-Za-z][\w-]*) +\S/.exec(value);
  return scheme?.[1] !== undefined ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/** A secret as it may stand in text: as is, JSON-escaped, percent-encoded, form-encoded. */
export function secretSpellings(secret: string): string[] {
  return [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
}

/** Replaces every occurrence of each secret, also in its JSON-escaped and URL-encoded spellings. */
export function redactText(text: string, secrets: readonly string[]): string {
  const spellings = new Set<string>();
  for (const secret of secrets) if (secret.length > 0) for (const s of secretSpellings(secret)) spellings.add(s);
  // Longest first, so a secret that contains another is replaced whole.
  let out = text;
  for (const s of [...spellings].sort((a, b) => b.length - a.length)) out = out.split(s).join(REDACTED);
  return out;
}

/** Redacts secret members of a JSON body, or `key=value` pairs of a form body; other text is returned as is. */
export function redactBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactLooseText(text);
  }
  if (typeof parsed !== 'object' || parsed === null) return text;
  const redacted = redactValue(parsed);
  if (JSON.stringify(redacted) === JSON.stringify(parsed)) return text; // keep the exact bytes when nothing was secret
  return JSON.stringify(redacted, null, text.includes('\n') ? 2 : undefined);
}

/** Deep copy of a JSON-like value with the values of secret members replaced (by `placeholder(name)`). */
export function redactValue(value: unknown, placeholder: (key: string) => string = () => REDACTED): unknown {
  if (Array.isArray(value)) return value.map((v) => redactValue(v, placeholder));
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines own properties, so a `__proto__` member stays data.
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, isSecretKey(k) && v !== null ? placeholder(k) : redactValue(v, placeholder)]),
  );
}

/** For bodies that are not (whole) JSON: form pairs, query strings, and JSON cut short. */
function redactLooseText(text: string): string {
  return text
    .replace(/("((?:[a-z0-9]+_)*(?:token|password|secret))"\s*:\s*)"(?:[^"\\]|\\.)*"?/gi, `$1"${REDACTED}"`)
    .replace(/(^|[?&;\s])((?:[a-z0-9]+_)*(?:token|password|secret))=[^&;\s]*/gi, `$1$2=${REDACTED}`);
}

/** JSON text of a value with secret members redacted; for expected/actual values in reports. */
export function redactedJson(value: unknown, indent?: number): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(redactValue(value), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), indent);
  return text ?? String(value);
}

export interface ExcerptOptions {
  /** Literal secrets (bearer token, passwords, client secret) to remove wherever they appear. */
  readonly secrets?: readonly string[];
  /** Longest body kept, in characters (default 2,000; 64,000 for evidence). */
  readonly maxBody?: number;
  /** The exchange a failing or inconclusive verdict rests on: marked, and kept (nearly) whole. */
  readonly evidence?: boolean;
}

export const DEFAULT_MAX_BODY = 2000;
export const EVIDENCE_MAX_BODY = 64_000;

export function excerpt(exchange: Exchange, opts: ExcerptOptions = {}): ExchangeExcerpt {
  const secrets = opts.secrets ?? [];
  const max = opts.maxBody ?? (opts.evidence === true ? EVIDENCE_MAX_BODY : DEFAULT_MAX_BODY);
  const clean = (text: string): string => cut(shrinkJson(redactText(redactBody(text), secrets), max), max);
  const requestHeaders: Record<string, string> = {};
  const headers = Object.entries(redactHeaders(exchange.request.headers ?? {}));
  for (const [name, value] of headers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) requestHeaders[name] = redactText(value, secrets);
  const { body } = exchange.request;
  return {
    method: exchange.request.method,
    url: redactText(redactLooseText(exchange.request.url), secrets),
    requestHeaders,
    ...(body === undefined ? {} : { requestBody: clean(body) }),
    status: exchange.response.status,
    responseHeaders: sortedHeaders(redactHeaders(exchange.response.headers), secrets),
    responseBody: clean(exchange.response.body),
    ...(opts.evidence === true ? { evidence: true } : {}),
  };
}

function sortedHeaders(headers: Readonly<Record<string, string>>, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  // `date` changes on every answer and judges nothing: reports stay byte-identical without it.
  for (const [name, value] of Object.entries(headers).filter(([n]) => n !== "date").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[name] = redactText(value, secrets);
  return out;
}

/**
 * A JSON body too long to keep whole loses records from the middle of its longest arrays first, so
 * what a reader needs (meta, links, the first and last records) survives the cut.
 */
export function shrinkJson(text: string, max: number): string {
  if (text.length <= max || !/^\s*[[{]/.test(text)) return text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  for (const keep of [8, 4, 2]) {
    const shrunk = JSON.stringify(trimArrays(json, keep));
    if (shrunk.length <= max) return shrunk;
  }
  return text;
}

function trimArrays(value: unknown, keep: number): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => trimArrays(v, keep));
    if (items.length <= keep + 1) return items;
    return [...items.slice(0, keep), `… ${items.length - keep - 1} more items …`, items[items.length - 1]];
  }
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimArrays(v, keep)]));
  return value;
}

/** Cuts at `max` characters (never inside a surrogate pair) and says how much was left out. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [${text.length - end} more chars]`;
}

/** An excerpt as an HTTP-ish transcript (request line, headers, body; status, body), for every reporter. */
export function transcript(e: ExchangeExcerpt): string {
  const lines = [`${e.method} ${e.url}`];
  for (const [name, value] of Object.entries(e.requestHeaders)) lines.push(`${name}: ${value}`);
  if (e.requestBody !== undefined && e.requestBody.length > 0) lines.push('', e.requestBody);
  lines.push('', `HTTP ${e.status}`);
  for (const [name, value] of Object.entries(e.responseHeaders ?? {})) lines.push(`${name}: ${value}`);
  if (e.responseBody.length > 0) lines.push(...(e.responseHeaders === undefined ? [] : ['']), e.responseBody);
  return lines.join('\n');
}
