/**
 * Walk reconstruction: which list reads of one client belong together. A walk is one query paged to
 * its end: by offset (same path, sort and filter, page[offset] moving on), or by keyset (the first
 * gt/ge clause on the sort attribute, or on id or a timestamp, carrying the last value of the previous
 * page). Pure decisions on what a read asked and what its page held; the judge keeps the state.
 */
import type { Exchange } from '../../port.js';
import { asList, isTimestampField, listQuery, pageMeta, parsedClauses, pathOf, readSort, recordAttr, requestedOffset, sameValue, wholeNumber, type FilterClause } from '../../rules/inspect.js';

export type WalkKind = 'offset' | 'keyset';

/** What a list read asked, as walks need it. */
export interface ListRead {
  readonly path: string;
  readonly sort: { readonly field: string; readonly direction: 'asc' | 'desc' } | undefined;
  /** The keyset clause: gt/ge on the sort attribute (ascending), else on id or a timestamp. */
  readonly cursor: { readonly op: 'gt' | 'ge'; readonly field: string; readonly value: string } | undefined;
  /** Every other clause, as the walk's identity (an upper bound le/lt stays fixed through a walk). */
  readonly base: readonly FilterClause[];
  readonly limit: number | undefined;
  readonly offset: number;
  /** Walk identity within one client: path, sort, the other clauses, the cursor's attribute. */
  readonly key: string;
}

const CURSOR_FIELDS = new Set(['id', 'created_at', 'updated_at']);

/** The read's walk-relevant parts; undefined for what is not a readable list request. */
export function readOf(ex: Exchange): ListRead | undefined {
  const q = listQuery(ex.request.url);
  if (q.conflicting) return undefined;
  const offset = requestedOffset(ex.request.url);
  if (offset === undefined) return undefined;
  const sort = readSort(q.sort);
  const clauses = parsedClauses(q.filter);
  const onSort = sort?.direction === 'asc' ? clauses.findIndex((c) => (c.op === 'gt' || c.op === 'ge') && c.field === sort.field) : -1;
  const at = onSort >= 0 ? onSort : clauses.findIndex((c) => (c.op === 'gt' || c.op === 'ge') && CURSOR_FIELDS.has(c.field));
  const c = clauses[at];
  const cursor = c === undefined || c.values[0] === undefined ? undefined : { op: c.op as 'gt' | 'ge', field: c.field, value: c.values[0] };
  const base = clauses.filter((_x, i) => i !== at);
  const path = pathOf(ex.request.url).replace(/\/$/, '');
  // The attribute the walk moves on: a first page (sort=id, no filter yet) and its gt(id,...) pages share it.
  const moves = cursor?.field ?? (sort?.direction === 'asc' ? sort.field : '');
  const key = JSON.stringify([path, q.sort ?? '', base.map((b) => [b.op, b.field, ...b.values]), moves]);
  return { path, sort, cursor, base, limit: wholeNumber(q.limit), offset, key };
}

export const kindOf = (read: ListRead): WalkKind => (read.cursor === undefined ? 'offset' : 'keyset');

/** What the judge remembers of a walk's last page (no per-record state). */
export interface PageSummary {
  readonly read: ListRead;
  readonly count: number;
  readonly limit: number | undefined;
  readonly resultsTotal: number | undefined;
  /** The walk attribute's first and last values on the page (the cursor's attribute, else the sort's). */
  readonly first: string | undefined;
  readonly last: string | undefined;
  /** A full page whose first and last values of a timestamp attribute are equal. */
  readonly uniform: boolean;
}

/** The attribute a walk moves on: its cursor's, else its sort's (ascending), else none (offset). */
export const walkField = (read: ListRead): string | undefined => read.cursor?.field ?? (read.sort?.direction === 'asc' ? read.sort.field : undefined);

export function summarise(read: ListRead, ex: Exchange): PageSummary {
  const data = asList(ex.json)?.data ?? [];
  const m = pageMeta(ex.json);
  const field = walkField(read);
  const first = field === undefined ? undefined : (recordAttr(data[0], field) ?? undefined);
  const last = field === undefined ? undefined : (recordAttr(data.at(-1), field) ?? undefined);
  const limit = m.limit ?? read.limit;
  const uniform =
    field !== undefined && isTimestampField(field) && data.length >= 2 && limit !== undefined && data.length >= limit && first !== undefined && last !== undefined && sameValue(field, first, last);
  return { read, count: data.length, limit, resultsTotal: m.totalMethod === 'exact' ? m.resultsTotal : undefined, first, last, uniform };
}

/**
 * Whether `next` continues the walk whose last page was `prev`: an offset walk moves its offset on
 * (a read at offset 0 starts again); a keyset walk carries the previous page's last value, or the
 * same cursor further on by page[offset] (a run sharing one timestamp).
 */
export function continues(prev: PageSummary, next: ListRead): boolean {
  if (next.cursor === undefined) return prev.read.cursor === undefined && next.offset !== 0;
  const field = next.cursor.field;
  if (prev.last !== undefined && sameValue(field, prev.last, next.cursor.value)) return true;
  const same = prev.read.cursor !== undefined && prev.read.cursor.op === next.cursor.op && sameValue(field, prev.read.cursor.value, next.cursor.value);
  return same && next.offset !== prev.read.offset;
}

/** `accounts by created_at`: how a report names a walk (its kind, offset or keyset, is told beside it). */
export function walkLabel(read: ListRead): string {
  const what =
    read.path
      .split('/')
      .filter((s) => s !== '' && s !== 'v2')
      .join('/') || read.path;
  const field = walkField(read);
  const extra = read.base.length > 0 ? ` where ${read.base.map((c) => `${c.op}(${c.field},${c.values.join(',')})`).join(':')}` : '';
  return `${what}${field === undefined ? '' : ` by ${field}`}${extra}`;
}
