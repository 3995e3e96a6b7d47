/**
 * Small pure helpers the oracle checks share: reading response bodies, request queries, links and
 * error bodies. Everything is lenient the way a conforming deployment may differ (API-NOTES.md):
 * extra members, `status` as number or string, bracket encoding, parameter order, `+` as space.
 * Nothing here depends on the simulator engine: the oracle must judge any deployment.
 */
import { parseJsonOrUndefined, type Exchange } from '../target/types.js';
import { isPaginatedPath } from './inspect-paths.js';
import { pass, skip, type CheckContext, type Outcome } from './types.js';

export type JsonObject = Readonly<Record<string, unknown>>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The member at `path`, or undefined when any step is missing or not an object. */
export function at(v: unknown, ...path: readonly string[]): unknown {
  let cur = v;
  for (const key of path) {
    if (!isObject(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

export const asNumber = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const is2xx = (status: number): boolean => status >= 200 && status < 300;

/** `GET /v2/accounts?...`, cut short: names the request in a failure message (URLs carry no secrets). */
export function describe(ex: Exchange): string {
  const text = `${ex.request.method.toUpperCase()} ${ex.request.url}`;
  return text.length > 240 ? `${text.slice(0, 237)}...` : text;
}

/**
 * Judges each item in order: the first `fail` is the outcome; `skip` from an item means it does not
 * apply; when none applied the outcome is `skip(none)`, else `pass`.
 */
export function judgeEach<T>(items: readonly T[], none: string, judge: (item: T) => Outcome): Outcome {
  let judged = false;
  for (const item of items) {
    const o = judge(item);
    if (o.status === 'fail') return o;
    if (o.status === 'pass') judged = true;
  }
  return judged ? pass : skip(none);
}

// ---------------------------------------------------------------- list responses

export interface ListBody {
  readonly data: readonly unknown[];
  readonly meta: unknown;
  readonly links: unknown;
}

/** A list response is an object whose `data` is an array (meta judged by the rules, not required here). */
export function asList(json: unknown): ListBody | undefined {
  if (!isObject(json) || !Array.isArray(json['data'])) return undefined;
  const data: readonly unknown[] = json['data'];
  return { data, meta: json['meta'], links: json['links'] };
}

export interface PageMeta {
  readonly limit: number | undefined;
  readonly offset: number | undefined;
  readonly current: number | undefined;
  readonly total: number | undefined;
  readonly resultsTotal: number | undefined;
  /** `exact` when absent; newer services say `lower_bound` or `observed`. */
  readonly totalMethod: string;
}

export function pageMeta(json: unknown): PageMeta {
  const page = (name: string): number | undefined => asNumber(at(json, 'meta', 'page', name));
  return {
    limit: page('limit'),
    offset: page('offset'),
    current: page('current'),
    total: page('total'),
    resultsTotal: asNumber(at(json, 'meta', 'results', 'total')),
    totalMethod: asString(at(json, 'meta', 'results', 'total_method')) ?? 'exact',
  };
}

/** Names of the pagination members that are missing or not numbers. */
export function missingPageMembers(json: unknown): string[] {
  const m = pageMeta(json);
  const missing: string[] = [];
  if (m.limit === undefined) missing.push('meta.page.limit');
  if (m.offset === undefined) missing.push('meta.page.offset');
  if (m.current === undefined) missing.push('meta.page.current');
  if (m.total === undefined) missing.push('meta.page.total');
  if (m.resultsTotal === undefined) missing.push('meta.results.total');
  return missing;
}

export const hasPageMeta = (json: unknown): boolean => isObject(at(json, 'meta', 'page'));

/** Every GET answering 200 with a list body, in order. */
export function listGets(ctx: CheckContext): Exchange[] {
  return ctx.exchanges.filter((ex) => isGet(ex) && ex.response.status === 200 && asList(ex.json) !== undefined);
}

/** List GETs that carry pagination meta, or go to a path known to paginate (so a missing meta is judged). */
export function paginatedGets(ctx: CheckContext): Exchange[] {
  return listGets(ctx).filter((ex) => hasPageMeta(ex.json) || isPaginatedPath(pathOf(ex.request.url)));
}

/**
 * A record's attribute as text: `created_at`/`updated_at` under `meta.timestamps` (accounts and other
 * catalogue resources) or directly under `meta` (authentication records); others at the top level.
 * null when the record says null, undefined when absent or not a scalar.
 */
export function recordAttr(record: unknown, name: string): string | null | undefined {
  const raw = name === 'created_at' || name === 'updated_at'
    ? at(record, 'meta', 'timestamps', name) ?? at(record, 'meta', name) ?? at(record, name)
    : at(record, name);
  if (raw === null) return null;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  return undefined;
}

export const recordId = (record: unknown): string | undefined => asString(at(record, 'id'));

export function idsOf(json: unknown): string[] {
  const list = asList(json);
  if (list === undefined) return [];
  const out: string[] = [];
  for (const r of list.data) {
    const id = recordId(r);
    if (id !== undefined) out.push(id);
  }
  return out;
}

// ---------------------------------------------------------------- requests

export const isGet = (ex: Exchange): boolean => ex.request.method.toUpperCase() === 'GET';
export const methodIs = (ex: Exchange, ...methods: readonly string[]): boolean => methods.includes(ex.request.method.toUpperCase());

/** The request body parsed as JSON, or undefined. */
export const requestJson = (ex: Exchange): unknown => parseJsonOrUndefined(ex.request.body ?? '');

/** Decodes leniently: `+` is a space, a bad percent sequence stays as written. */
export function decodeLenient(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** The path of a relative (`/v2/x?y`) or absolute URL, without query or fragment. */
export function pathOf(url: string): string {
  let rest = url;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (scheme !== null) rest = rest.slice(scheme[0].length);
  const cut = rest.search(/[?#]/);
  const path = cut < 0 ? rest : rest.slice(0, cut);
  return path === '' ? '/' : path;
}

/** Query parameters by decoded name, values decoded, in order; brackets raw or percent-encoded. */
export function queryParams(url: string): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  const q = url.indexOf('?');
  if (q < 0) return out;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeLenient(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeLenient(pair.slice(eq + 1));
    const list = out.get(name) ?? [];
    list.push(value);
    out.set(name, list);
  }
  return out;
}

export const queryParam = (url: string, name: string): string | undefined => queryParams(url).get(name)?.[0];

export interface ListQuery {
  readonly limit: string | undefined;
  readonly offset: string | undefined;
  readonly sort: string | undefined;
  readonly filter: string | undefined;
}

export function listQuery(url: string): ListQuery {
  const q = queryParams(url);
  return { limit: q.get('page[limit]')?.[0], offset: q.get('page[offset]')?.[0], sort: q.get('sort')?.[0], filter: q.get('filter')?.[0] };
}

/** A plain non-negative decimal integer (`12`, ` 12`), else undefined. */
export function wholeNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  return /^\d{1,15}$/.test(t) ? Number(t) : undefined;
}

/**
 * A page parameter's value: `whole` (a non-negative integer; whether 0 is allowed is the caller's
 * call), `bad` (negative, fractional or non-numeric), or `unclear` (empty, `5.0`, `1e2`: not judged).
 */
export function classifyPageParam(text: string): { kind: 'whole'; value: number } | { kind: 'bad' } | { kind: 'unclear' } {
  const t = text.trim();
  if (t === '') return { kind: 'unclear' };
  const whole = wholeNumber(t);
  if (whole !== undefined) return { kind: 'whole', value: whole };
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) {
    const n = Number(t);
    if (n < 0 || !Number.isInteger(n)) return { kind: 'bad' };
    return { kind: 'unclear' };
  }
  return { kind: 'bad' };
}

/** The requested offset: 0 when absent, undefined when not a whole number. */
export const requestedOffset = (url: string): number | undefined => {
  const raw = listQuery(url).offset;
  return raw === undefined ? 0 : wholeNumber(raw);
};

/** Whether the request went out without credentials (`auth: 'none'` and no Authorization header). */
export function sentWithoutAuth(ex: Exchange): boolean {
  return ex.request.auth === 'none' && authorizationHeader(ex) === undefined;
}

export function authorizationHeader(ex: Exchange): string | undefined {
  for (const [name, value] of Object.entries(ex.request.headers ?? {})) if (name.toLowerCase() === 'authorization') return value;
  return undefined;
}

/** Statuses that answer something other than what a rule asks about: credentials and rate limiting. */
export const isAsideStatus = (status: number): boolean => status === 401 || status === 403 || status === 429;

// ---------------------------------------------------------------- links

export type Link = { readonly kind: 'url'; readonly url: URL } | { readonly kind: 'null' } | { readonly kind: 'missing' } | { readonly kind: 'bad'; readonly text: string };

/** A links member: an absolute http(s) URL, null, missing, or bad. */
export function readLink(links: unknown, name: string): Link {
  if (!isObject(links) || !Object.hasOwn(links, name)) return { kind: 'missing' };
  const v = links[name];
  if (v === null) return { kind: 'null' };
  if (typeof v !== 'string') return { kind: 'bad', text: JSON.stringify(v) ?? String(v) };
  try {
    const url = new URL(v);
    return url.protocol === 'http:' || url.protocol === 'https:' ? { kind: 'url', url } : { kind: 'bad', text: v };
  } catch {
    return { kind: 'bad', text: v };
  }
}

/** One query parameter of a parsed link, decoded leniently. */
export const linkParam = (url: URL, name: string): string | undefined => queryParam(url.href, name);

/** Path compared segment by segment after decoding, trailing slash free. */
export function samePath(a: string, b: string): boolean {
  const norm = (p: string): string => p.split('/').filter((s) => s !== '').map(decodeLenient).join('/');
  return norm(a) === norm(b);
}

// ---------------------------------------------------------------- errors

/**
 * Why a body is not the API's error shape for `status`, or undefined when it is:
 * `{"errors": [{status, title, ...}]}`, each status a number or numeric string, one equal to `status`.
 */
export function errorBodyProblem(json: unknown, status: number): string | undefined {
  const errors = at(json, 'errors');
  if (!Array.isArray(errors) || errors.length === 0) return 'no non-empty errors array';
  let matched = false;
  for (const e of errors) {
    if (typeof at(e, 'title') !== 'string') return 'an error without a string title';
    const s = at(e, 'status');
    const n = typeof s === 'number' ? s : typeof s === 'string' && /^\d{3}$/.test(s) ? Number(s) : undefined;
    if (n === undefined) return 'an error whose status is not a number or numeric string';
    if (n === status) matched = true;
  }
  return matched ? undefined : `no error with status ${status}`;
}

export const isErrorBody = (json: unknown, status: number): boolean => errorBodyProblem(json, status) === undefined;

/** The `detail` texts of an error body. */
export function errorDetails(json: unknown): string[] {
  const errors = at(json, 'errors');
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((e) => {
    const d = at(e, 'detail');
    return typeof d === 'string' ? [d] : [];
  });
}

// ---------------------------------------------------------------- misc

/** A scenario variable as text (numbers are turned into text). */
export function varString(vars: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = vars[name];
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** A scenario variable as a number (numeric strings accepted). */
export function varNumber(vars: Readonly<Record<string, unknown>>, name: string): number | undefined {
  const v = vars[name];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

/** The dotted path of the first member named `key` anywhere inside `json` (`data.password`), or undefined. */
export function findKey(json: unknown, key: string, prefix = ''): string | undefined {
  if (Array.isArray(json)) {
    for (const [i, v] of json.entries()) {
      const found = findKey(v, key, `${prefix}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(json)) return undefined;
  for (const k of Object.keys(json)) {
    const here = prefix === '' ? k : `${prefix}.${k}`;
    if (k === key) return here;
    const found = findKey(json[k], key, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

// Paths, timestamps and filter text live beside this module; re-exported so checks import one place.
export * from './inspect-paths.js';
export * from './inspect-filter.js';
