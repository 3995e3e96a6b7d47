/**
 * Walk reconstruction: which list reads of one client belong together. A walk is one query paged on,
 * recognised by what the client carried from one page to the next, never by what it named:
 * - `next`: a keyset step: a gt/ge clause on an attribute carrying the previous page's last value of it
 *   (the previous page may have had no sort and no filter at all: an unsorted walk is still a walk);
 * - `further`: the same gt/ge clause again, further on by page[offset] (a run of ties paged through);
 * - `offset`: the same query without a cursor at another page[offset] (a reader or a UI moving through pages).
 * A read at offset 0 that continues nothing starts a walk. Pure decisions; the judge keeps the state.
 */
import { sameValue } from '../../rules/inspect.js';
import { sameQuery, type ListRead, type PageFacts } from './pages.js';

export type WalkKind = 'offset' | 'keyset';
export type Step = 'next' | 'further' | 'offset';

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
  const c = next.cursor;
  // Paging on keeps the page size asked: a read of another size is another reader's (or a new start).
  if (c === undefined) return p.cursor === undefined && sameQuery(p, next) && next.limit === p.limit && next.offset !== 0 ? 'offset' : undefined;
  // gt/ge sorted down the same attribute goes nowhere as a walk's step: it is a query of its own ("since this one, newest first").
  const down = next.sort?.field === c.field && next.sort.direction === 'desc';
  const carried = prev.last[c.field];
  if (!down && carried !== undefined && prev.count > 0 && sameValue(c.field, carried, c.value)) {
    if (c.field === 'id') return 'next';
    if (onAttribute(p, c.field) && (prev.lastUnique.has(c.field) || ascendingOn(next, c.field))) return 'next';
  }
  const same = p.cursor !== undefined && p.cursor.op === c.op && p.cursor.field === c.field && sameValue(c.field, p.cursor.value, c.value);
  return same && p.sortText === next.sortText && next.limit === p.limit && next.offset !== p.offset ? 'further' : undefined;
}

const ascendingOn = (read: ListRead, field: string): boolean => read.sort?.field === field && read.sort.direction === 'asc';

/** Whether a read walks on `field`: sorted by it ascending, or carrying a cursor on it. */
const onAttribute = (read: ListRead, field: string): boolean => ascendingOn(read, field) || read.cursor?.field === field;

/** The attribute a walk moves on: its cursor's, else its sort's (ascending), else none. */
export const movesOn = (read: ListRead): string | undefined => read.cursor?.field ?? (read.sort?.direction === 'asc' ? read.sort.field : undefined);
