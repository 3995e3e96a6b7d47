import { paginationOffsetRules } from '../../src/rules/pagination-offset.js';
import { accounts, ctx, ex, listGet, runFamily } from './helpers.js';

const all = accounts(1, 30);
const err = (status: number, detail?: string) => ({ errors: [{ status, title: 'Bad Request', ...(detail === undefined ? {} : { detail }) }] });
const get = (url: string, status: number, body: unknown) => ex('GET', url, status, body);
const emptyList = (offset: number) => ({ data: [], meta: { page: { limit: 25, offset, current: Math.floor(offset / 25) + 1, total: 2 }, results: { total: 30 } } });

runFamily('pagination (offsets)', Object.values(paginationOffsetRules), {
  'pagination.offset.records': {
    pass: [
      ctx([listGet(all, { limit: 20, query: 'sort=id' }), listGet(all, { limit: 5, offset: 5, query: 'sort=id' }), listGet(all, { limit: 10, offset: 15, query: 'sort=id' })]),
      ctx([listGet(all, { limit: 30 }), listGet(all, { limit: 3, offset: 29 }), listGet(all, { limit: 3, offset: 30 })]),
    ],
    fail: [
      // offset read as a page number: offset 1 at limit 5 answers records 6..10
      ctx([
        listGet(all, { limit: 20 }),
        listGet(all, { limit: 5, offset: 1 }, (b) => {
          b.data = all.slice(5, 10);
        }),
      ]),
      ctx([
        listGet(all, { limit: 20 }),
        listGet(all, { limit: 5, offset: 3 }, (b) => {
          b.data = [];
        }),
      ]),
    ],
    skip: [
      ctx([listGet(all, { limit: 20 })]),
      ctx([listGet(all, { limit: 20, query: 'sort=id' }), listGet(all, { limit: 5, offset: 5, query: 'sort=-id' })]),
      ctx([listGet(all, { limit: 5 }), listGet(all, { limit: 5, offset: 10 })]),
      ctx([listGet(all, { limit: 20 }), ex('DELETE', '/v2/accounts/x', 204), listGet(all.slice(1), { limit: 5, offset: 5 })]),
    ],
  },
  'pagination.offset-limit.hard': {
    pass: [ctx([get('/v2/orders?page[offset]=10001', 400, err(400)), get('/v2/files?page%5Boffset%5D=20000', 200, emptyList(20000))])],
    fail: [ctx([get('/v2/orders?page[offset]=10001', 200, { data: [{ id: 'o1' }], meta: {} })])],
    skip: [ctx([get('/v2/orders?page[offset]=10000', 200, { data: [{ id: 'o1' }] })]), ctx([get('/v2/accounts?page[offset]=20000', 200, { data: [{ id: 'a' }] })])],
  },
  'pagination.offset-limit.hard-400': {
    pass: [ctx([get('/v2/files?page[offset]=10001', 400, err(400, 'Offset too large: use sort and filter to page further'))])],
    fail: [ctx([get('/v2/orders?page[offset]=10001', 400, err(400, 'Offset too large'))]), ctx([get('/v2/orders?page[offset]=10001', 200, emptyList(10001))])],
    skip: [ctx([get('/v2/accounts?page[offset]=10001', 400, err(400))]), ctx([get('/v2/orders?page[offset]=10001', 401, err(401))])],
  },
  'pagination.offset-limit.soft': {
    pass: [ctx([get('/v2/accounts?page[offset]=10000', 200, emptyList(10000)), get('/v2/customers?page[offset]=5001&page[limit]=10', 200, { data: [] })])],
    fail: [ctx([get('/v2/accounts?page[offset]=5001', 400, err(400, 'offset above 5000'))])],
    skip: [
      ctx([get('/v2/accounts?page[offset]=10001', 400, err(400))]),
      ctx([get('/v2/accounts?page[offset]=100&filter=eq(nope,1)', 400, err(400))]),
      ctx([get('/v2/orders?page[offset]=100', 400, err(400))]),
      ctx([get('/v2/flows/none/entries?page[offset]=100', 404, err(404))]),
    ],
  },
  'pagination.offset-limit.soft-400': {
    pass: [
      ctx([
        get('/v2/accounts?page[offset]=10001', 400, err(400)),
        ex('PUT', '/__sim/settings', 200, { page_offset_limit: 20000 }, { reqBody: { page_offset_limit: 20000 } }),
        get('/v2/accounts?page[offset]=10001', 200, emptyList(10001)),
      ]),
      ctx([get('/v2/customers?page[offset]=10001', 400, err(400))]),
      ctx([get('/v2/accounts?page[offset]=5001', 400, err(400))], { page_offset_limit: 5000 }),
    ],
    fail: [
      ctx([get('/v2/accounts?page[offset]=10001', 200, emptyList(10001))]),
      ctx([
        get('/v2/accounts?page[offset]=10001', 400, err(400)),
        ex('POST', '/__sim/settings', 204, undefined, { reqBody: { page_offset_limit: 20000 } }),
        get('/v2/accounts?page[offset]=10001', 400, err(400)),
      ]),
    ],
    skip: [ctx([get('/v2/accounts?page[offset]=10000', 200, emptyList(10000))]), ctx([get('/v2/orders?page[offset]=10001', 400, err(400))])],
  },
});
