/**
 * The client's conduct, judged as its walks unfold (src/rules/client-rules.ts holds the rules). Each
 * function is a pure decision on what the judge remembers: the walk's last page, the page now asked
 * for, and the few facts of the session it needs (timestamp runs already read to their end). No
 * per-record state.
 */
import type { Exchange } from '../../port.js';
import { describe, isHardOffsetPath, isGet, isPaginatedPath, isTimestampField, OFFSET_LIMIT, MAX_PAGE_LENGTH, pathOf, requestedOffset, sameValue, instantOf } from '../../rules/inspect.js';
import type { ClientRuleId } from './catalogue.js';
import type { ListRead, PageSummary } from '../sessions/walks.js';

export type ConductOutcome = { readonly status: 'pass' } | { readonly status: 'fail'; readonly message: string; readonly expected: unknown; readonly actual: unknown };

export interface ConductJudgement {
  readonly ruleId: ClientRuleId;
  readonly outcome: ConductOutcome;
}

const ok = (ruleId: ClientRuleId): ConductJudgement => ({ ruleId, outcome: { status: 'pass' } });
const bad = (ruleId: ClientRuleId, message: string, expected: unknown, actual: unknown): ConductJudgement => ({ ruleId, outcome: { status: 'fail', message, expected, actual } });

/** What a session knows of timestamp runs: `field value` pairs read to their end with eq(field,value). */
export interface RunsRead {
  has(field: string, value: string): boolean;
}

/** A read pinned to one value of a timestamp (eq), e.g. a client draining a run of ties. */
export const pinOf = (read: ListRead): { field: string; value: string } | undefined => {
  const c = read.base.find((b) => b.op === 'eq' && isTimestampField(b.field) && b.values[0] !== undefined);
  return c === undefined ? undefined : { field: c.field, value: c.values[0] ?? '' };
};

/** Whether a page read with an eq pin reached the end of its run (a short page, or all of results.total). */
export const drainsRun = (page: PageSummary): boolean =>
  (page.limit !== undefined && page.count < page.limit) || (page.read.offset === 0 && page.resultsTotal !== undefined && page.resultsTotal <= page.count);

/** Judgements due when `next` continues a walk whose last page was `prev`. */
export function onNextPage(prev: PageSummary, next: ListRead, ex: Exchange, runs: RunsRead): ConductJudgement[] {
  const out: ConductJudgement[] = [];
  const cursor = next.cursor;
  if (cursor !== undefined && isTimestampField(cursor.field)) {
    if (cursor.op === 'gt' && !runs.has(cursor.field, cursor.value)) {
      out.push(
        bad(
          'client.keyset.timestamp-ge',
          `${describe(ex)}: continues a ${cursor.field} walk with gt: records sharing ${cursor.value} beyond the previous page are skipped`,
          `ge(${cursor.field},${cursor.value})`,
          `gt(${cursor.field},${cursor.value})`,
        ),
      );
    } else out.push(ok('client.keyset.timestamp-ge'));
  }
  if (cursor !== undefined && pinOf(next)?.field !== next.sort?.field) {
    const sorted = next.sort?.direction === 'asc' && next.sort.field === cursor.field;
    out.push(
      sorted
        ? ok('client.keyset.sort-matches-filter')
        : bad(
            'client.keyset.sort-matches-filter',
            `${describe(ex)}: walks on ${cursor.field} without sort=${cursor.field}`,
            `sort=${cursor.field}`,
            next.sort === undefined ? 'no sort' : `sort=${next.sort.direction === 'desc' ? '-' : ''}${next.sort.field}`,
          ),
    );
  }
  if (prev.uniform && prev.last !== undefined) out.push(judgeRunFollowUp(prev, next, ex, runs));
  if (prev.read.limit !== undefined && prev.read.limit > MAX_PAGE_LENGTH) out.push(ok('client.limit.clamped'));
  return out;
}

/** After a full page of one timestamp `v`: the next request must be able to return the rest of that run. */
function judgeRunFollowUp(prev: PageSummary, next: ListRead, ex: Exchange, runs: RunsRead): ConductJudgement {
  const field = prev.read.cursor?.field ?? prev.read.sort?.field ?? '';
  const v = prev.last ?? '';
  if (runs.has(field, v)) return ok('client.keyset.shared-timestamp');
  const c = next.cursor;
  const sameGe = c !== undefined && c.op === 'ge' && c.field === field && sameValue(field, c.value, v);
  // Where the page began in the ge(v) ordering: its own offset when it was read with ge(v), else 0.
  const base = prev.read.cursor !== undefined && sameValue(field, prev.read.cursor.value, v) ? prev.read.offset : 0;
  const end = base + prev.count;
  const size = next.limit ?? prev.limit ?? 0;
  // No gap (offset within what was read) and past what was read, and not the very same request again.
  const again = next.offset === base && next.limit === prev.read.limit;
  if (sameGe && next.offset <= end && next.offset + size > end && !again) return ok('client.keyset.shared-timestamp');
  const asked = c === undefined ? 'no filter' : `${c.op}(${c.field},${c.value}) at offset ${next.offset}`;
  return bad(
    'client.keyset.shared-timestamp',
    `${describe(ex)}: after a full page whose ${field} is ${v} throughout, this request cannot return the rest of that run`,
    `ge(${field},${v}) further on by page[offset], or eq(${field},${v}) paged to its end`,
    asked,
  );
}

