/**
 * Keyset traversal (commerce-api.md §4.3): sort by id and page with gt(id,<last>), or sort by
 * created_at/updated_at and page with ge(attr,<last>) (paging further with page[offset] while a
 * page's first and last timestamps are equal). For any page size and any data, including bursts of
 * records sharing one timestamp, the walk visits every record exactly once and the unfiltered
 * results.total equals the records visited. The data is seeded per run through the admin API.
 */
import * as fc from 'fast-check';
import { asList, idsOf, instantOf, pageMeta, recordAttr, recordId } from '../rules/inspect.js';
import { AdminError, adminRequest, requireAdmin, seedWith } from './admin.js';
import { queryString, type QueryParam } from './arbitraries.js';
import { defineProperty } from './define.js';
import type { Trial } from './trial.js';

export const KEYSET = 'keyset';
const PATH = '/v2/accounts';

export interface KeysetInput {
  readonly attribute: 'id' | 'created_at' | 'updated_at';
  readonly pageSize: number;
  readonly count: number;
  readonly profile: 'default' | 'shared-timestamps';
  /** Records per shared timestamp (shared-timestamps profile). */
  readonly burst: number;
  readonly dataSeed: number;
}

const input: fc.Arbitrary<KeysetInput> = fc.record({
  attribute: fc.constantFrom('id', 'created_at', 'updated_at'),
  pageSize: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 100 })),
  count: fc.integer({ min: 0, max: 250 }),
  profile: fc.constantFrom('default', 'shared-timestamps'),
  burst: fc.integer({ min: 2, max: 120 }),
  dataSeed: fc.integer({ min: 0, max: 1_000_000 }),
});

const get = (trial: Trial, params: readonly QueryParam[]) => trial.send({ method: 'GET', url: `${PATH}${queryString(params)}` });

/** §4.3 by id: gt(id,<last id>) until a page comes back empty. */
async function walkById(trial: Trial, i: KeysetInput, seen: Set<string>): Promise<void> {
  let last: string | undefined;
  for (let pages = 0; ; pages += 1) {
    if (pages > i.count + 2) return trial.fail('large-data.keyset.id', `the id walk did not end after ${pages} pages`, 'an empty page', 'pages with records');
    const ex = await get(trial, [{ name: 'sort', value: 'id' }, { name: 'page[limit]', value: String(i.pageSize) }, ...(last === undefined ? [] : [{ name: 'filter', value: `gt(id,${last})` }])]);
    if (ex.response.status !== 200) return trial.fail('large-data.keyset.id', `GET ${ex.request.url} answered ${ex.response.status}`, 200, ex.response.status);
    const ids = idsOf(ex.json);
    if (ids.length === 0) return;
    for (const id of ids) seen.add(id);
    const next = ids[ids.length - 1];
    if (next === last) return trial.fail('large-data.keyset.id', `GET ${ex.request.url}: the walk makes no progress`, `ids after ${last ?? ''}`, ids.slice(0, 5));
    last = next;
  }
}

/** §4.3 by timestamp: ge(attr,<last value>), page[offset] further while a full page is uniform. */
async function walkByTimestamp(trial: Trial, i: KeysetInput, seen: Set<string>): Promise<void> {
  const attr = i.attribute;
  let from: string | undefined;
  let offset = 0;
  for (let pages = 0; ; pages += 1) {
    if (pages > 2 * i.count + 4) return trial.fail('large-data.keyset.timestamp', `the ${attr} walk did not end after ${pages} pages`, 'a short page', 'full pages');
    const ex = await get(trial, [
      { name: 'sort', value: attr },
      { name: 'page[limit]', value: String(i.pageSize) },
      ...(from === undefined ? [] : [{ name: 'filter', value: `ge(${attr},${from})` }]),
      ...(offset === 0 ? [] : [{ name: 'page[offset]', value: String(offset) }]),
    ]);
    if (ex.response.status !== 200) return trial.fail('large-data.keyset.timestamp', `GET ${ex.request.url} answered ${ex.response.status}`, 200, ex.response.status);
    const records = asList(ex.json)?.data ?? [];
    let fresh = 0;
    for (const r of records) {
      const id = recordId(r);
      if (id !== undefined && !seen.has(id)) {
        seen.add(id);
        fresh += 1;
      }
    }
    if (records.length < i.pageSize) return; // a short page is the end of the set
    const first = recordAttr(records[0], attr);
    const last = recordAttr(records[records.length - 1], attr);
    if (typeof first !== 'string' || typeof last !== 'string') return trial.fail('large-data.keyset.timestamp', `GET ${ex.request.url}: records without ${attr}`, attr, 'absent');
    if (first === last) {
      // Every record on the page shares one timestamp: the rest of them are further on, same filter.
      if (offset > 0 && fresh === 0) return trial.fail('large-data.shared-timestamp', `GET ${ex.request.url}: paging further past a shared ${attr} returned no new records`, 'the next records of the burst', 'records already seen');
      offset += i.pageSize;
      continue;
    }
    if (from !== undefined && (instantOf(last) ?? 0) <= (instantOf(from) ?? 0)) {
      return trial.fail('large-data.keyset.timestamp', `GET ${ex.request.url}: the walk makes no progress`, `a last ${attr} after ${from}`, last);
    }
    from = last;
    offset = 0;
  }
}

export const keyset = defineProperty<undefined, KeysetInput>({
  name: KEYSET,
  summary: 'the §4.3 keyset walk (gt on id, ge on timestamps) visits every record exactly once, for any page size and shared timestamps',
  rules: [
    'large-data.keyset.id',
    'large-data.keyset.timestamp',
    'large-data.shared-timestamp',
    'filter.gt',
    'filter.ge',
    'sort.ascending',
    'sort.ties-by-id',
    'pagination.results.total',
    'errors.no-5xx',
  ],
  needs: ['admin'],
  prepare: () => Promise.resolve(undefined),
  arbitrary: () => input,
  async run(i, trial) {
    const admin = requireAdmin(trial.env);
    // Seeding is a state change the walk rules would rightly refuse to judge across: it is set-up, not the walk.
    const seeded = await trial.sendAside(
      adminRequest(admin.token, 'POST', '/__sim/seed', seedWith(admin.baseline, { seed: i.dataSeed, accounts: i.count, profile: i.profile, burst: i.burst })),
    );
    if (seeded.response.status !== 200) throw new AdminError(`seeding the walk's data answered ${seeded.response.status}`);
    const all = await get(trial, [{ name: 'page[limit]', value: '1' }]);
    const total = pageMeta(all.json).resultsTotal;
    const seen = new Set<string>();
    if (i.attribute === 'id') await walkById(trial, i, seen);
    else await walkByTimestamp(trial, i, seen);
    if (trial.findings.length > 0 || total === undefined) return;
    const rule = i.attribute === 'id' ? 'large-data.keyset.id' : 'large-data.keyset.timestamp';
    trial.expect(seen.size === total, rule, `the ${i.attribute} walk of ${PATH} (page size ${i.pageSize}) visited ${seen.size} distinct records`, total, seen.size);
  },
});
