/** The large-data pattern of §4.3, as a client follows it: cursor operator, shared timestamps, sort, the id walk's stop. */
import { describe, isTimestampField, sameValue } from '../../rules/inspect.js';
import { isUniform, pinOf, type ListRead } from '../sessions/pages.js';
import { effectiveOp, heldOfRun } from '../sessions/walks.js';
import { fail, inconclusive, pass, type ClientRule, answering } from './rule.js';

const STEP_3 = 'For each next page, add a filter that the attribute is greater than or equal to (or, for unique id, greater than) the last value of the previous page.';

const sortedBy = (read: ListRead, field: string): boolean => read.sort?.direction === 'asc' && read.sort.field === field;

export const timestampGe: ClientRule = answering(
  {
    id: 'client.keyset.timestamp-ge',
    family: 'client',
    section: '§4.3',
    level: 'documented',
    quote: STEP_3,
    statement:
      'a walk on a timestamp continues with ge(attr,<last value>), not gt (gt is fine once the records of that value were read to their end), nor, after a page of one value, ge a millisecond past it (gt at the document’s precision).',
    evidence:
      'a request whose gt(attr,v) on created_at or updated_at carries the last value v of the walk’s previous page, or whose ge(attr,x) carries x exactly a millisecond past v after a full page of v alone, while the records sharing v were not read to their end (by eq(attr,v), or by ge(attr,v) further on by page[offset]).',
  },
  {
    next: ({ ex, step, prev, page, runs }) => {
      const c = page.read.cursor;
      if (step !== 'next' || c === undefined || !isTimestampField(c.field)) return undefined;
      // ge a millisecond past a page of one value is gt of it: the records sharing that value are skipped all the same.
      const v = prev.last[c.field] ?? c.value;
      if (effectiveOp(prev, c) === 'ge' || runs.drained(page.read.path, c.field, v)) return pass;
      const sent = `${c.op}(${c.field},${c.value})`;
      return fail(
        `${describe(ex)}: continues a ${c.field} walk with ${c.op === 'gt' ? 'gt' : `${sent}, gt of ${v} at millisecond precision`}: records sharing ${v} beyond the previous page are skipped`,
        `ge(${c.field},${v})`,
        sent,
      );
    },
  },
);

export const sharedTimestamp: ClientRule = answering(
  {
    id: 'client.keyset.shared-timestamp',
    family: 'client',
    section: '§4.3',
    level: 'documented',
    quote: 'With timestamps, a page may need further paging if many records share the same timestamp. This is the case when the first and last timestamps of a page are identical.',
    statement:
      'a timestamp walk reads the whole run of a value before it moves past it: after a full page of one value, the next request reads on into that run (the same filter further on by page[offset], ge(<value>) again and then further on, or ge(<value>) at page[offset] = the records of it already held); a re-read is waste, never a failure.',
    evidence:
      'a walk that moves past a run it had not read to its end: after a full page whose first and last values of the walk’s timestamp are equal, gt on that value (or ge a millisecond past it), or a page[offset] of that filter past the records read; after a page ending in a run of a value, ge(<value>) at a page[offset] past the records of that run held. Stopping is the client’s choice, not evidence, even after a re-read (client.keyset.run-abandoned warns of that).',
  },
  {
    next: ({ ex, step, prev, page, runs }) => {
      const c = page.read.cursor;
      if ((step !== 'next' && step !== 'further') || c === undefined || !isTimestampField(c.field)) return undefined;
      const v = prev.last[c.field];
      if (v === undefined || runs.drained(page.read.path, c.field, v)) return undefined;
      const uniform = isUniform(prev, c.field);
      const cannot = (what: string, expected: string) => fail(`${describe(ex)}: ${what}`, expected, describeCursor(page.read));
      if (uniform && effectiveOp(prev, c) === 'gt') {
        return cannot(
          `after a full page whose ${c.field} is ${v} throughout, ${c.op}(${c.field},${c.value}) passes over the rest of that run`,
          `ge(${c.field},${v}) further on by page[offset], or eq(${c.field},${v}) paged to its end`,
        );
      }
      if (c.op !== 'ge' || !sameValue(c.field, c.value, v)) return uniform ? pass : undefined;
      // Positions of ge(<value>) that the walk holds: past them, records of the run are skipped; within them, re-read (waste).
      // Further on by page[offset] is judged after a page of one value only: elsewhere a jump is a reader's choice (a UI's page 5).
      const held = step === 'further' ? (uniform ? prev.read.offset + prev.count : undefined) : heldOfRun(prev, c.field);
      if (held === undefined) return uniform ? pass : undefined;
      if (page.read.offset > held) {
        const why = uniform ? `after a full page whose ${c.field} is ${v} throughout` : `holding ${held} record${held === 1 ? '' : 's'} at ${c.field} ${v}`;
        return cannot(`${why}, page[offset]=${page.read.offset} skips records ${held + 1} to ${page.read.offset} of ge(${c.field},${v})`, `page[offset]=${held} at most`);
      }
      return pass;
    },
  },
);

