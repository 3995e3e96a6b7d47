import { paginationLimitRules } from '../../src/rules/pagination-limits.js';
import { accounts, ctx, ex, listGet, runFamily } from './helpers.js';

const all = accounts(1, 120);
const small = accounts(1, 30);
const settingsPut = (n: unknown, status = 200) =>
  ex('PUT', '/v2/settings', status, status < 300 ? { data: { type: 'settings', page_length: n } } : { errors: [{ status, title: 'Bad Request' }] }, {
    reqBody: { data: { type: 'settings', page_length: n } },
  });
const bad = (url: string, status: number, body: unknown = { errors: [{ status, title: 'Bad Request' }] }) => ex('GET', url, status, body);

runFamily('pagination (limits)', Object.values(paginationLimitRules), {
  'pagination.limit.default': {
    pass: [ctx([listGet(all, {})]), ctx([listGet(small, { defaultLimit: 10 })], { page_length: 10 }), ctx([listGet(small, { defaultLimit: 40 })], { page_length: '40' })],
    fail: [
      ctx([listGet(all, { defaultLimit: 20 })]),
      ctx([
        listGet(all, {}, (b) => {
          b.data = all.slice(0, 26);
        }),
      ]),
    ],
    skip: [ctx([listGet(all, { limit: 10 })]), ctx([settingsPut(10), listGet(all, { defaultLimit: 10 })])],
  },
  'pagination.limit.project-setting': {
    pass: [ctx([settingsPut(10), listGet(all, { defaultLimit: 10 }), listGet(all, { limit: 50 })])],
    fail: [ctx([settingsPut(10), listGet(all, {})])],
    skip: [ctx([listGet(all, {})]), ctx([settingsPut(10), listGet(all, { limit: 50 })]), ctx([settingsPut(500, 400), listGet(all, {})])],
  },
  'pagination.limit.per-call': {
    pass: [ctx([listGet(all, { limit: 5 }), listGet(all, { limit: 100 }), listGet(small, { limit: 50 })])],
    fail: [
      ctx([
        listGet(all, { limit: 5 }, (b) => {
          if (b.meta?.page) b.meta.page.limit = 25;
          b.data = all.slice(0, 25);
        }),
      ]),
      ctx([
        listGet(all, { limit: 5 }, (b) => {
          b.data = all.slice(0, 6);
        }),
      ]),
    ],
    skip: [
      ctx([listGet(all, { defaultLimit: 100, url: '/v2/accounts?page[limit]=500' })]),
      ctx([listGet(all, {})]),
      // page[limit] given twice with different values: a server that takes the last one conforms too.
      ctx([listGet(all, { limit: 10, url: '/v2/accounts?page[limit]=5&page[limit]=10' })]),
    ],
  },
  'pagination.limit.max': {
    pass: [ctx([listGet(all, { limit: 100 })])],
    fail: [
      ctx([
        listGet(small, { limit: 100 }, (b) => {
          if (b.meta?.page) b.meta.page.limit = 500;
        }),
      ]),
      ctx([
        listGet(all, { limit: 100 }, (b) => {
          b.data = all.slice(0, 101);
        }),
      ]),
    ],
    skip: [ctx([ex('GET', '/v2/settings', 200, { data: { page_length: 25 } })])],
  },
  'pagination.limit.clamp': {
    pass: [ctx([listGet(all, { defaultLimit: 100, url: '/v2/accounts?page[limit]=500' })])],
    fail: [
      ctx([ex('GET', '/v2/accounts?page[limit]=500', 200, { data: small, meta: { page: { limit: 500, offset: 0, current: 1, total: 1 }, results: { total: 30 } } })]),
      ctx([bad('/v2/accounts?page[limit]=101', 400)]),
    ],
    skip: [ctx([listGet(all, { limit: 50 })]), ctx([bad('/v2/accounts?page[limit]=500&filter=eq(nope,1)', 400)]), ctx([bad('/v2/accounts?page[limit]=500', 401)])],
  },
  'pagination.params.invalid-400': {
    pass: [
      ctx([
        bad('/v2/accounts?page[limit]=0', 400),
        bad('/v2/accounts?page%5Boffset%5D=-1', 400),
        bad('/v2/accounts?page[limit]=abc', 400, { errors: [{ status: '400', title: 'Bad Request' }] }),
        bad('/v2/accounts?page[limit]=2.5', 400),
      ]),
    ],
    fail: [ctx([listGet(all, { url: '/v2/accounts?page[limit]=0' })]), ctx([bad('/v2/accounts?page[offset]=x', 400, { message: 'bad offset' })])],
    skip: [
      ctx([listGet(all, { limit: 5 })]),
      ctx([bad('/v2/accounts?page[limit]=', 200, { data: [] })]),
      ctx([bad('/v2/settings?page[limit]=0', 200, { data: {} })]),
      ctx([listGet(all, { limit: 5, url: '/v2/accounts?page[limit]=abc&page[limit]=5' })]),
    ],
  },
});
