/**
 * Keyset traversal (commerce-api.md §4.3): sort by id and page with gt(id,<last>), or sort by
 * created_at/updated_at and page with ge(attr,<last>) (paging further with page[offset] while a
 * page's first and last timestamps are equal). For any page size and any data, including bursts of
 * records sharing one timestamp, the walk visits every record exactly once and the unfiltered
 * results.total equals the records visited. The data is seeded per run through the admin API.
 */
import * as fc from 'fast-check';
import type { RuleId } from '../rules/ids.js';
import { documentedListUrl, SORT_FILTER_PATH, type SortableAttribute } from '../rules/surface.js';
import { asList, compareInstants, idsOf, pageMeta, recordAttr, recordId, sameValue } from '../rules/inspect.js';
import { AdminError, adminRequest, requireAdmin, seedWith } from './admin-requests.js';
import { defineProperty } from './define.js';
import type { Trial } from './trial.js';
import { MAX_PAGE_LENGTH } from '../limits.js';

const KEYSET = 'keyset';
const PATH = SORT_FILTER_PATH;

export interface KeysetInput {
  readonly attribute: 'id' | 'created_at' | 'updated_at';
  readonly pageSize: number;
  readonly count: number;
  readonly profile: 'default' | 'shared-timestamps';
  /** Records per shared timestamp (shared-timestamps profile). */
  readonly burst: number;
  /** Shared timestamps: a page shorter than the burst, so §4.3's further paging is exercised (see `pageSizeOf`). */
  readonly shortPage: boolean;
  readonly dataSeed: number;
}

/** The walk's page size: under a burst's length when `shortPage` (a page as long as the burst or longer meets no uniform page). */
function pageSizeOf(i: KeysetInput): number {
  return i.profile === 'shared-timestamps' && i.shortPage ? 1 + ((i.pageSize - 1) % Math.max(1, i.burst - 1)) : i.pageSize;
}

const input: fc.Arbitrary<KeysetInput> = fc.record({
  attribute: fc.constantFrom('id', 'created_at', 'updated_at'),
  // §8's largest page among them (a server whose largest is 99 is met every run of a hundred); shrinking may still reach small pages.
  pageSize: fc.oneof({ withCrossShrink: true }, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: MAX_PAGE_LENGTH }), fc.constantFrom(99, 100)),
  count: fc.integer({ min: 0, max: 250 }),
  profile: fc.constantFrom('default', 'shared-timestamps'),
  burst: fc.integer({ min: 2, max: 120 }),
  shortPage: fc.boolean(),
  dataSeed: fc.integer({ min: 0, max: 1_000_000 }),
});

/** How far a walk may go: the seeded walk fails past its bound (the data is known), a walk of existing data stops there. */
export interface WalkOptions {
  readonly pageSize: number;
  readonly maxPages: number;
  readonly onLimit: 'fail' | 'stop';
  /** Start after this value (gt on id, ge on a timestamp), as a walk resumed from a known record does. */
  readonly from?: string;
}

/** `done`: the walk reached the end of the set; `stopped`: it hit its page bound; `failed`: a finding ended it. */
export type WalkEnd = 'done' | 'stopped' | 'failed';

/** A documented keyset read (§4.3): ascending sort on the attribute, one gt/ge clause, page[limit] and page[offset] once. */
const read = (trial: Trial, attribute: SortableAttribute, pageSize: number, filter: { op: 'gt' | 'ge'; value: string } | undefined, offset = 0) =>
  trial.send({
    method: 'GET',
    url: documentedListUrl(SORT_FILTER_PATH, {
      limit: pageSize,
      ...(offset === 0 ? {} : { offset }),
      sort: attribute,
      ...(filter === undefined ? {} : { filter: { op: filter.op, attribute, value: filter.value } }),
    }),
  });

/** §4.3 by id: gt(id,<last id>) until a page comes back empty. */
export async function walkById(trial: Trial, o: WalkOptions, seen: Set<string>): Promise<WalkEnd> {
  const rule = 'large-data.keyset.id';
  let last = o.from;
  for (let pages = 0; ; pages += 1) {
    if (pages > o.maxPages) {
      if (o.onLimit === 'stop') return 'stopped';
      trial.fail(rule, `the id walk did not end after ${pages} pages`, 'an empty page', 'pages with records');
      return 'failed';
    }
    const ex = await read(trial, 'id', o.pageSize, last === undefined ? undefined : { op: 'gt', value: last });
    if (ex.response.status !== 200) {
      trial.finding(ex, [rule], `GET ${ex.request.url} answered ${ex.response.status}`, 200, ex.response.status);
      return 'failed';
    }
    const ids = idsOf(ex.json);
    if (ids.length === 0) return 'done';
    for (const id of ids) seen.add(id);
    const next = ids[ids.length - 1];
    if (next === last) {
      trial.fail(rule, `GET ${ex.request.url}: the walk makes no progress`, `ids after ${last ?? ''}`, ids.slice(0, 5), [ex]);
      return 'failed';
    }
    last = next;
  }
}

