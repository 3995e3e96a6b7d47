import { largeDataRules } from '../../src/rules/large-data.js';
import { account, accounts, ctx, ex, listGet, runFamily, ts, uuid } from './helpers.js';

/** A page of a walk: `records` answered for `url`, meta limit `limit`, results.total `total`. */
const walkPage = (url: string, records: readonly unknown[], limit: number, total: number) =>
  listGet(records, { limit, url }, (b) => {
    if (b.meta) b.meta.results.total = total;
    if (b.meta?.page) b.meta.page.total = Math.ceil(total / limit);
  });
const A = (n: number) => account(n);
const seven = accounts(1, 7);
const idWalk = (pages: readonly (readonly number[])[], total = 7) =>
  pages.map((ids, j) => {
    const prev = pages[j - 1];
    const after = prev === undefined ? undefined : prev[prev.length - 1];
    const url = `/v2/accounts?sort=id&page[limit]=3${after === undefined ? '' : `&filter=gt(id,${uuid(after)})`}`;
    return walkPage(url, ids.map(A), 3, j === 0 ? total : total);
  });

// created_at: 1 → ts(1); 2, 3, 4 → ts(2); 5 → ts(3); 6 → ts(4)
const stamp = (n: number): string => ts(n === 1 ? 1 : n <= 4 ? 2 : n - 2);
const T = (n: number) => account(n, { created: stamp(n) });
const tsPage = (filter: string | undefined, offset: number | undefined, ids: readonly number[], total: number) => {
  const q = ['sort=created_at', 'page[limit]=3', filter === undefined ? undefined : `filter=${filter}`, offset === undefined ? undefined : `page[offset]=${offset}`];
  return walkPage(`/v2/accounts?${q.filter((s) => s !== undefined).join('&')}`, ids.map(T), 3, total);
};
const ge = (n: number) => `ge(created_at,${stamp(n)})`;
const goodTsWalk = [tsPage(undefined, undefined, [1, 2, 3], 6), tsPage(ge(3), undefined, [2, 3, 4], 5), tsPage(ge(3), 3, [5, 6], 5), tsPage(ge(6), undefined, [6], 1)];

// updated_at walk: record 2 updated in between, moving to the end
const U = (n: number, updated = ts(n)) => account(n, { created: ts(n), updated });
const uPage = (after: number | undefined, records: readonly unknown[]) =>
  walkPage(`/v2/accounts?sort=updated_at&page[limit]=3${after === undefined ? '' : `&filter=ge(updated_at,${ts(after)})`}`, records, 3, 6);
const update = ex('PUT', `/v2/accounts/${uuid(2)}`, 200, { data: U(2, ts(100)) }, { reqBody: { data: { type: 'account', name: 'changed' } } });

const update4 = ex('PUT', `/v2/accounts/${uuid(4)}`, 200, { data: U(4, ts(100)) }, { reqBody: { data: { type: 'account', name: 'changed' } } });

const del = ex('DELETE', `/v2/accounts/${uuid(2)}`, 204);
const created = ex('POST', '/v2/accounts', 201, { data: account(99) }, { reqBody: { data: { type: 'account', name: 'new' } } });
const admin = (what: string) => ex('POST', `/__sim/${what}`, 200, { ok: true }, { reqBody: { value: 1 } });
const tooMany = (headers: Record<string, string>, body: unknown) => ex('GET', '/v2/accounts', 429, body, { resHeaders: headers });

