import { describe, expect, it } from 'vitest';
import { paginationRules } from '../../src/rules/pagination.js';
import { paginationLimitRules } from '../../src/rules/pagination-limits.js';
import { paginationMetaRules } from '../../src/rules/pagination-meta.js';
import { paginationOffsetRules } from '../../src/rules/pagination-offset.js';
import { accounts, BASE, ctx, ex, listGet, runFamily } from './helpers.js';

const all = accounts(1, 30);
const settingsGet = ex('GET', '/v2/settings', 200, { data: { type: 'settings', page_length: 25 } });

describe('pagination family', () => {
  it('is the union of its three parts, in the order of the document', () => {
    const parts = [...Object.values(paginationMetaRules), ...Object.values(paginationLimitRules), ...Object.values(paginationOffsetRules)];
    expect(new Set(paginationRules)).toEqual(new Set(parts));
    expect(paginationRules).toHaveLength(23);
  });
});

runFamily('pagination (meta and links)', Object.values(paginationMetaRules), {
  'pagination.meta.present': {
    pass: [
      ctx([listGet(all, { limit: 10 }), listGet(all, { limit: 10, offset: 20 })]),
      // §2.3 leaves the position open: at the top level, without links, is as good as under meta.
      ctx([ex('GET', '/v2/accounts', 200, { data: all.slice(0, 3), page: { limit: 25, offset: 0, current: 0, total: 1 }, results: { total: 3 } })]),
    ],
    fail: [
      ctx([
        listGet(all, { limit: 10 }, (b) => {
          if (b.meta?.page) b.meta.page.current = undefined;
        }),
      ]),
      ctx([ex('GET', '/v2/accounts', 200, { data: all.slice(0, 3) })]),
    ],
    skip: [ctx([listGet([], {})]), ctx([settingsGet]), ctx([ex('GET', '/v2/unknown-things', 200, { data: [{ id: 'x' }] })])],
  },
  'pagination.meta.present-when-empty': {
    pass: [ctx([listGet([], { query: 'filter=eq(name,nobody)' })])],
    fail: [ctx([ex('GET', '/v2/accounts?filter=eq(name,nobody)', 200, { data: [], links: {} })])],
    skip: [ctx([listGet(all, {})])],
  },
  'pagination.offset.echo': {
    pass: [ctx([listGet(all, { limit: 10, offset: 10 }), listGet(all, {})])],
    fail: [
      ctx([
        listGet(all, { limit: 10, offset: 10 }, (b) => {
          if (b.meta?.page) b.meta.page.offset = 1;
        }),
      ]),
    ],
    skip: [
      ctx([settingsGet]),
      ctx([ex('GET', '/v2/accounts?page[offset]=abc', 200, { data: [], meta: { page: { offset: 0 } } })]),
      // page[offset] given twice with different values: the server may have used either.
      ctx([listGet(all, { limit: 10, offset: 20, url: '/v2/accounts?page[offset]=0&page[offset]=20&page[limit]=10' })]),
    ],
  },
  'pagination.meta.position': {
    pass: [ctx([listGet(all, { limit: 10 })])],
    fail: [ctx([ex('GET', '/v2/accounts', 200, { data: all.slice(0, 3), page: { limit: 25, offset: 0, current: 1, total: 1 }, results: { total: 3 } })])],
    skip: [ctx([settingsGet])],
  },
  'pagination.page.total': {
    pass: [
      ctx([listGet(all, { limit: 7 }), listGet([], {})]),
      // One page for an empty result is the document's reading too: pagination.page.total-empty judges 0.
      ctx([
        listGet(all, { limit: 7 }),
        listGet([], {}, (b) => {
          if (b.meta?.page) b.meta.page.total = 1;
        }),
      ]),
      // §2.3 does not say on which grid pages are counted: from offset 1, 30 at 7 a page is one partial page then 5 (6), or 5 on the data set's grid.
      ctx([
        listGet(all, { limit: 7, offset: 1 }, (b) => {
          if (b.meta?.page) b.meta.page.total = 6;
        }),
      ]),
      ctx([listGet(all, { limit: 7, offset: 1 })]),
    ],
    fail: [
      ctx([
        listGet(all, { limit: 7, offset: 1 }, (b) => {
          if (b.meta?.page) b.meta.page.total = 7;
        }),
      ]),
      ctx([
        listGet(all, { limit: 7 }, (b) => {
          if (b.meta?.page) b.meta.page.total = 4;
        }),
      ]),
    ],
    skip: [
      ctx([
        listGet(all, { limit: 7 }, (b) => {
          if (b.meta) b.meta.results.total = undefined;
        }),
      ]),
    ],
  },
  'pagination.page.total-empty': {
    pass: [ctx([listGet([], {})])],
    fail: [
      ctx([
        listGet([], {}, (b) => {
          if (b.meta?.page) b.meta.page.total = 1;
        }),
      ]),
    ],
    skip: [ctx([listGet(all, { limit: 7 })])],
  },
  'pagination.page.current': {
    pass: [ctx([listGet(all, { limit: 7, offset: 14 }), listGet(all, { limit: 7, offset: 3 })])],
    fail: [
      ctx([
        listGet(all, { limit: 7, offset: 14 }, (b) => {
          if (b.meta?.page) b.meta.page.current = 2;
        }),
      ]),
    ],
    skip: [
      ctx([
        listGet(all, { limit: 7 }, (b) => {
          if (b.meta?.page) b.meta.page.current = undefined;
        }),
      ]),
    ],
  },
  'pagination.results.total': {
    pass: [ctx([listGet(all, { limit: 7, offset: 28 }), listGet(all, { limit: 100 }), listGet(all, { offset: 40 })])],
    fail: [
      ctx([
        listGet(all, { limit: 100 }, (b) => {
          if (b.meta) b.meta.results.total = 31;
        }),
      ]),
    ],
    skip: [
      ctx([
        listGet(all, { limit: 100 }, (b) => {
          if (b.meta) b.meta.results = { total: 20, total_method: 'lower_bound' };
        }),
      ]),
    ],
  },
  'pagination.links.present': {
    pass: [ctx([listGet(all, { limit: 10 }), listGet(all, { limit: 100 })])],
    fail: [
      ctx([
        listGet(all, { limit: 10 }, (b) => {
          if (b.links) b.links.last = undefined;
        }),
      ]),
      ctx([
        listGet(all, { limit: 10 }, (b) => {
          if (b.links) b.links.next = '/v2/accounts?page[offset]=10';
        }),
      ]),
    ],
    skip: [ctx([settingsGet])],
  },
  'pagination.links.consistent': {
    pass: [
      ctx([listGet(all, { limit: 10, offset: 10, query: 'sort=id' })]),
      ctx([listGet(all, { limit: 100 })]),
      ctx([
        listGet(all, { limit: 10 }, (b) => {
          if (b.links) b.links.next = `${BASE}/v2/accounts?page%5Boffset%5D=10&page%5Blimit%5D=10`;
        }),
      ]),
      ctx([
        listGet(all, { limit: 100 }, (b) => {
          if (b.links) b.links.last = `${BASE}/v2/accounts?page[limit]=100&page[offset]=0`;
        }),
      ]),
    ],
    fail: [
      ctx([
        listGet(all, { limit: 10 }, (b) => {
          if (b.links) b.links.next = `${BASE}/v2/accounts?page[limit]=10&page[offset]=1`;
        }),
      ]),
      ctx([
        listGet(all, { limit: 10 }, (b) => {
          if (b.links) b.links.prev = `${BASE}/v2/accounts?page[limit]=10&page[offset]=0`;
        }),
      ]),
      ctx([
        listGet(all, { limit: 10, query: 'filter=gt(id,x)' }, (b) => {
          if (b.links) b.links.first = `${BASE}/v2/accounts?page[limit]=10&page[offset]=0`;
        }),
      ]),
      ctx([
        listGet(all, { limit: 10, offset: 20 }, (b) => {
          if (b.links) b.links.next = `${BASE}/v2/accounts?page[limit]=10&page[offset]=30`;
        }),
      ]),
      ctx([
        listGet(all, { limit: 10 }, (b) => {
          if (b.links) b.links.first = `${BASE}/v2/accounts?page[limit]=25&page[offset]=0`;
        }),
      ]),
    ],
    skip: [
      ctx([
        listGet(all, { limit: 10 }, (b) => {
          if (b.meta) b.meta.results.total = undefined;
        }),
      ]),
      ctx([]),
    ],
  },
  'pagination.endpoints.listed': {
    pass: [ctx([listGet([], { path: '/v2/orders' }), listGet([], { path: '/v2/files' }), listGet(all, {})])],
    fail: [ctx([ex('GET', '/v2/files', 200, { data: [] })]), ctx([ex('GET', '/v2/orders?page[limit]=5', 200, { data: { id: 'p' } })])],
    // The other paths are API-NOTES': pagination.endpoints.public-paths judges them.
    skip: [ctx([settingsGet]), ctx([ex('GET', '/v2/inventories', 200, { data: [] })]), ctx([ex('GET', '/v2/orders', 404, { errors: [{ status: 404, title: 'Not Found' }] })])],
  },
  'pagination.endpoints.public-paths': {
    pass: [ctx([listGet([], { path: '/v2/inventories' }), listGet([], { path: '/catalogs/c1/releases/r1/nodes/n1/relationships/products' }), listGet([], { path: '/pcm/catalogs' })])],
    fail: [ctx([ex('GET', '/v2/inventories', 200, { data: [] })]), ctx([ex('GET', '/catalog/products?page[limit]=5', 200, { data: { id: 'p' } })])],
    skip: [ctx([settingsGet]), ctx([ex('GET', '/v2/inventories', 404, { errors: [{ status: 404, title: 'Not Found' }] })]), ctx([listGet([], { path: '/v2/files' })])],
  },
});
