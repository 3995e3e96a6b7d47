/**
 * Secrets never leave: every request/response that reaches a report, fixture or log passes here.
 * Redaction happens on the whole text first and the excerpt is cut after, so a cut never leaves
 * half a secret behind.
 */
import type { Exchange } from '../port.js';
import type { ExchangeExcerpt } from './model.js';

export { REDACTED } from '../redacted.js';
import { REDACTED } from '../redacted.js';

/**
 * Header names whose values are credentials: the auth and cookie headers, x-moltin-* (customer and
 * store tokens), and any name that says token, password, secret, API key or session (x-auth-token, ...).
 */
const SECRET_HEADER = /^(?:authorization|proxy-authorization|cookie|set-cookie|x-moltin-.*|.*(?:token|passw(?:or)?d|secret|api-?key|session|credential).*)$/i;

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
  return redactSpellings(text, spellingsOf(secrets));
}

/** Every spelling of `secrets`, longest first, so that a secret that contains another is replaced whole: worked out once for many texts. */
export function spellingsOf(secrets: readonly string[]): readonly string[] {
  const spellings = new Set<string>();
  for (const secret of secrets) if (secret.length > 0) for (const s of secretSpellings(secret)) spellings.add(s);
  return [...spellings].sort((a, b) => b.length - a.length);
}

/** `text` with each of `spellings` (as `spellingsOf` orders them) replaced; a spelling the text lacks costs a scan, not a copy. */
export function redactSpellings(text: string, spellings: readonly string[]): string {
  let out = text;
  for (const s of spellings) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * Whether JSON text may name a secret member. A secret member's name (SECRET_KEY) ends in token, password or
 * secret, and JSON spells a name's letters as they are, or with a \u escape: text with neither has no secret
 * member, so redacting it would give it back as it is (a list page of 100 records: a parse, a copy and two
 * serialisations spared).
 */
export const mayNameSecret = (text: string): boolean => MAY_NAME_SECRET.test(text);
const MAY_NAME_SECRET = /token|password|secret|\\u/i;

/**
 * Redacts secret members of a JSON body, or `key=value` pairs of a form body; other text is returned as is.
 * `namesSecret`: `mayNameSecret(text)`, when the caller has read it already.
 */
export function redactBody(text: string, placeholder?: (key: string, value: unknown) => string, namesSecret = mayNameSecret(text)): string {
  // Nothing in it could be taken for a secret, by the parse below or the loose reading (both look for those names).
  if (!namesSecret) return text;
  // A body nested past any real document (a hostile probe's) is read as text: no walk of it may exhaust the stack.
  if (deeperThan(text, MAX_DEPTH)) return redactLooseText(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactLooseText(text);
  }
  if (typeof parsed !== 'object' || parsed === null) return text;
  const redacted = redactValue(parsed, placeholder);
  if (JSON.stringify(redacted) === JSON.stringify(parsed)) return text; // keep the exact bytes when nothing was secret
  return JSON.stringify(redacted, null, text.includes('\n') ? 2 : undefined);
}

/** Nesting a report keeps; deeper values are cut (reports show evidence, not hostile payloads whole). */
const MAX_DEPTH = 64;
const TOO_DEEP = `[nested deeper than ${MAX_DEPTH} levels]`;

/** Whether JSON text nests arrays and objects more than `max` deep (strings skipped): one pass, no parse. */
function deeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Deep copy of a JSON-like value with the values of secret members replaced (by `placeholder(name)`); cut past MAX_DEPTH. */
export function redactValue(value: unknown, placeholder: (key: string, value: unknown) => string = () => REDACTED, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, placeholder, depth + 1));
  // fromEntries defines own properties, so a `__proto__` member stays data.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretKey(k) && v !== null ? placeholder(k, v) : redactValue(v, placeholder, depth + 1)]));
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
  /** Longest body kept whole, in characters (default 64,000; 256,000 for evidence). */
  readonly maxBody?: number;
  /** The exchange a failing or inconclusive verdict rests on: marked, and kept whole up to a larger cap. */
  readonly evidence?: boolean;
  /**
   * JSON paths of the response body that must survive a cut, e.g. the member a failing expectation
   * read (`$.data[57].id`, `$.meta.page.current`); `meta`, `links` and `errors` always do.
   */
  readonly keep?: readonly string[];
}

/** A page of 100 accounts is about 40,000 characters: kept whole. */
export const DEFAULT_MAX_BODY = 64_000;
const EVIDENCE_MAX_BODY = 256_000;

export function excerpt(exchange: Exchange, opts: ExcerptOptions = {}): ExchangeExcerpt {
  const secrets = opts.secrets ?? [];
  const max = opts.maxBody ?? (opts.evidence === true ? EVIDENCE_MAX_BODY : DEFAULT_MAX_BODY);
  const keep = (opts.keep ?? []).map(parseJsonPath).filter((p): p is JsonPath => p !== undefined);
  const clean = (text: string, paths: readonly JsonPath[]): string => fit(redactText(redactBody(text), secrets), max, paths);
  const { body } = exchange.request;
  return {
    method: exchange.request.method,
    url: redactText(redactLooseText(exchange.request.url), secrets),
    requestHeaders: cleanHeaders(exchange.request.headers ?? {}, secrets, false),
    ...(body === undefined ? {} : { requestBody: clean(body, []) }),
    status: exchange.response.status,
    responseHeaders: cleanHeaders(exchange.response.headers, secrets, true),
    responseBody: clean(exchange.response.body, keep),
    ...(opts.evidence === true ? { evidence: true } : {}),
  };
}

