/**
 * The §4.3 pattern (commerce-api.md) as an async iterator over any list endpoint of any Target:
 * - `id`: sort=id, filter=gt(id,<last>), stop at the first empty page.
 * - `created_at` / `updated_at`: sort=<attr>, filter=ge(<attr>,<last>), dropping the records already
 *   delivered at that boundary timestamp. A full page whose first and last timestamps are equal may
 *   hide more records sharing that timestamp: they are paged further — by default with
 *   `eq(<attr>,<t>)` and a keyset on id (`gt(id,<last>)`), which no insert, update or delete can shift
 *   (ties come ordered by id, API-NOTES "Accounts"; a target that does not is checked for and read
 *   with sort=id instead); or with page[offset] on the same ge filter (`ties: 'offset'`, the
 *   document's literal reading, which a change before the offset shifts).
 * - An upper bound fixed when the traversal starts, so records updated or inserted meanwhile (they
 *   take "now") do not chase it: the newest timestamp at the start (`highWater`), and `bufferMs` below
 *   the target's now for the eventual-consistency window, under which every record is visible.
 * Requests go through a budget and retry 429/5xx honouring Retry-After (./retry.ts).
 */
import { MAX_PAGE_LENGTH } from '../limits.js';
import { encodeValue } from '../engine/query.js';
import type { Target } from '../port.js';
import { ascendingIds, filterValue, isListRecord, parseList, stampOf, stampOfRecord, timestampOf, type ListRecord, type Stamp, type TimestampAttribute } from './records.js';
import { ClientError, createRequester, type Requester, type RequestStats, type RetryOptions } from './retry.js';

export type KeysetAttribute = 'id' | TimestampAttribute;
export type { ListRecord, TimestampAttribute };
export { filterValue, isListRecord, timestampOf };

/** Where a timestamp traversal stands: the last timestamp delivered and the ids delivered at it. */
export interface TimestampPosition {
  readonly value: string;
  readonly ids: readonly string[];
}

export type Position = { readonly attribute: 'id'; readonly after: string | undefined } | { readonly attribute: TimestampAttribute; readonly from: TimestampPosition | undefined };

export interface PageEvent {
  readonly url: string;
  /** Records in the answer, duplicates included. */
  readonly received: number;
  /** meta.results.total of the answer, when it has one. */
  readonly total: number | undefined;
}

export interface IterateOptions extends RetryOptions {
  readonly attribute: KeysetAttribute;
  /** page[limit], 1..100 (default 100). */
  readonly pageSize?: number;
  /**
   * Only records at least this old (by the attribute; by created_at for `id`) against the target's
   * clock (`now`), because newer ones may not all be visible yet (eventual consistency).
   */
  readonly bufferMs?: number;
  /** More query parameters; a `filter` is joined to the client's own with `:` (AND). */
  readonly query?: Readonly<Record<string, string>>;
  /** How a run of records sharing one timestamp is paged further (default `keyset`). */
  readonly ties?: 'keyset' | 'offset';
  /** Timestamps: first read the newest value and stop there (default true). */
  readonly highWater?: boolean;
  /** `id`: resume after this id. */
  readonly after?: string;
  /** Timestamps: resume from this position. */
  readonly from?: TimestampPosition;
  /** Share one budget and retry state between traversals (sync, export). */
  readonly requester?: Requester;
  readonly onPage?: (event: PageEvent) => void;
}

export interface IterationStats extends RequestStats {
  /** List answers read. */
  pages: number;
  /** Records delivered. */
  records: number;
  /** Records dropped as already delivered (boundary duplicates, re-read pages). */
  skipped: number;
}

export interface KeysetReader extends AsyncIterable<ListRecord> {
  readonly stats: Readonly<IterationStats>;
  /** Where a later traversal resumes (the iterator's state after the records delivered so far). */
  position(): Position;
}

export const MAX_PAGE_SIZE = MAX_PAGE_LENGTH;
const RESERVED = ['sort', 'page[limit]', 'page[offset]'];

