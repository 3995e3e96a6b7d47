/** Pagination on every list endpoint (commerce-api.md §2.3, §4.2, §8; docs/api-notes.md "Response envelope", "Page limits"). */
import { describe, expect, it } from 'vitest';
import { at, expectErrorShape, harness, ids, items, linkParams, num, str, type Harness } from './helpers.js';

/** docs/api-notes.md "Real paths of the list endpoints the document names", with path parameters filled in. */
const CATALOG_READS = ['/hierarchies', '/hierarchies/h-1/children', '/hierarchies/h-1/nodes', '/hierarchies/h-1/products', '/nodes', '/nodes/n-1/relationships/products', '/products'];
const LIST_PATHS: readonly string[] = [
  '/v2/accounts',
  '/v2/account-members',
  '/v2/flows/my-flow/entries',
  '/v2/customers',
  '/v2/integrations/logs',
  '/v2/integrations/int-1/logs',
  '/v2/orders',
  '/v2/promotions',
  '/pcm/catalogs',
  ...CATALOG_READS.map((p) => `/catalog${p}`),
  ...CATALOG_READS.map((p) => `/catalogs/cat-1/releases/rel-1${p}`),
  '/pcm/products/p-1/nodes',
  '/pcm/hierarchies/h-1/nodes/n-1/products',
  '/pcm/catalogs/rules',
  '/pcm/pricebooks/pb-1/modifiers',
  '/pcm/pricebooks/pb-1/prices',
  '/v2/inventories',
  '/v2/files',
  '/pcm/jobs',
  '/v2/promotions/promo-1/usages',
  '/v2/promotions/promo-1/codes/CODE1/usages',
  '/v2/rule-promotions/promo-1/usages',
  '/v2/rule-promotions/promo-1/codes/CODE1/usages',
];
const NO_MATCH = 'filter=eq(id,00000000-0000-4000-8000-000000000000)';

/** Every list path, the seeded-id ones included. */
function allListPaths(h: Harness): string[] {
  const uai = `/v2/authentication-realms/${h.ids.realm_id}/user-authentication-info`;
  return [...LIST_PATHS, uai, '/v2/authentication-realms', `${uai}/${h.ids.user_authentication_info_id}/user-authentication-password-profile-info`];
}

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

describe('every list endpoint (§4.2)', () => {
  const h = harness();

  it.each(allListPaths(h))('%s answers a list with meta and links', (path) => {
    const res = h.get(path);
    expect(res.status).toBe(200);
    const data = items(res);
    const total = num(res.json, 'meta.results.total');
    expect(data.length).toBe(Math.min(25, total));
    expect(at(res.json, 'meta.page')).toEqual({ limit: 25, offset: 0, current: 1, total: Math.ceil(total / 25) });
    expect(Object.keys(at(res.json, 'links') as object).sort()).toEqual(['current', 'first', 'last', 'next', 'prev']);
    expect(str(res.json, 'links.first')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:4747${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?`));
  });

  it.each(allListPaths(h))('%s keeps meta and links on zero results', (path) => {
    const res = h.get(withQuery(path, NO_MATCH));
    expect(res.status).toBe(200);
    expect(items(res)).toEqual([]);
    expect(at(res.json, 'meta')).toEqual({ page: { limit: 25, offset: 0, current: 1, total: 0 }, results: { total: 0 } });
    expect(linkParams(at(res.json, 'links.first'))?.get('page[offset]')).toBe('0');
    expect(at(res.json, 'links.next')).toBeNull();
    expect(at(res.json, 'links.prev')).toBeNull();
    expect(at(res.json, 'links.last')).toBeNull();
  });

  it.each(allListPaths(h))('%s needs a bearer token (401)', (path) => {
    expectErrorShape(h.get(path, { token: null }), 401);
  });

  it('serves the same data on the two catalog read forms but a separate set per resource', () => {
    expect(ids(h.get('/catalog/products'))).toEqual(ids(h.get('/catalogs/cat-1/releases/rel-1/products')));
    expect(ids(h.get('/v2/orders'))).not.toEqual(ids(h.get('/v2/files')));
  });

  it('serves accounts with the documented item shape', () => {
    const first = items(h.get('/v2/accounts?page[limit]=1'))[0];
    expect(first).toEqual({
      id: expect.any(String),
      type: 'account',
      name: expect.any(String),
      legal_name: expect.any(String),
      registration_id: expect.any(String),
      external_ref: expect.any(String),
      parent_id: null,
      meta: { timestamps: { created_at: expect.stringMatching(/Z$/), updated_at: expect.stringMatching(/Z$/) } },
      links: { self: `http://127.0.0.1:4747/v2/accounts/${str(first, 'id')}` },
    });
  });
});

