/**
 * What a list read asked and what its page held, read once per exchange for everything that follows it:
 * walk reconstruction, the client rules, ground truth. Pure, and small: the first and last values of the
 * attributes a walk can move on (id and the timestamps), never the records themselves.
 */
import type { Exchange } from '../../port.js';
import {
  asList,
  isTimestampField,
  listQuery,
  MAX_PAGE_LENGTH,
  pageMeta,
  parsedClauses,
  pathOf,
  readSort,
  recordAttr,
  requestedOffset,
  sameValue,
  wholeNumber,
  type FilterClause,
} from '../../rules/inspect.js';

/** The attributes a §4.3 walk moves on. */
const CURSOR_FIELDS: readonly string[] = ['id', 'created_at', 'updated_at'];

interface Cursor {
  readonly op: 'gt' | 'ge';
  readonly field: string;
  readonly value: string;
}

/** What a list read asked, as walks need it. */
export interface ListRead {
  /** Without its last slash. */
  readonly path: string;
  readonly sort: { readonly field: string; readonly direction: 'asc' | 'desc' } | undefined;
  /** `sort` as sent (`''` for none). */
  readonly sortText: string;
  /** The keyset clause: gt/ge on the sort attribute (ascending), else the first on id or a timestamp. */
  readonly cursor: Cursor | undefined;
  /** Every other clause: the query's identity (an upper bound le/lt stays fixed through a walk). */
  readonly base: readonly FilterClause[];
  /** `base` as one comparable text. */
  readonly baseKey: string;
  /** `page[limit]` as asked. */
  readonly limit: number | undefined;
  readonly offset: number;
}

/** The read's walk-relevant parts; undefined for what is not a readable list request (a conflicting query, an offset that is not a whole number). */
export function readOf(ex: Exchange): ListRead | undefined {
  const q = listQuery(ex.request.url);
  if (q.conflicting) return undefined;
  const offset = requestedOffset(ex.request.url);
  if (offset === undefined) return undefined;
  const sort = readSort(q.sort);
  const clauses = parsedClauses(q.filter);
  const isCursor = (c: FilterClause, field?: string) => (c.op === 'gt' || c.op === 'ge') && c.values[0] !== undefined && (field === undefined ? CURSOR_FIELDS.includes(c.field) : c.field === field);
  const onSort = sort?.direction === 'asc' ? clauses.findIndex((c) => isCursor(c, sort.field)) : -1;
  const at = onSort >= 0 ? onSort : clauses.findIndex((c) => isCursor(c));
  const c = clauses[at];
  const cursor = c === undefined ? undefined : { op: c.op as Cursor['op'], field: c.field, value: c.values[0] ?? '' };
  const base = clauses.filter((_x, i) => i !== at);
  return {
    path: pathOf(ex.request.url).replace(/\/$/, ''),
    sort,
    sortText: q.sort ?? '',
    cursor,
    base,
    baseKey: base.map((b) => `${b.op}(${b.field},${b.values.join(',')})`).join(':'),
    limit: wholeNumber(q.limit),
    offset,
  };
}

/** A read pinned to one value of a timestamp (`eq`): a client reading a run of ties on its own. */
export function pinOf(read: ListRead): { readonly field: string; readonly value: string } | undefined {
  const c = read.base.find((b) => b.op === 'eq' && isTimestampField(b.field) && b.values[0] !== undefined);
  return c === undefined ? undefined : { field: c.field, value: c.values[0] ?? '' };
}

/** What a page held, as far as walks and the client rules need it. */
export interface PageFacts {
  readonly read: ListRead;
  /** Records on the page. */
  readonly count: number;
  /** `meta.page.limit` of the answer, wherever the answer put it. */
  readonly granted: number | undefined;
  /** The page size in force: the one granted, else the one asked up to the document's maximum; undefined when neither is known. */
  readonly size: number | undefined;
  /** `meta.results.total` when it is exact. */
  readonly resultsTotal: number | undefined;
  /** The first and last records' values of id and the timestamps (and of the sort attribute). */
  readonly first: Readonly<Record<string, string | undefined>>;
  readonly last: Readonly<Record<string, string | undefined>>;
  /** Fields whose last value no other record of the page shares with the last record (it singles the last record out). */
  readonly lastUnique: ReadonlySet<string>;
  /** Per field: how many records at the page's end share its last value (the run a ge step on that value meets first). */
  readonly lastRun: Readonly<Record<string, number>>;
  /** Fewer records than the page size, or none: this page reached the end of what the query held. */
  readonly short: boolean;
  /** The answer's `Date`, as sent. */
  readonly date: string | undefined;
}

export function pageFacts(read: ListRead, ex: Exchange): PageFacts {
  const data = asList(ex.json)?.data ?? [];
  const m = pageMeta(ex.json);
  const fields = read.sort !== undefined && !CURSOR_FIELDS.includes(read.sort.field) ? [...CURSOR_FIELDS, read.sort.field] : CURSOR_FIELDS;
  const first: Record<string, string | undefined> = {};
  const last: Record<string, string | undefined> = {};
  const head = data[0];
  const tail = data.at(-1);
  const beforeTail = data.at(-2);
  const lastUnique = new Set<string>();
  const lastRun: Record<string, number> = {};
  for (const f of fields) {
    first[f] = recordAttr(head, f) ?? undefined;
    const v = (last[f] = recordAttr(tail, f) ?? undefined);
    const u = recordAttr(beforeTail, f) ?? undefined;
    // Sorted pages put equal values together: the one before the last tells whether the last value is the last record's alone.
    if (v !== undefined && (u === undefined || !sameValue(f, u, v))) lastUnique.add(f);
    if (v !== undefined && isTimestampField(f)) lastRun[f] = runAtEnd(data, f, v);
  }
  const granted = m.limit;
  const size = granted ?? (read.limit === undefined ? undefined : Math.min(read.limit, MAX_PAGE_LENGTH));
  return {
    read,
    count: data.length,
    granted,
    size,
    resultsTotal: m.totalMethod === 'exact' ? m.resultsTotal : undefined,
    first,
    last,
    lastUnique,
    lastRun,
    short: data.length === 0 || (size !== undefined && data.length < size),
    date: ex.response.headers['date'],
  };
}

/** How many records at the end of `data` share the value `v` of `field`. */
function runAtEnd(data: readonly unknown[], field: string, v: string): number {
  let n = 0;
  for (let i = data.length - 1; i >= 0; i--) {
    const x = recordAttr(data[i], field);
    if (x === undefined || x === null || !sameValue(field, x, v)) break;
    n++;
  }
  return n;
}

/** A full page whose first and last values of timestamp `field` are equal: more records may share that value (§4.3). */
export function isUniform(page: PageFacts, field: string): boolean {
  const a = page.first[field];
  const b = page.last[field];
  return isTimestampField(field) && page.count >= 2 && !page.short && page.size !== undefined && a !== undefined && b !== undefined && sameValue(field, a, b);
}

/** Whether two reads ask the same query but for their cursor and page: same path, sort and other clauses. */
export const sameQuery = (a: ListRead, b: ListRead): boolean => a.path === b.path && a.sortText === b.sortText && a.baseKey === b.baseKey;

/** `accounts by created_at`: how a report names a walk (its kind, offset or keyset, is told beside it). */
export function walkLabel(read: ListRead, field: string | undefined): string {
  const what =
    read.path
      .split('/')
      .filter((s) => s !== '' && s !== 'v2')
      .join('/') || read.path;
  const extra = read.base.length > 0 ? ` where ${read.baseKey}` : '';
  return `${what}${field === undefined ? '' : ` by ${field}`}${extra}`;
}