/** §4.3 by timestamp: ge(attr,<last value>), page[offset] further while a full page is uniform. */
export async function walkByTimestamp(trial: Trial, attr: 'created_at' | 'updated_at', o: WalkOptions, seen: Set<string>): Promise<WalkEnd> {
  const rule = 'large-data.keyset.timestamp';
  let from = o.from;
  let offset = 0;
  for (let pages = 0; ; pages += 1) {
    if (pages > o.maxPages) {
      if (o.onLimit === 'stop') return 'stopped';
      trial.fail(rule, `the ${attr} walk did not end after ${pages} pages`, 'a short page', 'full pages');
      return 'failed';
    }
    const ex = await read(trial, attr, o.pageSize, from === undefined ? undefined : { op: 'ge', value: from }, offset);
    if (ex.response.status !== 200) {
      trial.finding(ex, [rule], `GET ${ex.request.url} answered ${ex.response.status}`, 200, ex.response.status);
      return 'failed';
    }
    const records = asList(ex.json)?.data ?? [];
    let fresh = 0;
    for (const r of records) {
      const id = recordId(r);
      if (id !== undefined && !seen.has(id)) {
        seen.add(id);
        fresh += 1;
      }
    }
    if (records.length < o.pageSize) return 'done'; // a short page is the end of the set
    const first = recordAttr(records[0], attr);
    const last = recordAttr(records[records.length - 1], attr);
    if (typeof first !== 'string' || typeof last !== 'string') {
      trial.fail(rule, `GET ${ex.request.url}: records without ${attr}`, attr, 'absent', [ex]);
      return 'failed';
    }
    if (sameValue(attr, first, last)) {
      // Every record on the page shares one timestamp: the rest of them are further on, same filter.
      if (offset > 0 && fresh === 0) {
        trial.fail('large-data.shared-timestamp', `GET ${ex.request.url}: paging further past a shared ${attr} returned no new records`, 'the next records of the burst', 'records already seen', [ex]);
        return 'failed';
      }
      offset += o.pageSize;
      continue;
    }
    if (from !== undefined && (compareInstants(last, from) ?? 0) <= 0) {
      trial.fail(rule, `GET ${ex.request.url}: the walk makes no progress`, `a last ${attr} after ${from}`, last, [ex]);
      return 'failed';
    }
    from = last;
    offset = 0;
  }
}

/** What a §4.3 walk judges, seeded or over existing data (keyset-reads.ts). */
export const WALK_RULES: readonly RuleId[] = ['large-data.keyset.id', 'large-data.keyset.timestamp', 'large-data.shared-timestamp', 'filter.gt', 'filter.ge', 'sort.ascending'];

export const keyset = defineProperty<undefined, KeysetInput>({
  name: KEYSET,
  summary: 'the §4.3 keyset walk (gt on id, ge on timestamps) visits every record exactly once, for any page size and shared timestamps',
  rules: [...WALK_RULES, 'sort.ties-by-id', 'pagination.results.total', 'pagination.limit.per-call', 'pagination.limit.max', 'errors.no-5xx'],
  needs: ['admin'],
  prepare: () => Promise.resolve(undefined),
  arbitrary: () => input,
  async run(i, trial) {
    const admin = requireAdmin(trial.env);
    // Seeding is a state change the walk rules would rightly refuse to judge across: it is set-up, not the walk.
    const seeded = await trial.sendAside(adminRequest(admin.token, 'POST', '/__sim/seed', seedWith(admin.baseline, { seed: i.dataSeed, accounts: i.count, profile: i.profile, burst: i.burst })));
    if (seeded.response.status !== 200) throw new AdminError('PROPS_ADMIN_FAILED', `seeding the walk's data answered ${seeded.response.status}`);
    const all = await trial.send({ method: 'GET', url: documentedListUrl(SORT_FILTER_PATH, { limit: 1 }) });
    const total = pageMeta(all.json).resultsTotal;
    const seen = new Set<string>();
    const pageSize = pageSizeOf(i);
    const o: WalkOptions = { pageSize, onLimit: 'fail', maxPages: i.attribute === 'id' ? i.count + 2 : 2 * i.count + 4 };
    const end = i.attribute === 'id' ? await walkById(trial, o, seen) : await walkByTimestamp(trial, i.attribute, o, seen);
    if (end !== 'done' || total === undefined) return;
    const rule = i.attribute === 'id' ? 'large-data.keyset.id' : 'large-data.keyset.timestamp';
    trial.expect(seen.size === total, rule, `the ${i.attribute} walk of ${PATH} (page size ${pageSize}) visited ${seen.size} distinct records`, total, seen.size);
  },
});