describe('page arithmetic (§2.3)', () => {
  const h = harness(); // 120 seeded accounts
  const all = [...ids(h.get('/v2/accounts?page[limit]=100')), ...ids(h.get('/v2/accounts?page[limit]=100&page[offset]=100'))];

  it('has 120 accounts by default', () => {
    expect(all).toHaveLength(120);
    expect(new Set(all).size).toBe(120);
  });

  it.each([
    [7, 0],
    [7, 10],
    [25, 24],
    [100, 99],
    [1, 119],
    [13, 115],
  ])('limit %i offset %i: offset counts records, meta follows', (limit, offset) => {
    const res = h.get(`/v2/accounts?page[limit]=${limit}&page[offset]=${offset}`);
    expect(ids(res)).toEqual(all.slice(offset, offset + limit));
    expect(at(res.json, 'meta')).toEqual({
      page: { limit, offset, current: Math.floor(offset / limit) + 1, total: Math.ceil(120 / limit) },
      results: { total: 120 },
    });
  });

  it('answers an empty page past the end, with meta', () => {
    const res = h.get('/v2/accounts?page[offset]=500');
    expect(items(res)).toEqual([]);
    expect(at(res.json, 'meta')).toEqual({ page: { limit: 25, offset: 500, current: 21, total: 5 }, results: { total: 120 } });
    expect(at(res.json, 'links.next')).toBeNull();
  });

  it('walking by next links visits every record once', () => {
    const seen: string[] = [];
    let next: unknown = 'http://127.0.0.1:4747/v2/accounts?page[limit]=17';
    let guard = 0;
    while (typeof next === 'string' && guard++ < 20) {
      const url = new URL(next);
      const res = h.get(`${url.pathname}${url.search}`);
      seen.push(...ids(res));
      next = at(res.json, 'links.next');
    }
    expect(seen).toEqual(all);
  });
});

describe('links (docs/api-notes.md "Response envelope")', () => {
  const h = harness();

  it('first, prev, current, next and last agree with meta; other parameters are kept', () => {
    const res = h.get('/v2/accounts?sort=-name&filter=like(name,*)&page[limit]=10&page[offset]=30');
    const links = at(res.json, 'links');
    const p = (name: string) => linkParams(at(links, name));
    expect(p('current')?.get('page[offset]')).toBe('30');
    expect(p('first')?.get('page[offset]')).toBe('0');
    expect(p('prev')?.get('page[offset]')).toBe('20');
    expect(p('next')?.get('page[offset]')).toBe('40');
    expect(p('last')?.get('page[offset]')).toBe('110');
    for (const name of ['current', 'first', 'prev', 'next', 'last']) {
      expect(p(name)?.get('page[limit]')).toBe('10');
      expect(p(name)?.get('sort')).toBe('-name');
      expect(p(name)?.get('filter')).toBe('like(name,*)');
      expect(new URL(str(links, name)).pathname).toBe('/v2/accounts');
    }
  });

  it('prev is null on the first page, next null on the last, last null with a single page', () => {
    const first = h.get('/v2/accounts?page[limit]=50');
    expect(at(first.json, 'links.prev')).toBeNull();
    expect(at(first.json, 'links.next')).not.toBeNull();
    const last = h.get('/v2/accounts?page[limit]=50&page[offset]=100');
    expect(at(last.json, 'links.next')).toBeNull();
    expect(linkParams(at(last.json, 'links.prev'))?.get('page[offset]')).toBe('50');
    const single = h.get('/v2/accounts?page[limit]=100&filter=like(registration_id,REG-0000000*)');
    expect(num(single.json, 'meta.results.total')).toBe(9);
    expect(at(single.json, 'links.last')).toBeNull();
    expect(at(single.json, 'links.next')).toBeNull();
  });

  it('links follow the address the simulator is served on', () => {
    const other = harness({ baseUrl: 'http://localhost:9999' });
    expect(str(other.get('/v2/orders').json, 'links.first')).toMatch(/^http:\/\/localhost:9999\/v2\/orders\?/);
  });
});

