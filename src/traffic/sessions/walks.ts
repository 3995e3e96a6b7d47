/**
 * Walk reconstruction: which list reads of one client belong together. A walk is one query paged on,
 * recognised by what the client carried from one page to the next, never by what it named:
 * - `next`: a keyset step: a gt/ge clause on an attribute carrying the previous page's last value of it
 *   (the previous page may have had no sort and no filter at all: an unsorted walk is still a walk);
 * - `further`: the same gt/ge clause again, further on by page[offset] (a run of ties paged through);
 * - `offset`: the same query without a cursor at another page[offset] (a reader or a UI moving through pages);
 * - `again`: the very read of the walk's last page once more (a retry after a lost answer, a refresh): its page
 *   re-read, no step taken.
 * A read at offset 0 that continues nothing starts a walk. Pure decisions; the judge keeps the state.
 */
import { instantOf, isTimestampField, sameValue } from '../../rules/inspect.js';
import { isUniform, sameQuery, type ListRead, type PageFacts } from './pages.js';

export type WalkKind = 'offset' | 'keyset';
export type Step = 'next' | 'further' | 'offset' | 'again';

/**
 * How `next` continues a walk whose last page was `prev`, or undefined when it does not. Carrying the last
 * value of the previous page is the evidence of a step; how strong it is depends on the attribute:
 * - id is unique: carrying the last id is a step, whatever the pages' sort (an unsorted walk is a walk);
 * - a timestamp is shared by many records: carrying one is a step only from a page that walked on it
 *   (sorted by it ascending, or filtered on it), and only when the value singles out the page's last
 *   record or the read goes on in the same order (sorted by it ascending). Anything weaker is a query of
 *   its own: no verdict may rest on it being a walk. Nor on a read sorted down its cursor's attribute.
 */
export function stepFrom(prev: PageFacts, next: ListRead): Step | undefined {
  const p = prev.read;
  if (next.path !== p.path || next.baseKey !== p.baseKey) return undefined;
  if (sameRead(p, next)) return 'again';
  const c = next.cursor;
  // Paging on keeps the page size asked: a read of another size is another reader's (or a new start).
  if (c === undefined) return p.cursor === undefined && sameQuery(p, next) && next.limit === p.limit && next.offset !== 0 ? 'offset' : undefined;
  // gt/ge sorted down the same attribute goes nowhere as a walk's step: it is a query of its own ("since this one, newest first").
  const down = next.sort?.field === c.field && next.sort.direction === 'desc';
  const carried = prev.last[c.field];
  if (!down && carried !== undefined && prev.count > 0 && (sameValue(c.field, carried, c.value) || skipsRun(prev, c))) {
    if (c.field === 'id') return 'next';
    if (onAttribute(p, c.field) && (prev.lastUnique.has(c.field) || ascendingOn(next, c.field))) return 'next';
  }
  const same = p.cursor !== undefined && p.cursor.op === c.op && p.cursor.field === c.field && sameValue(c.field, p.cursor.value, c.value);
  return same && p.sortText === next.sortText && next.limit === p.limit && next.offset !== p.offset ? 'further' : undefined;
}

/** A millisecond: the precision of the document's timestamps (§2.1, `.sssZ`). */
const MILLISECOND_NS = 1_000_000n;

/**
 * Whether a cursor moves a millisecond past a full page of one timestamp: `ge(attr,<v + 1 ms>)` after a page whose
 * every record is at v is gt(attr,<v>) at the document's precision, the value carried all the same ("move one
 * millisecond past the page that came back again"). Only after a page of one value: elsewhere a value a hair
 * past may be a record's own (a deployment keeping microseconds), and no walk may rest on a guess.
 */
function skipsRun(prev: PageFacts, cursor: NonNullable<ListRead['cursor']>): boolean {
  const v = prev.last[cursor.field];
  if (cursor.op !== 'ge' || v === undefined || !isTimestampField(cursor.field) || !isUniform(prev, cursor.field)) return false;
  const a = instantOf(v);
  const b = instantOf(cursor.value);
  return a !== undefined && b !== undefined && b - a === MILLISECOND_NS;
}

/** The operator a step's cursor works as: ge a millisecond past a page of one value is gt of it. */
export function effectiveOp(prev: PageFacts, cursor: NonNullable<ListRead['cursor']>): 'gt' | 'ge' {
  return skipsRun(prev, cursor) ? 'gt' : cursor.op;
}

/** The same read: sort, page and cursor alike (the path and other clauses are compared by the caller). */
function sameRead(a: ListRead, b: ListRead): boolean {
  if (a.sortText !== b.sortText || a.limit !== b.limit || a.offset !== b.offset) return false;
  if (a.cursor === undefined || b.cursor === undefined) return a.cursor === b.cursor;
  return a.cursor.op === b.cursor.op && a.cursor.field === b.cursor.field && sameValue(a.cursor.field, a.cursor.value, b.cursor.value);
}

/**
 * Records of `page` the walk held already, by position, where positions can be compared: a read again;
 * the same gt/ge filter further on (positions below the previous page's end were read); or a ge step
 * carrying the previous page's last value, whose first records are the run of that value the walk holds
 * (all it read of that filter when the previous page was one run read by that filter or from the start,
 * else the run that ended the previous page). §4.3 read literally re-reads them: waste, never a failure.
 */
export function rereadOf(prev: PageFacts, page: PageFacts, step: Step): number {
  const o = page.read.offset;
  const overlap = (held: number) => Math.max(0, Math.min(held, o + page.count) - o);
  const c = page.read.cursor;
  if (step === 'again') return page.count;
  if (c === undefined || c.op !== 'ge') return 0;
  if (step === 'further') return overlap(prev.read.offset + prev.count);
  if (step !== 'next') return 0;
  return overlap(heldOfRun(prev, c.field) ?? 0);
}

/**
 * How many records at the previous page's last value of `field` a walk holds, counted as positions of
 * ge(field,<that value>): the whole of what that filter (or a first page sorted by the field) read when
 * the page was one run; else the run that ended the page. Undefined when the page is not in the field's order.
 */
export function heldOfRun(prev: PageFacts, field: string): number | undefined {
  const p = prev.read;
  if (!ascendingOn(p, field)) return undefined;
  const v = prev.last[field];
  const sameFilter = p.cursor !== undefined && p.cursor.op === 'ge' && p.cursor.field === field && v !== undefined && sameValue(field, p.cursor.value, v);
  const fromStart = p.cursor === undefined && p.offset === 0;
  // A page of one value read some other way may sit inside a run that began before it: how much of it is held is not known.
  if (isUniform(prev, field)) return sameFilter || fromStart ? p.offset + prev.count : undefined;
  return prev.lastRun[field];
}

const ascendingOn = (read: ListRead, field: string): boolean => read.sort?.field === field && read.sort.direction === 'asc';

/** Whether a read walks on `field`: sorted by it ascending, or carrying a cursor on it. */
const onAttribute = (read: ListRead, field: string): boolean => ascendingOn(read, field) || read.cursor?.field === field;

/** The attribute a walk moves on: its cursor's, else its sort's (ascending), else none. */
export const movesOn = (read: ListRead): string | undefined => read.cursor?.field ?? (read.sort?.direction === 'asc' ? read.sort.field : undefined);
