import { sortFilterRules } from '../../src/rules/sort-filter.js';
import { account, accounts, ctx, ex, listGet, runFamily, ts, uuid } from './helpers.js';

const all = accounts(1, 30);
const err = (status: number) => ({ errors: [{ status, title: 'Bad Request' }] });
/** A list GET of `url` answering exactly `records` (one page holding them all). */
const page = (url: string, records: readonly unknown[], total = records.length) =>
  listGet(records, { limit: 100, url }, (b) => {
    if (b.meta) b.meta.results.total = total;
  });
const named = (names: readonly string[]) => names.map((name, i) => account(i + 1, { name }));
const sameTime = (ids: readonly number[]) => ids.map((n) => account(n, { created: ts(5) }));

runFamily('sort-filter', sortFilterRules, {
  'sort.attributes': {
    pass: [ctx([page('/v2/accounts?sort=name', named(['a', 'b']))])],
    fail: [ctx([ex('GET', '/v2/accounts?sort=name', 400, err(400))])],
    skip: [ctx([page('/v2/accounts?sort=created_at', all)]), ctx([ex('GET', '/v2/accounts?sort=name', 429, err(429))])],
  },
  'filter.attributes': {
    pass: [ctx([page('/v2/accounts?filter=eq(name,a)', named(['a']))])],
    fail: [ctx([ex('GET', '/v2/accounts?filter=eq(name,a)', 400, err(400))]), ctx([ex('GET', '/v2/orders?filter=gt(id,x)', 400, err(400))])],
    skip: [ctx([page('/v2/accounts?filter=gt(id,x)', all)])],
  },
  'sort.ascending': {
    pass: [
      ctx([page('/v2/accounts?sort=name', named(['apple', 'Banana', 'cherry']))]),
      ctx([page('/v2/accounts?sort=created_at', all)]),
      ctx([page('/v2/accounts?sort=created_at', [account(1, { created: '2024-01-01T00:00:01Z' }), account(2, { created: '2024-01-01T00:00:00.500-00:30' })])]),
    ],
    fail: [ctx([page('/v2/accounts?sort=name', named(['delta', 'alpha', 'charlie']))])],
    skip: [ctx([page('/v2/accounts', named(['b', 'a']))]), ctx([page('/v2/accounts?sort=name', named(['a']))])],
  },
  'sort.descending': {
    pass: [ctx([page('/v2/accounts?sort=-created_at', [...all].reverse())])],
    fail: [ctx([page('/v2/accounts?sort=-created_at', all)])],
    skip: [ctx([page('/v2/accounts?sort=created_at', all)])],
  },
  'sort.ties-by-id': {
    pass: [ctx([page('/v2/accounts?sort=created_at', sameTime([1, 2, 3]))]), ctx([page('/v2/accounts?sort=-created_at', sameTime([3, 2, 1]))])],
    fail: [ctx([page('/v2/accounts?sort=created_at', sameTime([2, 1, 3]))]), ctx([page('/v2/accounts?sort=-created_at', sameTime([1, 3, 2]))])],
    skip: [ctx([page('/v2/accounts?sort=created_at', all)]), ctx([page('/v2/accounts?sort=id', all)])],
  },
  'sort.invalid-400': {
    pass: [ctx([ex('GET', '/v2/accounts?sort=legal_name', 400, err(400)), ex('GET', '/v2/accounts?sort=-colour', 400, err(400))])],
    fail: [ctx([page('/v2/accounts?sort=legal_name', all)])],
    skip: [ctx([page('/v2/accounts?sort=-name', [])]), ctx([ex('GET', '/v2/customers?sort=whatever', 200, { data: [] })])],
  },
  'filter.gt': {
    pass: [ctx([page(`/v2/accounts?sort=id&filter=gt(id,${uuid(10)})`, all.slice(10))])],
    fail: [ctx([page(`/v2/accounts?sort=id&filter=gt(id,${uuid(10)})`, all.slice(9))])],
    skip: [ctx([page('/v2/accounts?sort=id', all)]), ctx([page(`/v2/accounts?filter=gt(id,${uuid(40)})`, [])])],
  },
  'filter.ge': {
    pass: [
      ctx([page('/v2/accounts?sort=created_at&page[limit]=10', all.slice(0, 10), 30), page(`/v2/accounts?sort=created_at&filter=ge(created_at,${ts(10)})`, all.slice(9))]),
      ctx([page(`/v2/accounts?filter=ge(created_at,${ts(10)})`, all.slice(9))]),
    ],
    fail: [
      ctx([page('/v2/accounts?sort=created_at&page[limit]=10', all.slice(0, 10), 30), page(`/v2/accounts?sort=created_at&filter=ge(created_at,${ts(10)})`, all.slice(10))]),
      ctx([page('/v2/accounts?sort=created_at', all.slice(0, 10), 30), page(`/v2/accounts?sort=created_at&filter=ge(created_at,${ts(10)})`, [], 0)]),
      ctx([page(`/v2/accounts?filter=ge(created_at,${ts(10)})`, all.slice(8))]),
    ],
    skip: [ctx([page('/v2/accounts?sort=created_at', all)]), ctx([ex('GET', `/v2/accounts?filter=ge(created_at,${ts(10)})`, 400, err(400))])],
  },
  'filter.operators': {
    pass: [
      ctx([
        page('/v2/accounts?filter=eq(name,"Account 005")', [all[4]]),
        page('/v2/accounts?filter=like(name,Account+00*)', all.slice(0, 9)),
        page(`/v2/accounts?filter=in(id,${uuid(1)},${uuid(3)})`, [all[0], all[2]]),
        page('/v2/accounts?filter=is_null(external_ref)', all),
        page(`/v2/accounts?filter=lt(created_at,${ts(3)})`, all.slice(0, 2)),
      ]),
    ],
    fail: [ctx([page('/v2/accounts?filter=eq(name,Account 005)', all.slice(4, 6))]), ctx([page(`/v2/accounts?filter=le(created_at,${ts(3)})`, all.slice(0, 4))])],
    skip: [ctx([page(`/v2/accounts?filter=gt(id,${uuid(3)})`, all.slice(3))])],
  },
  'filter.and': {
    pass: [ctx([page(`/v2/accounts?filter=ge(created_at,${ts(3)}):le(created_at,${ts(5)})`, all.slice(2, 5))])],
    fail: [ctx([page(`/v2/accounts?filter=ge(created_at,${ts(3)}):le(created_at,${ts(5)})`, all.slice(2, 6))])],
    skip: [ctx([page(`/v2/accounts?filter=ge(created_at,${ts(3)})`, all.slice(2))])],
  },
  'filter.results-total': {
    pass: [ctx([page('/v2/accounts', all), page(`/v2/accounts?filter=le(created_at,${ts(5)})`, all.slice(0, 5))])],
    fail: [
      ctx([page(`/v2/accounts?filter=le(created_at,${ts(5)})`, all.slice(0, 5), 30)]),
      ctx([
        listGet(all, { limit: 10, url: '/v2/accounts?page[limit]=10' }),
        listGet(all.slice(10), { limit: 10, url: `/v2/accounts?page[limit]=10&filter=ge(created_at,${ts(11)})` }, (b) => {
          if (b.meta) b.meta.results.total = 30;
        }),
      ]),
    ],
    skip: [ctx([page('/v2/accounts', all)])],
  },
  'filter.invalid-400': {
    pass: [
      ctx([
        ex('GET', '/v2/accounts?filter=eq(name', 400, err(400)),
        ex('GET', '/v2/accounts?filter=foo(name,x)', 400, err(400)),
        ex('GET', '/v2/accounts?filter=eq(colour,red)', 400, { errors: [{ status: '400', title: 'Bad Request' }] }),
      ]),
    ],
    fail: [ctx([page('/v2/accounts?filter=eq(name', all)]), ctx([ex('GET', '/v2/accounts?filter=eq(colour,red)', 422, err(422))])],
    skip: [ctx([page('/v2/accounts?filter=eq(name,x)', [])]), ctx([ex('GET', '/v2/customers?filter=eq(colour,red)', 200, { data: [] })])],
  },
});