describe('page[limit] (§8)', () => {
  const h = harness({ accounts: 250 });

  it('defaults to 25', () => {
    const res = h.get('/v2/accounts');
    expect(items(res)).toHaveLength(25);
    expect(num(res.json, 'meta.page.limit')).toBe(25);
  });

  it.each([1, 2, 24, 26, 99, 100])('page[limit]=%i answers that many', (limit) => {
    const res = h.get(`/v2/accounts?page[limit]=${limit}`);
    expect(items(res)).toHaveLength(limit);
    expect(num(res.json, 'meta.page.limit')).toBe(limit);
  });

  it.each(['101', '250', '1000000', '99999999999999999999999'])('page[limit]=%s is clamped to 100', (limit) => {
    const res = h.get(`/v2/accounts?page[limit]=${limit}`);
    expect(res.status).toBe(200);
    expect(items(res)).toHaveLength(100);
    expect(num(res.json, 'meta.page.limit')).toBe(100);
    expect(linkParams(at(res.json, 'links.next'))?.get('page[limit]')).toBe('100');
  });

  it.each(['0', '-1', '1.5', 'abc', '', '1e2', '0x10', ' ', '10abc', '%2B5'])('page[limit]=%j answers 400', (limit) => {
    const res = h.get(`/v2/accounts?page[limit]=${limit}`);
    expectErrorShape(res, 400);
  });

  it.each(['-1', '1.5', 'abc', '', '-0.5', '1e3'])('page[offset]=%j answers 400', (offset) => {
    expectErrorShape(h.get(`/v2/accounts?page[offset]=${offset}`), 400);
  });

  it('reads percent-encoded brackets like raw ones', () => {
    const res = h.get('/v2/accounts?page%5Blimit%5D=3&page%5boffset%5d=6');
    expect(at(res.json, 'meta.page')).toMatchObject({ limit: 3, offset: 6 });
  });

  it('refuses the same parameter twice with different values, accepts it twice with the same', () => {
    expectErrorShape(h.get('/v2/accounts?page[limit]=3&page[limit]=4'), 400);
    expect(num(h.get('/v2/accounts?page[limit]=3&page[limit]=3').json, 'meta.page.limit')).toBe(3);
  });
});

describe('offset limits (§8)', () => {
  it('the hard limit of /v2/orders and /v2/files: 10,000 answers, 10,001 is 400 pointing at sort and filter', () => {
    const h = harness();
    for (const path of ['/v2/orders', '/v2/files']) {
      expect(h.get(`${path}?page[offset]=10000`).status).toBe(200);
      const res = h.get(`${path}?page[offset]=10001`);
      expectErrorShape(res, 400);
      expect(str(res.json, 'errors.0.detail')).toMatch(/sort/);
      expect(str(res.json, 'errors.0.detail')).toMatch(/filter/);
    }
  });

  it('orders past 10,000 records stay reachable only by sort and filter', () => {
    const h = harness({ counts: { orders: 10_050 } });
    const page = h.get('/v2/orders?page[limit]=100&page[offset]=10000&sort=id');
    expect(items(page)).toHaveLength(50);
    expectErrorShape(h.get('/v2/orders?page[limit]=100&page[offset]=10001&sort=id'), 400);
    const last = ids(page)[0];
    const rest = h.get(`/v2/orders?page[limit]=100&sort=id&filter=gt(id,${last})`);
    expect(num(rest.json, 'meta.results.total')).toBe(49);
  });

  it('the soft limit elsewhere: 10,000 by default; the admin API raises it, never for orders and files', () => {
    const h = harness();
    const soft = ['/v2/accounts', '/v2/customers', '/pcm/jobs', '/catalog/products'];
    for (const path of soft) {
      expect(h.get(`${path}?page[offset]=10000`).status).toBe(200);
      expectErrorShape(h.get(`${path}?page[offset]=10001`), 400);
    }
    const raised = h.admin('PUT', '/__sim/settings', { page_offset_limit: 20_000 });
    expect(raised.status).toBe(200);
    expect(at(raised.json, 'data.page_offset_limit')).toBe(20_000);
    for (const path of soft) {
      expect(h.get(`${path}?page[offset]=20000`).status).toBe(200);
      expectErrorShape(h.get(`${path}?page[offset]=20001`), 400);
    }
    expectErrorShape(h.get('/v2/orders?page[offset]=10001'), 400);
    expectErrorShape(h.get('/v2/files?page[offset]=10001'), 400);
    expect(at(h.get('/v2/settings').json, 'data.page_offset_limit')).toBe(20_000);
  });

  it('the raise is per project', () => {
    const h = harness();
    h.admin('PUT', '/__sim/settings?client_id=other', { page_offset_limit: 20_000 });
    expectErrorShape(h.get('/v2/accounts?page[offset]=15000'), 400);
    const other = h.sim.issueToken('other', 'read-write');
    expect(h.get('/v2/accounts?page[offset]=15000', { token: other }).status).toBe(200);
  });

  it('the soft limit cannot be raised through /v2/settings', () => {
    const h = harness();
    expectErrorShape(h.put('/v2/settings', { data: { type: 'settings', page_offset_limit: 20_000 } }), 400);
    expectErrorShape(h.get('/v2/accounts?page[offset]=10001'), 400);
  });
});

