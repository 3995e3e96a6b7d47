/**
 * What of an exchange is behaviour and what is data. Two deployments answer the same request with
 * different records, ids, timestamps and totals; they should not differ in statuses, error shapes,
 * page sizes *relative to* their totals, link structure, ordering or field sets. Each exchange becomes
 * a list of features compared by key: relations that must hold on any data set are `behaviour`, raw
 * values that follow the data set are `data`. Ids and timestamps are compared by shape, never value.
 */
import { currentPage, lastPageOffset, pageCount, previousOffset, recordsOnPage } from '../engine/pagination.js';
import { MAX_PAGE_LENGTH } from '../limits.js';
import { asList, asNumber, asString, at, decodeLenient, isObject, listQuery, queryParams, recordAttr } from '../rules/inspect.js';
import { clauseHolds, firstDisorder, parsedClauses, readSort } from '../rules/inspect-filter.js';
import { isCreatePath, isIsoMillisZ, instantOf } from '../rules/inspect-paths.js';
import { BASE_URL, type Fixture } from './format.js';

type DiffKind = 'behaviour' | 'data';
export type Aspect = 'status' | 'errors' | 'page-size' | 'totals' | 'links' | 'ordering' | 'filter' | 'fields';

export interface Feature {
  readonly aspect: Aspect;
  /** What is compared, e.g. `meta.page.total = ceil(results.total / limit)`; unique within an exchange. */
  readonly key: string;
  readonly value: string;
  readonly kind: DiffKind;
  /** `kinds`: a `|`-joined set of value shapes, where a difference in `null` alone is data (a nullable member). */
  readonly match: 'exact' | 'kinds';
  /** The catalogue rule this feature is direct evidence of, when there is one (docs/rule-ids.md). */
  readonly rule?: string;
}

const HOLDS = 'holds';
const FAILS = 'fails';
export const UNKNOWN = 'unknown';
type Relation = typeof HOLDS | typeof FAILS | typeof UNKNOWN;

const relation = (value: boolean | undefined): Relation => (value === undefined ? UNKNOWN : value ? HOLDS : FAILS);
const feature = (aspect: Aspect, key: string, value: string, kind: DiffKind = 'behaviour', rule?: string): Feature => ({
  aspect,
  key,
  value,
  kind,
  match: 'exact',
  ...(rule === undefined ? {} : { rule }),
});
/** A relation that must hold on any data set, and the rule it evidences. */
const holds = (aspect: Aspect, key: string, value: boolean | undefined, rule: string): Feature => feature(aspect, key, relation(value), 'behaviour', rule);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `record --rename-ids` placeholders stand for UUID-shaped ids. */
const ID_PLACEHOLDER = /^<id-\d+>$/;

/** The shape of a scalar: ids and timestamps by form, never by value. */
export function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value !== 'string') return typeof value;
  if (UUID.test(value) || ID_PLACEHOLDER.test(value)) return 'uuid';
  if (isIsoMillisZ(value)) return 'timestamp-ms';
  if (/^\d{4}-\d{2}-\d{2}T/.test(value) && instantOf(value) !== undefined) return 'timestamp';
  if (/^https?:\/\//i.test(value) || value.startsWith(BASE_URL)) return 'url';
  return 'string';
}

