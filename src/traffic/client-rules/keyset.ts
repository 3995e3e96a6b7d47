/** The large-data pattern of §4.3, as a client follows it: cursor operator, shared timestamps, sort, the id walk's stop. */
import { describe, isTimestampField, sameValue } from '../../rules/inspect.js';
import { isUniform, pinOf, type ListRead } from '../sessions/pages.js';
import { fail, inconclusive, pass, type ClientRule } from './rule.js';

const STEP_3 = 'For each next page, add a filter that the attribute is greater than or equal to (or, for unique id, greater than) the last value of the previous page.';

const sortedBy = (read: ListRead, field: string): boolean => read.sort?.direction === 'asc' && read.sort.field === field;

export const timestampGe: ClientRule = {
  id: 'client.keyset.timestamp-ge',
  family: 'client',
  section: '§4.3',
  level: 'documented',
  quote: STEP_3,
  statement: 'a walk on a timestamp continues with ge(attr,<last value>), not gt (gt is fine once the records of that value were read to their end).',
  evidence:
    'a request whose gt(attr,v) on created_at or updated_at carries the last value v of the walk’s previous page, while the records sharing v were not read to their end (by eq(attr,v), or by ge(attr,v) further on by page[offset]).',
  onNext: ({ ex, step, page, runs }) => {
    const c = page.read.cursor;
    if (step !== 'next' || c === undefined || !isTimestampField(c.field)) return undefined;
    if (c.op === 'ge' || runs.drained(page.read.path, c.field, c.value)) return pass;
    return fail(`${describe(ex)}: continues a ${c.field} walk with gt: records sharing ${c.value} beyond the previous page are skipped`, `ge(${c.field},${c.value})`, `gt(${c.field},${c.value})`);
  },
};

export const sharedTimestamp: ClientRule = {
  id: 'client.keyset.shared-timestamp',
  family: 'client',
  section: '§4.3',
  level: 'documented',
  quote: 'With timestamps, a page may need further paging if many records share the same timestamp. This is the case when the first and last timestamps of a page are identical.',
  statement:
    'after a full page whose first and last timestamps are equal, the walk’s next request can return the rest of that run: not gt past it, not the same page again, not a page[offset] past what was read.',
  evidence:
    'a full page whose first and last values of the walk’s timestamp are equal, followed in the same walk by gt on that value, by the same read again (or one that ends within it), or by the same filter at a page[offset] past the page’s end. Stopping there is the client’s choice, not evidence.',
  onNext: ({ ex, step, prev, page, runs }) => {
    const c = page.read.cursor;
    if ((step !== 'next' && step !== 'further') || c === undefined || !isTimestampField(c.field)) return undefined;
    const v = prev.last[c.field];
    if (v === undefined || !isUniform(prev, c.field) || runs.drained(page.read.path, c.field, v)) return undefined;
    const cannot = (what: string, expected: string) => fail(`${describe(ex)}: after a full page whose ${c.field} is ${v} throughout, ${what}`, expected, describeCursor(page.read));
    if (c.op === 'gt') return cannot(`gt(${c.field},${c.value}) passes over the rest of that run`, `ge(${c.field},${v}) further on by page[offset], or eq(${c.field},${v}) paged to its end`);
    // Positions comparable with the previous page's: the same ge filter, or a first page sorted by the attribute
    // (whose first value is the smallest, so ge on it orders the same records the same way).
    const p = prev.read.cursor;
    const sameFilter = p !== undefined && p.op === 'ge' && p.field === c.field && sameValue(c.field, p.value, c.value);
    const fromStart = p === undefined && prev.read.offset === 0 && sortedBy(prev.read, c.field);
    if (!sameFilter && !fromStart) return pass;
    // This page must start within or right after what was read, and reach past it.
    const end = prev.read.offset + prev.count;
    const size = page.size ?? prev.size ?? 0;
    if (page.read.offset > end) return cannot(`page[offset]=${page.read.offset} skips records ${end + 1} to ${page.read.offset} of that filter`, `page[offset]=${end}`);
    if (page.read.offset + size <= end) return cannot('this request reads no further than the previous page did', `page[offset]=${end}`);
    return pass;
  },
};

export const sortMatchesFilter: ClientRule = {
  id: 'client.keyset.sort-matches-filter',
  family: 'client',
  section: '§4.3',
  level: 'documented',
  quote: `Request the first page with sort=<attribute>. ${STEP_3}`,
  statement: 'a walk that filters gt/ge on the last value of an attribute sorts by that attribute (ascending), the page the value came from included: otherwise the filter skips records.',
  evidence:
    'a request whose gt/ge clause carries the last value of an attribute on the walk’s previous page, where that request or that previous page is not sorted by the attribute, ascending (no sort at all included). A read pinned to one value of the attribute it sorts by (eq), whose order is that of its ties, is not such a walk.',
  onNext: ({ ex, prevEx, step, prev, page }) => {
    const c = page.read.cursor;
    // Within one value of the attribute it sorts by (eq(attr,v) sorted by attr), a read is in the order of
    // its ties, which a client may have checked: a run of ties drained by id, not the walk of §4.3.
    const pinnedToSort = (read: ListRead) => pinOf(read) !== undefined && pinOf(read)?.field === read.sort?.field;
    if (step !== 'next' || c === undefined || pinnedToSort(page.read)) return undefined;
    const shown = (read: ListRead) => (read.sortText === '' ? 'no sort' : `sort=${read.sortText}`);
    if (!sortedBy(page.read, c.field)) return fail(`${describe(ex)}: walks on ${c.field} without sort=${c.field}`, `sort=${c.field}`, shown(page.read));
    if (!sortedBy(prev.read, c.field)) {
      return fail(`${describe(ex)}: carries the last ${c.field} of ${describe(prevEx)}, a page not sorted by ${c.field}`, `sort=${c.field} on the page the value came from`, shown(prev.read));
    }
    return pass;
  },
};

export const idStop: ClientRule = {
  id: 'client.keyset.id-stop',
  family: 'client',
  section: '§4.3',
  level: 'documented',
  quote: 'For id-sorted reads, stop when a page returns zero records.',
  statement: 'an id walk (gt(id,<last>)) ends after a page of zero records, not after a short one.',
  evidence:
    'an id walk (a read carried the last id of the page before it) whose last page held some records but fewer than its page size, followed by another request of the same client (a full last page is a choice to stop; when the traffic ends there, whether the client read on is not in it: inconclusive).',
  onEnd: ({ ex, last, stepped, field, stopShown }) => {
    // A walk: it stepped (a read carried the last id of the page before); one filtered read is a query.
    if (!stepped || field !== 'id' || last.read.cursor?.field !== 'id' || pinOf(last.read) !== undefined) return undefined;
    if (last.count === 0) return pass;
    if (!last.short) return undefined;
    if (!stopShown)
      return inconclusive(
        `${describe(ex)}: the id walk's last page held ${last.count} records, fewer than its page size, and the traffic ends there: whether the client read on to an empty page is not in it`,
      );
    return fail(`${describe(ex)}: the id walk stopped after a page of ${last.count} records, not after an empty one`, 'a page of zero records', `${last.count} records`);
  },
};

function describeCursor(read: ListRead): string {
  const c = read.cursor;
  return c === undefined ? 'no gt/ge filter' : `${c.op}(${c.field},${c.value}) at page[offset]=${read.offset}`;
}
