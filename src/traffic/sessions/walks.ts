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

/** How `next` continues a walk whose last page was `prev`, or undefined when it does not. */
export function stepFrom(prev: PageFacts, next: ListRead): Step | undefined {
  const p = prev.read;
  if (next.path !== p.path || next.baseKey !== p.baseKey) return undefined;
  const c = next.cursor;
  if (c === undefined) return p.cursor === undefined && sameQuery(p, next) && next.offset !== 0 ? 'offset' : undefined;
  const carried = prev.last[c.field];
  if (carried !== undefined && prev.count > 0 && sameValue(c.field, carried, c.value)) return 'next';
  const same = p.cursor !== undefined && p.cursor.op === c.op && p.cursor.field === c.field && sameValue(c.field, p.cursor.value, c.value);
  return same && p.sortText === next.sortText && next.offset !== p.offset ? 'further' : undefined;
}

/** The attribute a walk moves on: its cursor's, else its sort's (ascending), else none. */
export const movesOn = (read: ListRead): string | undefined => read.cursor?.field ?? (read.sort?.direction === 'asc' ? read.sort.field : undefined);
