/**
 * Small pure helpers the oracle checks share: reading response bodies, request queries, links and
 * error bodies. Everything is lenient the way a conforming deployment may differ (docs/api-notes.md):
 * extra members, `status` as number or string, bracket encoding, parameter order, `+` as space.
 * Nothing here depends on the simulator engine: the oracle must judge any deployment.
 */
import { parseJsonOrUndefined, type Exchange } from '../port.js';
import { asString, at, isObject, type JsonObject } from './inspect-json.js';
import { isPaginatedPath, isSettingsPath } from './inspect-paths.js';
import { errorBodyProblem, listQuery, pathOf, wholeNumber } from './inspect-wire.js';
import { fail, pass, skip, type CheckContext, type Outcome } from './rule.js';

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

/** Every pagination check of a run reads the same response's meta: each parsed body is read once. */
const pageMetas = new WeakMap<object, PageMeta>();

export function pageMeta(json: unknown): PageMeta {
  if (!isObject(json)) return readPageMeta(json);
  let m = pageMetas.get(json);
  if (m === undefined) {
    m = readPageMeta(json);
    pageMetas.set(json, m);
  }
  return m;
}

/** How deep and how wide the search for `page` and `results` goes: far past any real envelope, bounded for hostile bodies. */
const MAX_META_DEPTH = 32;
const MAX_META_MEMBERS = 2_000;

/**
 * Where the `page` and `results` attributes sit. §2.3 leaves their position open ("not shown"), so the
 * documented checks read them wherever they are: under `meta` (the public API, API-NOTES), at the top
 * level, nested deeper, or one here and the other there. The search goes breadth first through every
 * object member outside `data` and `links`, so the shallowest `page` and `results` objects win.
 */
export function pageAttributes(json: unknown): { readonly page: unknown; readonly results: unknown; readonly position: 'meta' | 'elsewhere' | 'missing' } {
  const page = at(json, 'meta', 'page');
  const results = at(json, 'meta', 'results');
  if (isObject(page) && isObject(results)) return { page, results, position: 'meta' };
  const found: { page: JsonObject | undefined; results: JsonObject | undefined } = { page: undefined, results: undefined };
  let level: unknown[] = [json];
  let visited = 0;
  for (let depth = 0; depth < MAX_META_DEPTH && level.length > 0 && (found.page === undefined || found.results === undefined); depth++) {
    const next: unknown[] = [];
    for (const value of level) {
      if (!isObject(value)) continue;
      for (const [key, member] of Object.entries(value)) {
        if (++visited > MAX_META_MEMBERS) break;
        if (!isObject(member) || (depth === 0 && (key === 'data' || key === 'links'))) continue;
        if (key === 'page' && found.page === undefined) found.page = member;
        else if (key === 'results' && found.results === undefined) found.results = member;
        else next.push(member);
      }
    }
    level = next;
  }
  return { ...found, position: found.page === undefined && found.results === undefined ? 'missing' : 'elsewhere' };
}

/** A pagination member's value: a number, or a numeric string (the type is not shown, §2.3). */
function pageNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  return typeof v === 'string' && /^\s*-?\d{1,15}(\.\d+)?\s*$/.test(v) ? Number(v) : undefined;
}