/** Every feature of one exchange, in a stable order. */
export function features(f: Fixture): Feature[] {
  const out: Feature[] = [feature('status', 'status', String(f.response.status))];
  const { body } = f.response;
  const media = (f.response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  out.push(feature('fields', 'content-type', media === '' ? '(none)' : media));
  out.push(feature('fields', 'body', typeof body === 'string' ? (body === '' ? 'empty' : 'text') : Array.isArray(body) ? 'json array' : 'json object'));
  if (typeof body === 'string') return out;
  const errors = at(body, 'errors');
  if (Array.isArray(errors)) out.push(...errorFeatures(errors, f.response.status));
  const list = asList(body);
  if (list !== undefined && isObject(list.meta)) out.push(...listFeatures(f, body, list.data));
  out.push(...fieldFeatures(body, f.request.url, f.request.method.toUpperCase()));
  return out;
}

function errorFeatures(errors: readonly unknown[], status: number): Feature[] {
  const out = [feature('errors', 'errors.count', String(errors.length))];
  errors.forEach((e, i) => {
    const s = at(e, 'status');
    // API-NOTES "Errors": older services send 400, newer "400"; both mean the same.
    const text = typeof s === 'number' || typeof s === 'string' ? String(s).trim() : s === undefined ? '(absent)' : `(${shapeOf(s)})`;
    out.push(feature('errors', `errors[${i}].status`, text));
    out.push(holds('errors', `errors[${i}].status equals the HTTP status`, text === String(status), 'errors.format'));
    out.push(feature('errors', `errors[${i}].title`, asString(at(e, 'title')) ?? '(absent)'));
    out.push(feature('errors', `errors[${i}].detail`, at(e, 'detail') === undefined ? 'absent' : 'present'));
  });
  return out;
}

interface Page {
  readonly limit: number | undefined;
  readonly offset: number | undefined;
  readonly total: number | undefined;
  readonly pages: number | undefined;
}

function listFeatures(f: Fixture, body: unknown, data: readonly unknown[]): Feature[] {
  const num = (...path: string[]) => asNumber(at(body, 'meta', ...path));
  const page: Page = { limit: num('page', 'limit'), offset: num('page', 'offset'), total: num('results', 'total'), pages: num('page', 'total') };
  const { limit, offset, total, pages } = page;
  const known = limit !== undefined && offset !== undefined && total !== undefined;
  const asked = listQuery(f.request.url).limit;
  const limitRule = asked === undefined ? 'pagination.limit.default' : Number(asked) > MAX_PAGE_LENGTH ? 'pagination.limit.clamp' : 'pagination.limit.per-call';
  const out: Feature[] = [
    feature('page-size', 'meta.page.limit', String(limit ?? '(absent)'), 'behaviour', limitRule),
    holds('page-size', 'data.length = min(limit, results.total - offset)', known ? data.length === recordsOnPage(total, offset, limit) : undefined, 'pagination.results.total'),
    holds('page-size', 'data.length <= meta.page.limit <= 100', limit === undefined ? undefined : data.length <= limit && limit <= MAX_PAGE_LENGTH, 'pagination.limit.max'),
    feature('page-size', 'data.length', String(data.length), 'data'),
    feature('totals', 'meta.page.offset', String(offset ?? '(absent)'), 'behaviour', 'pagination.offset.echo'),
    holds(
      'totals',
      'meta.page.total = ceil(results.total / limit)',
      limit !== undefined && total !== undefined && pages !== undefined && limit > 0 ? pages === pageCount(total, limit) : undefined,
      'pagination.page.total',
    ),
    holds('totals', 'meta.page.current = floor(offset / limit) + 1', known && limit > 0 ? num('page', 'current') === currentPage(offset, limit) : undefined, 'pagination.page.current'),
    feature('totals', 'meta.results.total', String(total ?? '(absent)'), 'data'),
    feature('totals', 'meta.page.total', String(pages ?? '(absent)'), 'data'),
  ];
  out.push(...linkFeatures(f, at(body, 'links'), page));
  out.push(...orderFeatures(f, data));
  return out;
}

const LINKS = ['current', 'first', 'last', 'next', 'prev'] as const;

/** Links parsed as URLs (API-NOTES: services differ in encoding and parameter order): structure, never strings. */
function linkFeatures(f: Fixture, links: unknown, page: Page): Feature[] {
  const out: Feature[] = [];
  if (!isObject(links)) return [feature('links', 'links', links === undefined ? 'absent' : shapeOf(links), 'behaviour', 'pagination.links.present')];
  const names = [...new Set([...LINKS, ...Object.keys(links)])];
  const { limit, offset, total } = page;
  const known = limit !== undefined && offset !== undefined && total !== undefined && limit > 0;
  const lastOffset = known ? lastPageOffset(total, limit) : undefined;
  const expected: Readonly<Record<string, number | undefined>> = {
    current: offset,
    first: 0,
    last: lastOffset,
    next: known ? offset + limit : undefined,
    prev: offset === undefined || limit === undefined ? undefined : previousOffset(offset, limit),
  };
  const kept = keptParams(f.request.url);
  for (const name of names) {
    const value = links[name];
    const state = value === undefined ? 'absent' : value === null ? 'null' : typeof value === 'string' ? 'url' : shapeOf(value);
    // Whether next and last are null follows the data set; the relation to meta does not.
    const dataDependent = name === 'next' || name === 'last';
    out.push(feature('links', `links.${name}`, state, dataDependent && state !== 'absent' ? 'data' : 'behaviour', 'pagination.links.present'));
    const consistent = (key: string, value: boolean | undefined) => out.push(holds('links', key, value, 'pagination.links.consistent'));
    if (name === 'next') consistent('links.next is null exactly on the last page', known && state !== 'absent' ? (state === 'null') === offset + limit >= total : undefined);
    if (name === 'last') consistent('links.last is null exactly when there is at most one page', known && state !== 'absent' ? (state === 'null') === total <= limit : undefined);
    if (typeof value !== 'string') continue;
    const url = parseLink(value);
    if (url === undefined) {
      out.push(feature('links', `links.${name} form`, 'not a URL', 'behaviour', 'pagination.links.present'));
      continue;
    }
    const params = queryParams(url.search);
    const want = expected[name];
    out.push(feature('links', `links.${name} path`, idsAsTemplate(url.pathname), 'behaviour', 'pagination.links.consistent'));
    out.push(feature('links', `links.${name} parameters`, [...params.keys()].sort().join(','), 'behaviour', 'pagination.links.consistent'));
    consistent(`links.${name} page[limit] = meta.page.limit`, limit === undefined ? undefined : params.get('page[limit]')?.[0] === String(limit));
    consistent(`links.${name} page[offset] as meta implies`, want === undefined ? undefined : params.get('page[offset]')?.[0] === String(want));
    consistent(
      `links.${name} keeps the request's other parameters`,
      [...kept].every(([k, v]) => params.get(k)?.[0] === v),
    );
  }
  return out;
}

function keptParams(url: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of queryParams(url)) if (k !== 'page[limit]' && k !== 'page[offset]' && v[0] !== undefined) out.set(k, v[0]);
  return out;
}