runFamily('large-data', largeDataRules, {
  'accounts.writes': {
    pass: [ctx([created, update, del])],
    fail: [
      ctx([ex('POST', '/v2/accounts', 404, { errors: [{ status: 404, title: 'Not Found' }] }, { reqBody: { data: { type: 'account', name: 'new' } } })]),
      ctx([ex('DELETE', `/v2/accounts/${uuid(2)}`, 405, { errors: [] })]),
    ],
    skip: [ctx([listGet(seven, {})]), ctx([admin('seed')])],
  },
  'large-data.keyset.id': {
    pass: [ctx(idWalk([[1, 2, 3], [4, 5, 6], [7], []])), ctx([walkPage('/v2/accounts', seven.slice(0, 3), 3, 7), ...idWalk([[1, 2, 3], [4, 5, 6], [7], []])])],
    fail: [
      ctx(idWalk([[1, 2, 3], [4, 5, 6], []])),
      ctx(idWalk([[1, 2, 3], [3, 4, 5], [6, 7], []])),
      ctx(
        idWalk([
          [1, 2, 3],
          [1, 2, 3],
          [1, 2, 3],
        ]),
      ),
    ],
    skip: [
      ctx([walkPage('/v2/accounts', seven, 25, 7)]),
      ctx([...idWalk([[1, 2, 3], [4, 5, 6], [7], []]), del]),
      ctx([walkPage('/v2/accounts?sort=id&page[limit]=3', seven.slice(0, 3), 3, 7)]),
      ctx(idWalk([[1, 2, 3], [4, 5, 6], [7]])),
      ctx([walkPage('/v2/accounts?sort=id&page[limit]=3', seven.slice(0, 3), 3, 7), walkPage(`/v2/accounts?sort=id&page[limit]=3&filter=gt(id,${uuid(5)})`, seven.slice(5), 3, 7)]),
    ],
  },
  'large-data.keyset.timestamp': {
    pass: [ctx(goodTsWalk)],
    fail: [
      ctx([tsPage(undefined, undefined, [1, 2, 3], 6), tsPage(ge(3), undefined, [2, 3, 5], 5), tsPage(ge(5), undefined, [5, 6], 2), tsPage(ge(6), undefined, [6], 1)]),
      ctx([tsPage(undefined, undefined, [1, 2, 3], 6), tsPage(ge(3), undefined, [1, 4, 5], 5), tsPage(ge(5), undefined, [5, 6], 2)]),
    ],
    skip: [
      ctx([walkPage('/v2/accounts?sort=id', seven, 25, 7)]),
      ctx([...goodTsWalk, del]),
      ctx([tsPage(undefined, undefined, [1, 2, 3], 6), tsPage(ge(3), undefined, [2, 3, 4], 5)]),
      ctx([tsPage(undefined, undefined, [1, 2, 3], 6), tsPage(ge(6), undefined, [6], 1)]),
      // The same filter read again at an offset inside the previous page re-reads it (an offset probe): not a walk going on.
      ctx([tsPage(undefined, undefined, [1, 2, 3], 6), tsPage(ge(3), undefined, [2, 3, 4], 5), tsPage(ge(3), 3, [5, 6], 5), tsPage(ge(3), 4, [6], 5)]),
    ],
  },
  'large-data.shared-timestamp': {
    pass: [ctx(goodTsWalk)],
    fail: [ctx([tsPage(undefined, undefined, [1, 2, 3], 6), tsPage(ge(3), undefined, [2, 3, 4], 5), tsPage(ge(3), 3, [2, 3, 4], 5)])],
    skip: [
      ctx([tsPage(undefined, undefined, [1, 2, 3], 6)]),
      ctx([tsPage(ge(3), undefined, [2, 3, 4], 5)]),
      // Two full pages all at one timestamp, new records each, and no page after: the walk was cut short, nothing failed yet.
      ctx([
        walkPage(
          '/v2/accounts?sort=created_at&filter=ge(created_at,2024-01-01T00:00:02.000Z)&page[limit]=3',
          [2, 3, 4].map((n) => account(n, { created: ts(2) })),
          3,
          9,
        ),
        walkPage(
          '/v2/accounts?sort=created_at&filter=ge(created_at,2024-01-01T00:00:02.000Z)&page[limit]=3&page[offset]=3',
          [5, 6, 7].map((n) => account(n, { created: ts(2) })),
          3,
          9,
        ),
      ]),
    ],
  },
  'large-data.updates-during-traversal': {
    pass: [
      // record 4, not yet seen, is updated during the walk and still turns up later
      ctx([uPage(undefined, [U(1), U(2), U(3)]), update4, uPage(3, [U(3), U(5), U(6)]), uPage(6, [U(6), U(4, ts(100))])]),
      // §4.3: "may appear more than once": an unseen record listed twice after its update is fine
      ctx([uPage(undefined, [U(1), U(2), U(3)]), update4, uPage(3, [U(3), U(4, ts(100)), U(5)]), uPage(5, [U(5), U(6), U(4, ts(100))]), uPage(100, [U(4, ts(100))])]),
    ],
    fail: [ctx([uPage(undefined, [U(1), U(2), U(3)]), update4, uPage(3, [U(3), U(5), U(6)]), uPage(6, [U(6)])])],
    skip: [
      // record 2 was seen before its update: appearing again is the assumed sibling's
      ctx([uPage(undefined, [U(1), U(2), U(3)]), update, uPage(3, [U(3), U(4), U(5)]), uPage(5, [U(5), U(6)])]),
      // the walk is cut short (its last page is full): nothing is lost yet
      ctx([uPage(undefined, [U(1), U(2), U(3)]), update4, uPage(3, [U(3), U(5), U(6)])]),
      ctx([uPage(undefined, [U(1), U(2), U(3)])]),
    ],
  },
  'large-data.updates-reappear': {
    pass: [ctx([uPage(undefined, [U(1), U(2), U(3)]), update, uPage(3, [U(3), U(4), U(5)]), uPage(5, [U(5), U(6), U(2, ts(100))]), uPage(100, [U(2, ts(100))])])],
    fail: [ctx([uPage(undefined, [U(1), U(2), U(3)]), update, uPage(3, [U(3), U(4), U(5)]), uPage(5, [U(5), U(6)])])],
    skip: [ctx([uPage(undefined, [U(1), U(3), U(4)]), update, uPage(4, [U(4), U(5), U(6)])]), ctx([uPage(undefined, [U(1), U(2), U(3)])])],
  },
  'large-data.deletes-invisible': {
    pass: [
      ctx([uPage(undefined, [U(1), U(2), U(3)]), del, uPage(undefined, [U(1), U(3), U(4)])]),
      // still listed, unchanged: no trace as a change (whether it is gone at once is large-data.deletes-immediate)
      ctx([uPage(undefined, [U(1), U(2), U(3)]), del, uPage(undefined, [U(1), U(2), U(3)])]),
    ],
    fail: [ctx([uPage(undefined, [U(1), U(2), U(3)]), del, uPage(5, [U(5), U(6), U(2, ts(100))])])],
    skip: [
      ctx([del, uPage(undefined, [U(1), U(2), U(3)])]),
      ctx([walkPage('/v2/accounts', seven, 25, 7), del, walkPage('/v2/accounts', seven, 25, 7)]),
      ctx([uPage(undefined, [U(1), U(2), U(3)]), ex('DELETE', `/v2/accounts/${uuid(2)}`, 404, { errors: [{ status: 404, title: 'Not Found' }] }), uPage(5, [U(2, ts(100))])]),
    ],
  },
  'large-data.deletes-immediate': {
    pass: [
      ctx([
        walkPage('/v2/accounts', seven, 25, 7),
        del,
        walkPage(
          '/v2/accounts',
          seven.filter((_, i) => i !== 1),
          25,
          6,
        ),
      ]),
    ],
    fail: [ctx([del, walkPage('/v2/accounts', seven, 25, 7)])],
    skip: [
      ctx([walkPage('/v2/accounts', seven, 25, 7)]),
      ctx([del]),
      ctx([ex('DELETE', `/v2/accounts/${uuid(2)}`, 404, { errors: [{ status: 404, title: 'Not Found' }] }), walkPage('/v2/accounts', seven, 25, 7)]),
    ],
  },
  'large-data.consistency-window': {
    pass: [
      ctx([admin('consistency-window'), created, walkPage('/v2/accounts', seven, 25, 7), admin('clock'), walkPage('/v2/accounts', [...seven, account(99)], 25, 8)]),
      ctx([created, walkPage('/v2/accounts', seven, 25, 7)], { consistency_window_ms: 5000 }),
    ],
    fail: [
      ctx([admin('consistency-window'), created, walkPage('/v2/accounts', [...seven, account(99)], 25, 8)]),
      ctx([admin('consistency-window'), created, walkPage('/v2/accounts', seven, 25, 7), admin('clock'), walkPage('/v2/accounts', seven, 25, 7)]),
    ],
    skip: [ctx([created, walkPage('/v2/accounts', [...seven, account(99)], 25, 8)]), ctx([admin('consistency-window'), walkPage('/v2/accounts', seven, 25, 7)])],
  },
  'rate-limit.retry-after': {
    pass: [ctx([tooMany({ 'retry-after': '2' }, { errors: [{ status: 429, title: 'Too Many Requests' }] })])],
    fail: [ctx([tooMany({}, { errors: [{ status: 429, title: 'Too Many Requests' }] })]), ctx([tooMany({ 'retry-after': '1' }, 'slow down')])],
    skip: [ctx([walkPage('/v2/accounts', seven, 25, 7)])],
  },
});