function readPageMeta(json: unknown): PageMeta {
  const { page: p, results: r } = pageAttributes(json);
  const page = (name: string): number | undefined => pageNumber(at(p, name));
  return {
    limit: page('limit'),
    offset: page('offset'),
    current: page('current'),
    total: page('total'),
    resultsTotal: pageNumber(at(r, 'total')),
    totalMethod: asString(at(r, 'total_method')) ?? 'exact',
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

const hasPageMeta = (json: unknown): boolean => pageAttributes(json).position !== 'missing';

/**
 * Whether the checks can tell what a read asked for: not when a list parameter is given twice with
 * different values (the server may have used either, or refused), so such reads are not judged.
 */
export const clearListQuery = (ex: Exchange): boolean => !listQuery(ex.request.url).conflicting;

const isListGet = (ex: Exchange): boolean => isGet(ex) && ex.response.status === 200 && asList(ex.json) !== undefined && clearListQuery(ex);

/** Every GET answering 200 with a list body (and a clear list query), in order. */
export function listGets(ctx: CheckContext): Exchange[] {
  return ctx.exchanges.filter(isListGet);
}

/** A GET of a list (a paginated path, or answered with a list body) with a clear list query, whatever the status. */
export const isListRead = (ex: Exchange): boolean => isGet(ex) && (isPaginatedPath(pathOf(ex.request.url)) || asList(ex.json) !== undefined) && clearListQuery(ex);

/** List GETs that carry pagination meta, or go to a path known to paginate (so a missing meta is judged). */
export function paginatedGets(ctx: CheckContext): Exchange[] {
  return listGets(ctx).filter((ex) => hasPageMeta(ex.json) || isPaginatedPath(pathOf(ex.request.url)));
}

/**
 * A record's attribute as text, wherever a conforming deployment may put it (the fields of list records
 * are not shown): `created_at`/`updated_at` under `meta.timestamps` (accounts in the public API), directly
 * under `meta` (authentication records), beside `id`, or under `attributes` (JSON:API style); any other
 * attribute beside `id` or under `attributes`. null when the record says null, undefined when absent or
 * not a scalar.
 */
export function recordAttr(record: unknown, name: string): string | null | undefined {
  if (record instanceof HeldRecord) return record.attr(name);
  if (!isObject(record)) return undefined;
  const raw =
    name === 'created_at' || name === 'updated_at'
      ? (member(member(member(record, 'meta'), 'timestamps'), name) ?? member(member(record, 'meta'), name) ?? member(record, name) ?? member(member(record, 'attributes'), name))
      : name === 'id' || Object.hasOwn(record, name)
        ? member(record, name)
        : member(member(record, 'attributes'), name);
  if (raw === null) return null;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  return undefined;
}

/** `at(v, key)` without its rest array: every rule reads every record's attributes through here, per page. */
function member(v: unknown, key: string): unknown {
  return isObject(v) && Object.hasOwn(v, key) ? v[key] : undefined;
}

export const recordId = (record: unknown): string | undefined => (record instanceof HeldRecord ? record.id : asString(member(record, 'id')));

/**
 * A list record as the traffic judge holds it past its exchange's turn (for its walk and session rules):
 * what `recordId` reads of it, and what `recordAttr` reads for `id`, the two timestamps and each name of
 * `more`, read once, and nothing else. One object and the strings it keeps, instead of the parsed record's
 * tree (nested meta, links, every attribute), which can then be let go young. Reading any other name of
 * it is not meant (undefined).
 */
export class HeldRecord {
  constructor(
    readonly id: string | undefined,
    readonly idAttr: string | null | undefined,
    readonly createdAt: string | null | undefined,
    readonly updatedAt: string | null | undefined,
    /** Shared by the records of one page. */
    readonly more: readonly string[],
    readonly values: readonly (string | null | undefined)[] | undefined,
  ) {}

  attr(name: string): string | null | undefined {
    if (name === 'id') return this.idAttr;
    if (name === 'created_at') return this.createdAt;
    if (name === 'updated_at') return this.updatedAt;
    const i = this.more.indexOf(name);
    return i < 0 ? undefined : this.values?.[i];
  }
}

/** `record` as held (see HeldRecord); a record that is no object reads as nothing anyway, and stays. */
export function recordFacts(record: unknown, more: readonly string[]): unknown {
  if (!isObject(record)) return record;
  return new HeldRecord(
    recordId(record),
    recordAttr(record, 'id'),
    recordAttr(record, 'created_at'),
    recordAttr(record, 'updated_at'),
    more,
    more.length === 0 ? undefined : more.map((n) => recordAttr(record, n)),
  );
}

/** A page's ids, read once per parsed body however many rules ask (several per list read). */
const pageIds = new WeakMap<object, readonly string[]>();

export function idsOf(json: unknown): readonly string[] {
  const list = asList(json);
  if (list === undefined) return [];
  let out = pageIds.get(list.data);
  if (out !== undefined) return out;
  const ids: string[] = [];
  for (const r of list.data) {
    const id = recordId(r);
    if (id !== undefined) ids.push(id);
  }
  pageIds.set(list.data, (out = ids));
  return out;
}

// ---------------------------------------------------------------- requests

export const isGet = (ex: Exchange): boolean => ex.request.method.toUpperCase() === 'GET';
export const methodIs = (ex: Exchange, ...methods: readonly string[]): boolean => methods.includes(ex.request.method.toUpperCase());

/** The request body parsed as JSON, or undefined. */
export const requestJson = (ex: Exchange): unknown => parseJsonOrUndefined(ex.request.body ?? '');

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

/** A successful write of data (not a token, settings or simulator-admin request). */
export function isDataWrite(ex: Exchange): boolean {
  const path = pathOf(ex.request.url);
  return methodIs(ex, 'POST', 'PUT', 'PATCH', 'DELETE') && is2xx(ex.response.status) && !/^\/(oauth|__sim)\//.test(path) && !isSettingsPath(path);
}

/** A successful operator action through the simulator's admin API (window, clock, offset limit, reseed). */
export const isAdminWrite = (ex: Exchange): boolean => methodIs(ex, 'PUT', 'POST', 'PATCH') && pathOf(ex.request.url).startsWith('/__sim/') && is2xx(ex.response.status);

/**
 * A successful request that may change what lists show: a data write, or an operator action
 * (simulator admin API: clock, consistency window, reseed). Token requests and reads do not.
 */
export function changesState(ex: Exchange): boolean {
  return !methodIs(ex, 'GET', 'HEAD', 'OPTIONS') && is2xx(ex.response.status) && !/^\/oauth\//.test(pathOf(ex.request.url));
}

/** Statuses that answer something other than what a rule asks about: credentials and rate limiting. */
export const isAsideStatus = (status: number): boolean => status === 401 || status === 403 || status === 429;

/** `status` with the error array, or a failure naming what differs. */
export function expectError(ex: Exchange, status: number, why: string): Outcome {
  if (ex.response.status !== status) return fail(`${describe(ex)} (${why}) answered ${ex.response.status}`, status, ex.response.status);
  const problem = errorBodyProblem(ex.json, status);
  return problem === undefined ? pass : fail(`${describe(ex)} (${why}): error body has ${problem}`, '{"errors":[{status,title}]}', problem);
}

// JSON, URLs, paths, timestamps and filter text live beside this module; re-exported so checks import one place.
export * from './inspect-json.js';
export * from './inspect-wire.js';
export * from './inspect-paths.js';
export * from './inspect-filter.js';