function parseLink(text: string): URL | undefined {
  const absolute = text.startsWith(BASE_URL) ? `http://base.invalid${text.slice(BASE_URL.length)}` : text;
  try {
    return new URL(absolute);
  } catch {
    return undefined;
  }
}

/** Whether each side keeps the order and the filter its request asked for. */
function orderFeatures(f: Fixture, data: readonly unknown[]): Feature[] {
  const out: Feature[] = [];
  const q = listQuery(f.request.url);
  const sort = readSort(q.sort);
  if (sort !== undefined) {
    const values = data.map((r) => recordAttr(r, sort.field));
    const readable = values.every((v): v is string => typeof v === 'string') && !(sort.field === 'id' && values.some((v) => ID_PLACEHOLDER.test(v)));
    const order = readable ? (firstDisorder(sort.field, values, sort.direction) === undefined ? HOLDS : FAILS) : UNKNOWN;
    out.push(feature('ordering', `data sorted by ${q.sort ?? ''}`, order, 'behaviour', sort.direction === 'asc' ? 'sort.ascending' : 'sort.descending'));
  }
  const clauses = parsedClauses(q.filter);
  if (clauses.length > 0) {
    let result: Relation = HOLDS;
    for (const r of data) {
      for (const c of clauses) {
        const value = recordAttr(r, c.field);
        const renamed = c.field === 'id' && [value ?? '', ...c.values].some((v) => ID_PLACEHOLDER.test(v));
        const ok = renamed ? undefined : clauseHolds(value, c);
        if (ok === false) result = FAILS;
        else if (ok === undefined && result === HOLDS) result = UNKNOWN;
      }
    }
    // The key names the filter's form, not its values: keyset pages filter on different ids everywhere.
    const form = clauses.map((c) => `${c.op}(${c.field})`).join(':');
    out.push(feature('filter', `data satisfies filter ${form}`, result, 'behaviour', filterRule(clauses.map((c) => c.op))));
  }
  return out;
}

function filterRule(ops: readonly string[]): string {
  if (ops.length > 1) return 'filter.and';
  return ops[0] === 'gt' ? 'filter.gt' : ops[0] === 'ge' ? 'filter.ge' : 'filter.operators';
}