export function iterate(target: Target, path: string, options: IterateOptions): KeysetReader {
  const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw new RangeError(`pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  for (const name of RESERVED) if (options.query !== undefined && Object.hasOwn(options.query, name)) throw new RangeError(`query may not set ${name}: the iterator does`);
  const requester = options.requester ?? createRequester(target, options);
  const counts = { pages: 0, records: 0, skipped: 0 };
  const stats: IterationStats = {
    get pages() {
      return counts.pages;
    },
    get records() {
      return counts.records;
    },
    get skipped() {
      return counts.skipped;
    },
    get requests() {
      return requester.stats.requests;
    },
    get retries() {
      return requester.stats.retries;
    },
    get throttled() {
      return requester.stats.throttled;
    },
    get waitedMs() {
      return requester.stats.waitedMs;
    },
  };
  const reader: Reader = { target, path, options, pageSize, requester, counts };
  if (options.attribute === 'id') {
    const state: IdState = { after: options.after };
    return { stats, position: () => ({ attribute: 'id', after: state.after }), [Symbol.asyncIterator]: () => byId(reader, state) };
  }
  const attribute = options.attribute;
  const state: StampState = { at: undefined, seen: new Set(options.from?.ids ?? []) };
  if (options.from !== undefined) state.at = stampOf(options.from.value);
  return {
    stats,
    position: () => ({ attribute, from: state.at === undefined ? undefined : { value: state.at.text, ids: [...state.seen] } }),
    [Symbol.asyncIterator]: () => byTimestamp(reader, attribute, state),
  };
}

interface Reader {
  readonly target: Target;
  readonly path: string;
  readonly options: IterateOptions;
  readonly pageSize: number;
  readonly requester: Requester;
  readonly counts: { pages: number; records: number; skipped: number };
}

interface IdState {
  after: string | undefined;
}

interface StampState {
  at: Stamp | undefined;
  /** Ids delivered at `at`. */
  seen: Set<string>;
}

async function* byId(r: Reader, state: IdState): AsyncGenerator<ListRecord> {
  const ceiling = r.options.bufferMs === undefined ? undefined : `le(created_at,${iso(now(r) - r.options.bufferMs)})`;
  let previous = new Set<string>(state.after === undefined ? [] : [state.after]);
  for (;;) {
    const own = state.after === undefined ? undefined : `gt(id,${filterValue(state.after)})`;
    const { url, page } = await readPage(r, { sort: 'id', filters: [own, ceiling] });
    // §4.3: for id-sorted reads, stop when a page returns zero records.
    if (page.length === 0) return;
    let fresh = 0;
    for (const record of page) {
      // A target whose gt behaves as ge answers the previous last id again: never deliver it twice.
      if (previous.has(record.id)) {
        r.counts.skipped += 1;
        continue;
      }
      fresh += 1;
      r.counts.records += 1;
      state.after = record.id;
      yield record;
    }
    if (fresh === 0) {
      // Only the boundary record again (gt answered like ge): the end. Anything else: the filter is ignored.
      if (page.length === 1 && page[0]?.id === state.after) return;
      throw noProgress(url);
    }
    previous = new Set(page.map((x) => x.id));
    state.after = page[page.length - 1]?.id ?? state.after;
  }
}

async function* byTimestamp(r: Reader, attribute: TimestampAttribute, state: StampState): AsyncGenerator<ListRecord> {
  const { options, pageSize } = r;
  let ceiling: Stamp | undefined;
  if (options.highWater ?? true) {
    const { page } = await readPage(r, { sort: `-${attribute}`, filters: [], limit: 1 });
    const newest = page[0];
    if (newest === undefined) return;
    ceiling = stampOfRecord(newest, attribute);
  }
  if (options.bufferMs !== undefined) {
    const buffered = now(r) - options.bufferMs;
    if (ceiling === undefined || buffered < ceiling.ms) ceiling = stampOf(iso(buffered));
  }
  const upper = ceiling === undefined ? undefined : `le(${attribute},${filterValue(ceiling.text)})`;
  const offsetTies = options.ties === 'offset';
  /** Keyset ties: draining the run at `state.at` by id; `drained`: that run is complete. */
  let tie: { after: string | undefined } | undefined;
  /** Sorting the run by the attribute keeps it on the target's index; ties ordered by id make it a keyset on id. */
  let tieSort: string = attribute;
  let drained = false;
  let offset = 0;
  let lastUrl = '';
  for (;;) {
    const at = state.at;
    if (tie !== undefined && at !== undefined) {
      const own = [`eq(${attribute},${filterValue(at.text)})`, tie.after === undefined ? undefined : `gt(id,${filterValue(tie.after)})`];
      const { url, page, total } = await readPage(r, { sort: tieSort, filters: own });
      if (tieSort !== 'id' && !ascendingIds(page, tie.after)) {
        // This target does not order ties by id: sort the run by id itself (slower on large runs) and start it again.
        tieSort = 'id';
        tie.after = undefined;
        continue;
      }
      for (const record of page) {
        if (stampOfRecord(record, attribute).ns !== at.ns || state.seen.has(record.id)) {
          r.counts.skipped += 1;
          continue;
        }
        state.seen.add(record.id);
        r.counts.records += 1;
        yield record;
      }
      const last = page[page.length - 1];
      // The first tie page's results.total counts the whole run: when it fits, there is nothing further.
      const whole = tie.after === undefined && total !== undefined && total <= page.length;
      if (page.length < pageSize || last === undefined || whole) {
        tie = undefined;
        drained = true;
      } else {
        if (last.id === tie.after) throw noProgress(url);
        tie.after = last.id;
      }
      continue;
    }
    const own = at === undefined ? undefined : `${drained ? 'gt' : 'ge'}(${attribute},${filterValue(at.text)})`;
    const { url, page, total } = await readPage(r, { sort: attribute, filters: [own, upper], offset });
    if (page.length === 0) return;
    let fresh = 0;
    for (const record of page) {
      const stamp = stampOfRecord(record, attribute);
      const current = state.at;
      if (current !== undefined && (stamp.ns < current.ns || (stamp.ns === current.ns && (drained || state.seen.has(record.id))))) {
        r.counts.skipped += 1;
        continue;
      }
      if (current === undefined || stamp.ns !== current.ns) {
        state.at = stamp;
        state.seen = new Set();
        drained = false;
      }
      state.seen.add(record.id);
      fresh += 1;
      r.counts.records += 1;
      yield record;
    }
    if (fresh === 0 && url === lastUrl) throw noProgress(url);
    lastUrl = url;
    // Under the fixed upper bound a short page is the end: nothing newer can join the range. So is a
    // page holding all results.total records of the range.
    if (page.length < pageSize || (offset === 0 && total !== undefined && total <= page.length)) return;
    const first = page[0];
    const last = page[page.length - 1];
    const uniform = first !== undefined && last !== undefined && stampOfRecord(first, attribute).ns === stampOfRecord(last, attribute).ns;
    if (!uniform) {
      offset = 0;
    } else if (offsetTies) {
      // The document's reading: the same ge filter, further on by page[offset].
      offset = at !== undefined && state.at !== undefined && at.ns === state.at.ns ? offset + pageSize : 0;
    } else {
      tie = { after: undefined };
    }
  }
}

async function readPage(
  r: Reader,
  q: { sort: string; filters: readonly (string | undefined)[]; offset?: number; limit?: number },
): Promise<{ url: string; page: ListRecord[]; total: number | undefined }> {
  const pairs: [string, string][] = [];
  let userFilter: string | undefined;
  for (const [name, value] of Object.entries(r.options.query ?? {})) {
    if (name === 'filter') userFilter = value;
    else pairs.push([name, value]);
  }
  pairs.push(['sort', q.sort]);
  const filter = [userFilter, ...q.filters].filter((f): f is string => f !== undefined && f !== '').join(':');
  if (filter !== '') pairs.push(['filter', filter]);
  pairs.push(['page[limit]', String(q.limit ?? r.pageSize)]);
  if (q.offset !== undefined && q.offset > 0) pairs.push(['page[offset]', String(q.offset)]);
  const query = pairs.map(([k, v]) => `${k}=${encodeValue(v)}`).join('&');
  const url = `${r.path}${r.path.includes('?') ? '&' : '?'}${query}`;
  const response = await r.requester.get(url);
  const list = parseList(response, url);
  r.counts.pages += 1;
  r.options.onPage?.({ url, received: list.data.length, total: list.total });
  return { url, page: list.data, total: list.total };
}

function now(r: Reader): number {
  return (r.options.now ?? Date.now)();
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function noProgress(url: string): ClientError {
  return new ClientError('CLIENT_NO_PROGRESS', `GET ${url} answered the same records again: the target does not apply the keyset filter (large-data.keyset.*)`);
}