describe('settings (§8, docs/api-notes.md "Settings")', () => {
  it('GET shows page_length 25 and the read-only limits', () => {
    const h = harness();
    const res = h.get('/v2/settings');
    expect(res.status).toBe(200);
    expect(at(res.json, 'data')).toMatchObject({ type: 'settings', page_length: 25, page_offset_limit: 10_000, filter_limit: 10 });
  });

  it('PUT page_length changes the default page of every list of that project only', () => {
    const h = harness();
    const res = h.put('/v2/settings', { data: { type: 'settings', page_length: 7 } });
    expect(res.status).toBe(200);
    expect(at(res.json, 'data.page_length')).toBe(7);
    expect(at(h.get('/v2/settings').json, 'data.page_length')).toBe(7);
    for (const path of ['/v2/accounts', '/v2/orders', '/catalog/products']) {
      const list = h.get(path);
      expect(items(list)).toHaveLength(7);
      expect(num(list.json, 'meta.page.limit')).toBe(7);
      expect(num(list.json, 'meta.page.total')).toBe(Math.ceil(num(list.json, 'meta.results.total') / 7));
    }
    expect(items(h.get('/v2/accounts?page[limit]=30'))).toHaveLength(30);
    const other = h.sim.issueToken('another-client', 'read-write');
    expect(num(h.get('/v2/accounts', { token: other }).json, 'meta.page.limit')).toBe(25);
  });

  it('accepts 1 and 100', () => {
    const h = harness();
    expect(h.put('/v2/settings', { data: { type: 'settings', page_length: 1 } }).status).toBe(200);
    expect(h.put('/v2/settings', { data: { type: 'settings', page_length: 100 } }).status).toBe(200);
    expect(items(h.get('/v2/accounts'))).toHaveLength(100);
  });

  it.each([0, 101, -1, 2.5, '10', null, true])('refuses page_length %j with 400 and keeps the old value', (value) => {
    const h = harness();
    expectErrorShape(h.put('/v2/settings', { data: { type: 'settings', page_length: value } }), 400);
    expect(at(h.get('/v2/settings').json, 'data.page_length')).toBe(25);
  });

  it.each([
    ['not json', '{'],
    ['no data', '{"page_length": 10}'],
    ['data an array', '{"data": []}'],
    ['a JSON null', 'null'],
  ])('refuses %s with 400', (_n, body) => {
    const h = harness();
    expectErrorShape(h.put('/v2/settings', body), 400);
  });

  it('accepts the SDK settings body (type settings, extra white space)', () => {
    const h = harness();
    const res = h.put('/v2/settings', '{\n        "data": {"type":"settings","page_length":30}\n      }');
    expect(res.status).toBe(200);
    expect(num(h.get('/v2/accounts').json, 'meta.page.limit')).toBe(30);
  });
});
