/**
 * Keyset traversal over the data a target already has (commerce-api.md §4.3), by reads alone, so it
 * runs against any URL read-only: from a record near the end of /v2/accounts, walk on with
 * `sort=id&filter=gt(id,<last>)` (or `sort=<timestamp>&filter=ge(<timestamp>,<last>)`, paging on with
 * page[offset] through a shared timestamp) until the set ends, and the walk visits exactly the
 * records the first read's results.total counts. Starting at the last record gives the documented
 * empty set. Every request is a documented read; the seeded variant (keyset.ts) needs the admin API.
 */
import { MAX_PAGE_LENGTH, OFFSET_LIMIT } from '../limits.js';
import * as fc from 'fast-check';
import { asList, pageMeta, recordAttr, recordId, sameValue } from '../rules/inspect.js';
import { documentedListUrl, SORT_FILTER_PATH, type SortableAttribute } from '../rules/surface.js';
import { toExchange } from '../port.js';
import { defineProperty, PropertySetupError } from './define.js';
import type { Trial } from './trial.js';
import { walkById, walkByTimestamp, WALK_RULES, type WalkOptions } from './keyset.js';
import type { PropertyEnv } from './env.js';

const KEYSET_READS = 'keyset-reads';
/** Pages one walk may read: a live target is not walked end to end from far back. */
const MAX_PAGES = 25;
/** Records read at the end of each order, the walks' starting points. */
const TAIL = 100;

/** Per sort attribute, the values of the last records in that order (ascending), oldest first. */
type Tails = Readonly<Record<SortableAttribute, readonly string[]>>;

export interface KeysetReadsInput {
  readonly attribute: SortableAttribute;
  readonly pageSize: number;
  /** Which tail record to start after, counted from the end (0: the last record, an empty walk). */
  readonly back: number;
  /**
   * Timestamps: start just before a run of records sharing one value, with the page size that puts a
   * page boundary inside the run (a server reading ge as gt then loses the rest of the run). Which run,
   * when the data has several.
   */
  readonly aligned: number | undefined;
  /**
   * Timestamps: start at a run of three or more records sharing one value, with a page shorter than the
   * run, so §4.3's further paging on a uniform page is exercised whatever the data's runs. Which run.
   */
  readonly shared: number | undefined;
}

/** A run of equal values wholly inside the tail, at least this long: a uniform page holds two records, and one more is further on. */
const MIN_RUN = 3;

/**
 * Where a walk starts so that its first page is uniform: ge(value of a run of equal values), with a page
 * shorter than the run (under half of it when it is long enough, so that a page further on is uniform too).
 */
function sharedRunStart(values: readonly string[], attribute: SortableAttribute, pick: number): { readonly from: string; readonly pageSize: number } | undefined {
  const runs: { from: string; pageSize: number }[] = [];
  let start = 0;
  for (let i = 1; i <= values.length; i++) {
    const v = values[i];
    const first = values[start] ?? '';
    if (v !== undefined && sameValue(attribute, first, v)) continue;
    const length = i - start;
    // A run at the tail's start may have earlier records beyond the tail; one at its end may go on past it.
    if (start > 0 && v !== undefined && length >= MIN_RUN) runs.push({ from: first, pageSize: Math.min(length >= 5 ? Math.floor((length - 1) / 2) : length - 1, MAX_PAGE_LENGTH) });
    start = i;
  }
  return runs.length === 0 ? undefined : runs[pick % runs.length];
}

/** Where a walk starts so that its first page ends on the first record of a run of equal values, and that page's size. */
function alignedStart(values: readonly string[], attribute: SortableAttribute, pick: number): { readonly from: string; readonly pageSize: number } | undefined {
  const starts: { from: string; pageSize: number }[] = [];
  for (let s = 1; s + 1 < values.length; s++) {
    const [before, first, second] = [values[s - 1], values[s], values[s + 1]];
    if (before === undefined || first === undefined || second === undefined) continue;
    if (!sameValue(attribute, first, second) || sameValue(attribute, before, first)) continue;
    // ge(before) begins at the first record holding before's value.
    let f = s - 1;
    while (f > 0 && sameValue(attribute, values[f - 1] ?? '', before)) f--;
    const pageSize = s - f + 1;
    // The tail's first value may have earlier records beyond the tail: its page size would be unknown.
    if (f > 0 && pageSize <= MAX_PAGE_LENGTH) starts.push({ from: before, pageSize });
  }
  return starts.length === 0 ? undefined : starts[pick % starts.length];
}

async function readOk(env: PropertyEnv, url: string): Promise<unknown> {
  const request = { method: 'GET', url };
  const ex = toExchange(request, await env.target.send(request));
  if (ex.response.status !== 200 || asList(ex.json) === undefined) throw new PropertySetupError('PROPS_SETUP', `GET ${url} answered ${ex.response.status}: the walks need the documented list read`);
  return ex.json;
}

/** The last records in each order, read through documented requests (offsets up to the 10,000 §8 allows). */
async function readTails(env: PropertyEnv): Promise<Tails> {
  const total = pageMeta(await readOk(env, documentedListUrl(SORT_FILTER_PATH, { limit: 1 }))).resultsTotal ?? 0;
  const offset = Math.max(0, Math.min(total - TAIL, OFFSET_LIMIT));
  const tail = async (attribute: SortableAttribute): Promise<string[]> => {
    const json = await readOk(env, documentedListUrl(SORT_FILTER_PATH, { limit: TAIL, ...(offset === 0 ? {} : { offset }), sort: attribute }));
    const values = (asList(json)?.data ?? []).map((r) => (attribute === 'id' ? recordId(r) : recordAttr(r, attribute)));
    return values.filter((v): v is string => typeof v === 'string' && v !== '');
  };
  return { id: await tail('id'), created_at: await tail('created_at'), updated_at: await tail('updated_at') };
}