export const runAbandoned: ClientRule = answering(
  {
    id: 'client.keyset.run-abandoned',
    family: 'client',
    section: '§4.3 (a warning)',
    level: 'assumed',
    statement: 'a walk that re-reads a full page of one timestamp and gets nothing new reads on into that run (by page[offset]) rather than ending there.',
    evidence:
      'a walk that stepped, re-read a full page whose first and last values of its timestamp are equal, got no record it had not read, and ended there while the client went on to other requests: it looks like a loop that took "no progress" for the end of the data. A client may stop wherever it likes (a page cap, a sample), so it is assumed; when the traffic ends there, nothing is said.',
  },
  {
    end: ({ ex, last, stepped, field, stopShown, addedNothing, runs }) => {
      // A walk that re-read a page of one value, got nothing new, and ended: it may have given up on the run, or stopped by choice.
      if (!stepped || field === undefined || !isTimestampField(field) || !addedNothing || !isUniform(last, field) || !stopShown) return undefined;
      const v = last.last[field];
      if (v === undefined || runs.drained(last.read.path, field, v)) return undefined;
      return fail(
        `${describe(ex)}: the walk re-read a full page whose ${field} is ${v} throughout, read nothing new, and ended without the rest of that run`,
        `ge(${field},${v}) further on by page[offset]`,
        'the walk ended',
      );
    },
  },
);

export const sortMatchesFilter: ClientRule = answering(
  {
    id: 'client.keyset.sort-matches-filter',
    family: 'client',
    section: '§4.3',
    level: 'documented',
    quote: `Request the first page with sort=<attribute>. ${STEP_3}`,
    statement: 'a walk that filters gt/ge on the last value of an attribute sorts by that attribute (ascending), the page the value came from included: otherwise the filter skips records.',
    evidence:
      'a request whose gt/ge clause carries the last value of an attribute on the walk’s previous page, where that request or that previous page is not sorted by the attribute, ascending (no sort at all included). A read pinned to one value of the attribute it sorts by (eq), whose order is that of its ties, is not such a walk.',
  },
  {
    next: ({ ex, prevEx, step, prev, page }) => {
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
  },
);

export const idStop: ClientRule = answering(
  {
    id: 'client.keyset.id-stop',
    family: 'client',
    section: '§4.3',
    level: 'documented',
    quote: 'For id-sorted reads, stop when a page returns zero records.',
    statement: 'an id walk (gt(id,<last>)) ends after a page of zero records, not after a short one.',
    evidence:
      'an id walk (a read carried the last id of the page before it) whose last page held some records but fewer than its page size, followed by another request of the same client (a full last page is a choice to stop; when the traffic ends there, whether the client read on is not in it: inconclusive).',
  },
  {
    end: ({ ex, last, stepped, field, stopShown }) => {
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
  },
);

function describeCursor(read: ListRead): string {
  const c = read.cursor;
  return c === undefined ? 'no gt/ge filter' : `${c.op}(${c.field},${c.value}) at page[offset]=${read.offset}`;
}