/** Judgements due when a walk ends (nothing continued it) with `last` as its last page. */
export function onWalkEnd(first: PageSummary, last: PageSummary, pages: number, ex: Exchange, runs: RunsRead, dateHeader: string | undefined): ConductJudgement[] {
  const out: ConductJudgement[] = [];
  const read = last.read;
  const cursor = read.cursor ?? first.read.cursor;
  if (pages >= 2 && cursor?.field === 'id' && read.sort?.field === 'id' && pinOf(read) === undefined) {
    out.push(
      last.count === 0
        ? ok('client.keyset.id-stop')
        : bad('client.keyset.id-stop', `${describe(ex)}: the id walk stopped after a page of ${last.count} records`, 'a page of zero records', `${last.count} records`),
    );
  }
  // A single page read without a cursor is a peek (the newest records, a screen), not a walk that stopped.
  if (last.uniform && last.last !== undefined && (pages >= 2 || read.cursor !== undefined)) {
    const field = read.cursor?.field ?? read.sort?.field ?? '';
    if (!runs.has(field, last.last))
      out.push(
        bad('client.keyset.shared-timestamp', `${describe(ex)}: the walk stopped at a full page whose ${field} is ${last.last} throughout`, 'further paging of that timestamp', 'no further request'),
      );
  }
  if (read.limit !== undefined && read.limit > MAX_PAGE_LENGTH && last.resultsTotal !== undefined) {
    const seen = read.cursor === undefined ? read.offset + last.count : last.count;
    if (last.count > 0 && last.resultsTotal > seen)
      out.push(bad('client.limit.clamped', `${describe(ex)}: asked page[limit]=${read.limit}, got ${last.count} of ${last.resultsTotal} and read no further`, 'the next page', 'no further request'));
    else out.push(ok('client.limit.clamped'));
  }
  const field = cursor?.field ?? (read.sort?.direction === 'asc' ? read.sort.field : undefined);
  const reachedEnd = last.limit !== undefined && last.count < last.limit;
  if (pages >= 2 && field !== undefined && isTimestampField(field) && reachedEnd && pinOf(read) === undefined) out.push(judgeBuffer(read, field, ex, dateHeader));
  return out;
}

/** A timestamp walk read to its end: an upper bound on its attribute below the answer's Date. */
function judgeBuffer(read: ListRead, field: string, ex: Exchange, dateHeader: string | undefined): ConductJudgement {
  const bound = read.base.find((c) => (c.op === 'le' || c.op === 'lt') && c.field === field)?.values[0];
  const date = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
  if (bound === undefined) return bad('client.sync.buffer', `${describe(ex)}: the ${field} walk read up to the present with no upper bound`, `le(${field},<now − buffer>)`, 'no upper bound');
  const at = instantOf(bound);
  if (Number.isNaN(date) || at === undefined) return ok('client.sync.buffer');
  return at < BigInt(date) * 1_000_000n
    ? ok('client.sync.buffer')
    : bad('client.sync.buffer', `${describe(ex)}: the ${field} walk's upper bound ${bound} is not before the answer's Date ${dateHeader ?? ''}`, `an upper bound before ${dateHeader ?? ''}`, bound);
}

/** Offset limits of §8, judged on each read that asks an offset. */
export function onOffset(ex: Exchange): ConductJudgement | undefined {
  if (!isGet(ex)) return undefined;
  const path = pathOf(ex.request.url);
  const offset = requestedOffset(ex.request.url);
  if (offset === undefined || offset === 0 || !isPaginatedPath(path)) return undefined;
  if (isHardOffsetPath(path))
    return offset > OFFSET_LIMIT
      ? bad('client.offset.hard-limit', `${describe(ex)}: offset ${offset} on ${path}`, `at most ${OFFSET_LIMIT}; sort and filter beyond`, offset)
      : ok('client.offset.hard-limit');
  return offset > OFFSET_LIMIT
    ? bad('client.offset.soft-limit', `${describe(ex)}: offset ${offset} past the soft limit`, `at most ${OFFSET_LIMIT}, or the sort-and-filter pattern of §4.3`, offset)
    : ok('client.offset.soft-limit');
}

/** An offset walk whose list moved between two of its pages. */
export function onOffsetPage(prev: PageSummary, next: PageSummary, wroteBetween: boolean, ex: Exchange): ConductJudgement {
  if (wroteBetween)
    return bad('client.offset.changing-data', `${describe(ex)}: the client wrote to this list between two pages of an offset walk`, 'an unchanging list, or a keyset walk', 'a write between pages');
  if (prev.resultsTotal !== undefined && next.resultsTotal !== undefined && prev.resultsTotal !== next.resultsTotal) {
    return bad(
      'client.offset.changing-data',
      `${describe(ex)}: results.total moved from ${prev.resultsTotal} to ${next.resultsTotal} during an offset walk`,
      'an unchanging list, or a keyset walk',
      `${prev.resultsTotal} → ${next.resultsTotal}`,
    );
  }
  return ok('client.offset.changing-data');
}

/** Seconds (or an HTTP date) of a Retry-After header, as milliseconds after `at`. */
export function retryUntil(value: string | undefined, at: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return at + Number(v) * 1000;
  const d = Date.parse(v);
  return Number.isNaN(d) ? undefined : d;
}

export function onRetry(until: number, sentAt: number, ex: Exchange): ConductJudgement {
  return sentAt >= until
    ? ok('client.retry.retry-after')
    : bad(
        'client.retry.retry-after',
        `${describe(ex)}: sent again ${Math.max(0, Math.round((until - sentAt) / 10) / 100)} s before Retry-After allowed`,
        `not before ${new Date(until).toISOString()}`,
        new Date(sentAt).toISOString(),
      );
}