/** A walk from a run of equal timestamps with a page shorter than the run: §4.3's further paging, on the data there is. */
async function walkSharedRun(i: KeysetReadsInput, trial: Trial, values: readonly string[]): Promise<void> {
  const attribute = i.attribute === 'id' ? 'created_at' : i.attribute;
  const start = sharedRunStart(values, attribute, i.shared ?? 0);
  if (start === undefined) {
    trial.unsure.set(
      'large-data.shared-timestamp',
      `no run of ${MIN_RUN} or more records sharing one ${attribute} among the last ${values.length} read: paging further on a uniform page could not be probed`,
    );
    return;
  }
  const seen = new Set<string>();
  const end = await walkByTimestamp(trial, attribute, { pageSize: start.pageSize, maxPages: MAX_PAGES, onLimit: 'stop', from: start.from }, seen);
  const total = pageMeta(trial.exchanges[0]?.json).resultsTotal;
  if (end !== 'done' || total === undefined) return;
  trial.expect(
    seen.size === total,
    'large-data.keyset.timestamp',
    `the ${attribute} walk of ${SORT_FILTER_PATH} from ${start.from} (page size ${start.pageSize}) visited ${seen.size} distinct records`,
    total,
    seen.size,
  );
}

export const keysetReads = defineProperty<Tails, KeysetReadsInput>({
  name: KEYSET_READS,
  summary: 'read-only §4.3 keyset walks over existing data (gt on id, ge on timestamps) from near the end visit exactly the records results.total counts',
  rules: [...WALK_RULES, 'pagination.results.total', 'pagination.meta.present-when-empty', 'pagination.limit.per-call', 'pagination.limit.max', 'errors.no-5xx'],
  needs: [],
  prepare: readTails,
  arbitrary: () =>
    fc.record({
      attribute: fc.constantFrom<SortableAttribute>('id', 'created_at', 'updated_at'),
      // §8's largest page among them (a server whose largest is 99 is met every run of a hundred); shrinking may still reach small pages.
      pageSize: fc.oneof({ withCrossShrink: true }, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: MAX_PAGE_LENGTH }), fc.constantFrom(99, 100)),
      back: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 4, arbitrary: fc.integer({ min: 0, max: TAIL - 1 }) }),
      aligned: fc.option(fc.nat({ max: 1000 }), { freq: 3, nil: undefined }),
      shared: fc.option(fc.nat({ max: 1000 }), { freq: 3, nil: undefined }),
    }),
  show: (i) => ({
    walk:
      i.shared !== undefined && i.attribute !== 'id'
        ? `sort=${i.attribute}&filter=ge(${i.attribute},<the value of run ${i.shared} of three or more equal values>)&page[limit]=<shorter than the run>`
        : i.aligned !== undefined && i.attribute !== 'id'
          ? `sort=${i.attribute}&filter=ge(${i.attribute},<the value before run ${i.aligned} of equal values>)&page[limit]=<up to the run's first record>`
          : `sort=${i.attribute}&filter=${i.attribute === 'id' ? 'gt' : 'ge'}(${i.attribute},<${i.back === 0 ? 'the last record' : `${i.back} records before the last`}>)&page[limit]=${i.pageSize}`,
  }),
  async run(i, trial, tails) {
    const values = tails[i.attribute];
    if (i.shared !== undefined && i.attribute !== 'id') return walkSharedRun(i, trial, values);
    const aligned = i.aligned !== undefined && i.attribute !== 'id' ? alignedStart(values, i.attribute, i.aligned) : undefined;
    if (i.aligned !== undefined && i.attribute !== 'id' && aligned === undefined) {
      // The probe needs a run of equal timestamps crossing a page boundary; this deployment's data shows none.
      trial.unsure.set('large-data.keyset.timestamp', `no run of records sharing one ${i.attribute} among the last ${values.length} read: a page boundary inside such a run could not be probed`);
      return;
    }
    const from = aligned?.from ?? values[Math.max(0, values.length - 1 - i.back)];
    if (from === undefined) return; // no records: nothing to walk
    const o: WalkOptions = { pageSize: aligned?.pageSize ?? i.pageSize, maxPages: MAX_PAGES, onLimit: 'stop', from };
    const seen = new Set<string>();
    const end = i.attribute === 'id' ? await walkById(trial, o, seen) : await walkByTimestamp(trial, i.attribute, o, seen);
    // The first read's results.total counts the set the walk goes through (§2.3: the total after filters).
    const total = pageMeta(trial.exchanges[0]?.json).resultsTotal;
    if (end !== 'done' || total === undefined) return;
    const rule = i.attribute === 'id' ? 'large-data.keyset.id' : 'large-data.keyset.timestamp';
    trial.expect(seen.size === total, rule, `the ${i.attribute} walk of ${SORT_FILTER_PATH} from ${from} (page size ${i.pageSize}) visited ${seen.size} distinct records`, total, seen.size);
  },
});
