/**
 * Keyset traversal over the data a target already has (commerce-api.md §4.3), by reads alone, so it
 * runs against any URL read-only: from a record near the end of /v2/accounts, walk on with
 * `sort=id&filter=gt(id,<last>)` (or `sort=<timestamp>&filter=ge(<timestamp>,<last>)`, paging on with
 * page[offset] through a shared timestamp) until the set ends, and the walk visits exactly the
 * records the first read's results.total counts. Starting at the last record gives the documented
 * empty set. Every request is a documented read; the seeded variant (keyset.ts) needs the admin API.
 */
import * as fc from 'fast-check';
import { asList, pageMeta, recordAttr, recordId } from '../rules/inspect.js';
import { documentedListUrl, SORT_FILTER_PATH, type SortableAttribute } from '../rules/surface.js';
import { toExchange } from '../target/types.js';
import { defineProperty, PropertySetupError } from './define.js';
import { walkById, walkByTimestamp, type WalkOptions } from './keyset.js';
import type { PropertyEnv } from './types.js';

export const KEYSET_READS = 'keyset-reads';
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
}

async function readOk(env: PropertyEnv, url: string): Promise<unknown> {
  const request = { method: 'GET', url };
  const ex = toExchange(request, await env.target.send(request));
  if (ex.response.status !== 200 || asList(ex.json) === undefined) throw new PropertySetupError(`GET ${url} answered ${ex.response.status}: the walks need the documented list read`);
  return ex.json;
}

/** The last records in each order, read through documented requests (offsets up to the 10,000 §8 allows). */
async function readTails(env: PropertyEnv): Promise<Tails> {
  const total = pageMeta(await readOk(env, documentedListUrl(SORT_FILTER_PATH, { limit: 1 }))).resultsTotal ?? 0;
  const offset = Math.max(0, Math.min(total - TAIL, 10_000));
  const tail = async (attribute: SortableAttribute): Promise<string[]> => {
    const json = await readOk(env, documentedListUrl(SORT_FILTER_PATH, { limit: TAIL, ...(offset === 0 ? {} : { offset }), sort: attribute }));
    const values = (asList(json)?.data ?? []).map((r) => (attribute === 'id' ? recordId(r) : recordAttr(r, attribute)));
    return values.filter((v): v is string => typeof v === 'string' && v !== '');
  };
  return { id: await tail('id'), created_at: await tail('created_at'), updated_at: await tail('updated_at') };
}

export const keysetReads = defineProperty<Tails, KeysetReadsInput>({
  name: KEYSET_READS,
  summary: 'read-only §4.3 keyset walks over existing data (gt on id, ge on timestamps) from near the end visit exactly the records results.total counts',
  rules: ['large-data.keyset.id', 'large-data.keyset.timestamp', 'filter.gt', 'filter.ge', 'sort.ascending', 'pagination.results.total', 'pagination.meta.present-when-empty', 'errors.no-5xx'],
  needs: [],
  prepare: readTails,
  arbitrary: () =>
    fc.record({
      attribute: fc.constantFrom<SortableAttribute>('id', 'created_at', 'updated_at'),
      pageSize: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 100 })),
      back: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 4, arbitrary: fc.integer({ min: 0, max: TAIL - 1 }) }),
    }),
  show: (i) => ({
    walk: `sort=${i.attribute}&filter=${i.attribute === 'id' ? 'gt' : 'ge'}(${i.attribute},<${i.back === 0 ? 'the last record' : `${i.back} records before the last`}>)&page[limit]=${i.pageSize}`,
  }),
  async run(i, trial, tails) {
    const values = tails[i.attribute];
    const from = values[Math.max(0, values.length - 1 - i.back)];
    if (from === undefined) return; // no records: nothing to walk
    const o: WalkOptions = { pageSize: i.pageSize, maxPages: MAX_PAGES, onLimit: 'stop', from };
    const seen = new Set<string>();
    const end = i.attribute === 'id' ? await walkById(trial, o, seen) : await walkByTimestamp(trial, i.attribute, o, seen);
    // The first read's results.total counts the set the walk goes through (§2.3: the total after filters).
    const total = pageMeta(trial.exchanges[0]?.json).resultsTotal;
    if (end !== 'done' || total === undefined) return;
    const rule = i.attribute === 'id' ? 'large-data.keyset.id' : 'large-data.keyset.timestamp';
    trial.expect(seen.size === total, rule, `the ${i.attribute} walk of ${SORT_FILTER_PATH} from ${from} (page size ${i.pageSize}) visited ${seen.size} distinct records`, total, seen.size);
  },
});