/** Members whose value is a name of the API, not data: compared literally. */
const LITERAL_MEMBERS = new Set(['type', 'token_type']);
/** The pagination links linkFeatures judges; other URL members are compared by their path's form here. */
const PAGE_LINK = /^links\.(current|first|last|next|prev)$/;

/**
 * The field set, by shape: every member path (`data[].meta.timestamps.created_at`) with the set of
 * shapes seen there; `type` members by value; URL members by the form of their path (ids as {id}).
 * Error bodies are judged by errorFeatures, so their members are left out here.
 */
function fieldFeatures(body: unknown, url: string, method: string): Feature[] {
  const create = method === 'POST' && isCreatePath(url);
  const shapes = new Map<string, Set<string>>();
  const literals = new Map<string, Set<string>>();
  const paths = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, key: string, value: string) => map.set(key, (map.get(key) ?? new Set<string>()).add(value));
  const visit = (value: unknown, path: string, key: string): void => {
    if (path === 'errors') return;
    const shape = shapeOf(value);
    add(shapes, path, shape);
    if (LITERAL_MEMBERS.has(key) && typeof value === 'string') add(literals, path, value);
    if (shape === 'url' && typeof value === 'string' && !PAGE_LINK.test(path)) add(paths, path, pathForm(value));
    if (Array.isArray(value)) for (const item of value) visit(item, `${path}[]`, '');
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) visit(v, path === '' ? k : `${path}.${k}`, k);
  };
  visit(body, '', '');
  const out: Feature[] = [];
  for (const [path, kinds] of sorted(shapes)) {
    if (path === '') continue;
    out.push({ aspect: 'fields', key: `field ${path}`, value: [...kinds].sort().join('|'), kind: 'behaviour', match: 'kinds', ...ruleOf(fieldRule(path, create)) });
  }
  for (const [path, values] of sorted(literals)) {
    const rule = path.endsWith('token_type') ? 'auth.token.response' : create ? 'create.type.underscore-echo' : undefined;
    out.push(feature('fields', `value ${path}`, [...values].sort().join('|'), 'behaviour', rule));
  }
  for (const [path, forms] of sorted(paths)) {
    out.push(feature('fields', `url path ${path}`, [...forms].sort().join('|'), 'behaviour', create && path === 'links.self' ? 'create.links.self' : 'versioning.v2-prefix'));
  }
  const created = at(body, 'data', 'meta', 'created_at');
  const updated = at(body, 'data', 'meta', 'updated_at');
  if (typeof created === 'string' && typeof updated === 'string') {
    // Equal on creation (§2.1); after an update they differ, and that follows the data.
    out.push(feature('fields', 'data.meta.updated_at = created_at', relation(created === updated), create ? 'behaviour' : 'data', create ? 'create.timestamps.equal' : undefined));
  }
  return out;
}

const ruleOf = (rule: string | undefined): { rule?: string } => (rule === undefined ? {} : { rule });

function fieldRule(path: string, create: boolean): string | undefined {
  const last = path.slice(path.lastIndexOf('.') + 1);
  if (last === 'password') return create ? 'create.password.not-returned' : 'password-profile.password-never-returned';
  if (/^meta\.(page|results)(\.|$)/.test(path)) return 'pagination.meta.present';
  if (!create) return undefined;
  if (last === 'created_at' || last === 'updated_at') return 'create.timestamps.format';
  if (path === 'links.self' || path === 'links') return 'create.links.self';
  return path.startsWith('data') ? 'create.response.fields' : undefined;
}

/** `{base_url}/v2/accounts/9f8c...` and `https://x/v2/accounts/<id-3>` both read `/v2/accounts/{id}`. */
function pathForm(text: string): string {
  const url = parseLink(text);
  return url === undefined ? '(not a URL)' : idsAsTemplate(url.pathname);
}

function idsAsTemplate(pathname: string): string {
  return pathname
    .split('/')
    .map((seg) => (UUID.test(seg) || ID_PLACEHOLDER.test(decodeLenient(seg)) ? '{id}' : seg))
    .join('/');
}

function sorted<T>(map: ReadonlyMap<string, T>): [string, T][] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