/** Sorted by name, credentials redacted, secrets in other values (a `location` with a token) too. */
function cleanHeaders(headers: Readonly<Record<string, string>>, secrets: readonly string[], response: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = Object.entries(redactHeaders(headers))
    // `date` changes on every answer and judges nothing: reports stay byte-identical without it.
    .filter(([name]) => !(response && name.toLowerCase() === 'date'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, value] of entries) out[name] = redactText(isSecretHeader(name) ? value : redactLooseText(value), secrets);
  return out;
}

/** A body within `max` as is; a longer JSON body shrunk so what a reader needs survives; other text cut. */
function fit(text: string, max: number, keep: readonly JsonPath[]): string {
  if (text.length <= max) return text;
  const shrunk = shrinkJson(text, max, keep);
  // The outline can exceed `max` only by what must be kept; a kept member of megabytes is still cut.
  return shrunk === text || shrunk.length > 4 * max ? cut(text, max) : shrunk;
}

/** `$.data[57].id` as ['data', 57, 'id']; negative indexes count from the end. */
export type JsonPath = readonly (string | number)[];

export function parseJsonPath(path: string): JsonPath | undefined {
  if (!path.startsWith('$')) return undefined;
  const out: (string | number)[] = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(-?\d+)\]|\[(?:'([^']*)'|"([^"]*)")\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (m === null) return undefined;
    out.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3] ?? m[4] ?? ''));
  }
  return out;
}

/** Members a reader always needs from a JSON:API body: where the page is, where it links, what went wrong. */
const ALWAYS_KEPT = new Set(['meta', 'links', 'errors']);

/**
 * A JSON body too long to keep whole loses records from the middle of its arrays first (the kept
 * paths' items stay), so meta, links, the first and last records survive. When even that is too
 * long, an outline: meta, links, errors and the kept paths whole, every other member as its size.
 */
export function shrinkJson(text: string, max: number, keep: readonly JsonPath[] = []): string {
  if (text.length <= max || !/^\s*[[{]/.test(text)) return text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  for (const n of [8, 4, 2, 1]) {
    const shrunk = JSON.stringify(trimArrays(json, n, keep));
    if (shrunk.length <= max) return shrunk;
  }
  return JSON.stringify(outline(json, keep, true));
}

/** Paths continuing below `key` of the current node. */
function below(paths: readonly JsonPath[], key: string | number, length?: number): JsonPath[] {
  const out: JsonPath[] = [];
  for (const p of paths) {
    const [head, ...rest] = p;
    if (head === undefined) continue;
    const at = typeof head === 'number' && length !== undefined && head < 0 ? length + head : head;
    if (at === key) out.push(rest);
  }
  return out;
}

const ends = (paths: readonly JsonPath[]) => paths.some((p) => p.length === 0);

function trimArrays(value: unknown, n: number, keep: readonly JsonPath[]): unknown {
  if (ends(keep)) return value;
  if (Array.isArray(value)) {
    const shown = (i: number) => i < n || i === value.length - 1 || below(keep, i, value.length).length > 0;
    const out: unknown[] = [];
    let gap = 0;
    value.forEach((item, i) => {
      if (!shown(i)) {
        gap += 1;
        return;
      }
      if (gap > 0) out.push(omitted(gap));
      gap = 0;
      out.push(trimArrays(item, n, below(keep, i, value.length)));
    });
    if (gap > 0) out.push(omitted(gap));
    return out;
  }
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimArrays(v, n, below(keep, k))]));
  return value;
}

const omitted = (count: number) => `… ${count} more item${count === 1 ? '' : 's'} …`;

function outline(value: unknown, keep: readonly JsonPath[], top: boolean): unknown {
  if (ends(keep)) return value;
  const size = (v: unknown) => `… ${JSON.stringify(v)?.length ?? 0} chars …`;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    let gap = 0;
    value.forEach((item, i) => {
      const sub = below(keep, i, value.length);
      if (sub.length === 0) {
        gap += 1;
        return;
      }
      if (gap > 0) out.push(omitted(gap));
      gap = 0;
      out.push(outline(item, sub, false));
    });
    if (gap > 0) out.push(omitted(gap));
    return out;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const sub = below(keep, k);
        if (top && ALWAYS_KEPT.has(k)) return [k, v];
        return [k, sub.length > 0 ? outline(v, sub, false) : typeof v === 'object' && v !== null ? size(v) : v];
      }),
    );
  }
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

/** An excerpt as an HTTP-ish transcript (request line, headers, body; status, headers, body), for every reporter. */
export function transcript(e: ExchangeExcerpt): string {
  const lines = [`${e.method} ${e.url}`];
  for (const [name, value] of Object.entries(e.requestHeaders)) lines.push(`${name}: ${value}`);
  if (e.requestBody !== undefined && e.requestBody.length > 0) lines.push('', e.requestBody);
  lines.push('', `HTTP ${e.status}`);
  for (const [name, value] of Object.entries(e.responseHeaders ?? {})) lines.push(`${name}: ${value}`);
  if (e.responseBody.length > 0) lines.push(...(e.responseHeaders === undefined ? [] : ['']), e.responseBody);
  return lines.join('\n');
}
