/**
 * Request URLs, links and error bodies, read leniently (docs/api-notes.md): brackets raw or percent-encoded,
 * `+` as a space, parameter order free, error `status` as number or numeric string.
 */
import { at, isObject } from './inspect-json.js';

/** Decodes leniently: `+` is a space, a bad percent sequence stays as written. */
export function decodeLenient(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
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

/**
 * `read` remembering its latest results by key. Every check of a run reads the same few URLs and
 * paths (the request's, each link's) again; results are read-only, so sharing them is safe.
 */
export function lastFew<T>(read: (key: string) => T, capacity = 64): (key: string) => T {
  const kept = new Map<string, { readonly value: T }>();
  return (key) => {
    const hit = kept.get(key);
    if (hit !== undefined) return hit.value;
    if (kept.size >= capacity) kept.clear();
    const value = read(key);
    kept.set(key, { value });
    return value;
  };
}

/** URLs remembered: more than a session's chunk of exchanges (traffic judging reads each URL once per rule). */
const URL_CACHE = 1_024;

/** Query parameters by decoded name, values decoded, in order; brackets raw or percent-encoded. */
export const queryParams: (url: string) => ReadonlyMap<string, readonly string[]> = lastFew(parseQuery, URL_CACHE);

function parseQuery(url: string): ReadonlyMap<string, readonly string[]> {
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
  /**
   * One of the four given more than once with different values. What a server does then is not
   * documented (refuse, take the first, take the last): the values above are only the first ones.
   */
  readonly conflicting: boolean;
}

const LIST_PARAMS = ['page[limit]', 'page[offset]', 'sort', 'filter'];

export const listQuery: (url: string) => ListQuery = lastFew(readListQuery, URL_CACHE);

function readListQuery(url: string): ListQuery {
  const q = queryParams(url);
  const conflicting = LIST_PARAMS.some((name) => {
    const values = q.get(name) ?? [];
    return values.some((v) => v !== values[0]);
  });
  return { limit: q.get('page[limit]')?.[0], offset: q.get('page[offset]')?.[0], sort: q.get('sort')?.[0], filter: q.get('filter')?.[0], conflicting };
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

// ---------------------------------------------------------------- links

export type Link = { readonly kind: 'url'; readonly url: URL } | { readonly kind: 'null' } | { readonly kind: 'missing' } | { readonly kind: 'bad'; readonly text: string };

/** Links already read, by links object: several checks of a run parse the same response's links. */
const readLinks = new WeakMap<object, Map<string, Link>>();

/** A links member: an absolute http(s) URL, null, missing, or bad. The URL is shared: do not modify it. */
export function readLink(links: unknown, name: string): Link {
  if (!isObject(links) || !Object.hasOwn(links, name)) return { kind: 'missing' };
  let byName = readLinks.get(links);
  if (byName === undefined) {
    byName = new Map();
    readLinks.set(links, byName);
  }
  let link = byName.get(name);
  if (link === undefined) {
    link = parseLink(links[name]);
    byName.set(name, link);
  }
  return link;
}

function parseLink(v: unknown): Link {
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

/** The `detail` texts of an error body. */
export function errorDetails(json: unknown): string[] {
  const errors = at(json, 'errors');
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((e) => {
    const d = at(e, 'detail');
    return typeof d === 'string' ? [d] : [];
  });
}
