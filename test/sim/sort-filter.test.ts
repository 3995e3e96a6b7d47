/** Sort, filter and the large-data pattern (commerce-api.md §4.2, §4.3; docs/api-notes.md "Accounts", "Filter and sort grammar"). */
import { describe, expect, it } from 'vitest';
import { at, expectErrorShape, harness, ids, items, num, str, type Harness } from './helpers.js';

type Item = Record<string, unknown>;

/** Every record of a list, by offset pages of 100. */
function walk(h: Harness, path: string, query = ''): Item[] {
  const out: Item[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = h.get(`${path}?page[limit]=100&page[offset]=${offset}${query ? `&${query}` : ''}`);
    expect(res.status, res.body).toBe(200);
    const page = items(res);
    out.push(...page);
    if (page.length < 100) return out;
  }
}

/** The value an attribute sorts and filters by: timestamps from meta.timestamps (accounts) or meta. */
function value(item: Item, field: string): string | null {
  if (field === 'created_at' || field === 'updated_at') {
    const v = at(item, `meta.timestamps.${field}`) ?? at(item, `meta.${field}`);
    return typeof v === 'string' ? v : null;
  }
  const v = at(item, field);
  return typeof v === 'string' ? v : null;
}

const cmp = (a: string | null, b: string | null): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** The documented order: by the attribute, ties by ascending id. */
function expectedOrder(records: readonly Item[], field: string, desc: boolean): string[] {
  return [...records].sort((x, y) => (desc ? -1 : 1) * cmp(value(x, field), value(y, field)) || cmp(value(x, 'id'), value(y, 'id'))).map((r) => str(r, 'id'));
}

const idsOf = (records: readonly Item[]) => records.map((r) => str(r, 'id'));

describe('sort (§4.2)', () => {
  const h = harness();
  const all = walk(h, '/v2/accounts');

  it.each(['created_at', 'id', 'name', 'updated_at'])('sort=%s is ascending, ties by id', (field) => {
    expect(idsOf(walk(h, '/v2/accounts', `sort=${field}`))).toEqual(expectedOrder(all, field, false));
  });

  it.each(['created_at', 'id', 'name', 'updated_at'])('sort=-%s is descending, ties by id', (field) => {
    expect(idsOf(walk(h, '/v2/accounts', `sort=-${field}`))).toEqual(expectedOrder(all, field, true));
  });

  it('the seeded updated_at values tie often, so the tie-break is exercised', () => {
    const values = all.map((r) => value(r, 'updated_at'));
    expect(new Set(values).size).toBeLessThan(values.length);
  });

  it('without sort, lists are in created_at order', () => {
    expect(idsOf(all)).toEqual(expectedOrder(all, 'created_at', false));
  });

  it('records with equal names are ordered by id in both directions', () => {
    const w = harness({ accounts: 0 });
    const made = [1, 2, 3, 4, 5].map(() => str(w.post('/v2/accounts', { data: { type: 'account', name: 'Same Name' } }).json, 'data.id'));
    const sorted = [...made].sort();
    expect(ids(w.get('/v2/accounts?sort=name'))).toEqual(sorted);
    expect(ids(w.get('/v2/accounts?sort=-name'))).toEqual(sorted);
  });

  it('shared timestamps: sort=created_at orders each burst by id', () => {
    const s = harness({ profile: 'shared-timestamps', accounts: 320, burst: 150 });
    const records = walk(s, '/v2/accounts', 'sort=created_at');
    expect(idsOf(records)).toEqual(expectedOrder(records, 'created_at', false));
    const firstBurst = records.filter((r) => value(r, 'created_at') === value(records[0] ?? {}, 'created_at'));
    expect(firstBurst).toHaveLength(150);
    expect(idsOf(walk(s, '/v2/accounts', 'sort=-created_at'))).toEqual(expectedOrder(records, 'created_at', true));
  });

  it.each(['colour', 'legal_name', '-', '', 'name,id', 'ID'])('sort=%j answers 400', (sort) => {
    expectErrorShape(h.get(`/v2/accounts?sort=${sort}`), 400);
  });

  it('sorts the generic list resources and the password profile list by their own attributes', () => {
    expect(ids(h.get('/v2/customers?sort=-id&page[limit]=5'))).toEqual([...walk(h, '/v2/customers').map((r) => str(r, 'id'))].sort().reverse().slice(0, 5));
    expectErrorShape(h.get('/v2/customers?sort=username'), 400);
  });
});

describe('filter (§4.2; docs/api-notes.md "Filter and sort grammar")', () => {
  const h = harness();
  const accounts = walk(h, '/v2/accounts');
  const customers = walk(h, '/v2/customers');
  const pick = (records: readonly Item[], i: number, field: string): string => value(records[i] ?? {}, field) ?? '';

  const accountCases: readonly [string, (r: Item) => boolean][] = [
    [`eq(id,${pick(accounts, 7, 'id')})`, (r) => value(r, 'id') === pick(accounts, 7, 'id')],
    [`gt(id,${pick(accounts, 7, 'id')})`, (r) => cmp(value(r, 'id'), pick(accounts, 7, 'id')) > 0],
    [`ge(id,${pick(accounts, 7, 'id')})`, (r) => cmp(value(r, 'id'), pick(accounts, 7, 'id')) >= 0],
    [`lt(id,${pick(accounts, 7, 'id')})`, (r) => cmp(value(r, 'id'), pick(accounts, 7, 'id')) < 0],
    [`le(id,${pick(accounts, 7, 'id')})`, (r) => cmp(value(r, 'id'), pick(accounts, 7, 'id')) <= 0],
    [`in(id,${pick(accounts, 1, 'id')},${pick(accounts, 2, 'id')},${pick(accounts, 90, 'id')})`, (r) => [1, 2, 90].some((i) => value(r, 'id') === pick(accounts, i, 'id'))],
    [`gt(created_at,${pick(accounts, 50, 'created_at')})`, (r) => cmp(value(r, 'created_at'), pick(accounts, 50, 'created_at')) > 0],
    [`ge(created_at,${pick(accounts, 50, 'created_at')})`, (r) => cmp(value(r, 'created_at'), pick(accounts, 50, 'created_at')) >= 0],
    [`lt(created_at,${pick(accounts, 50, 'created_at')})`, (r) => cmp(value(r, 'created_at'), pick(accounts, 50, 'created_at')) < 0],
    [`le(created_at,${pick(accounts, 50, 'created_at')})`, (r) => cmp(value(r, 'created_at'), pick(accounts, 50, 'created_at')) <= 0],
    [`eq(created_at,${pick(accounts, 50, 'created_at')})`, (r) => value(r, 'created_at') === pick(accounts, 50, 'created_at')],
    [`ge(updated_at,${pick(accounts, 30, 'updated_at')})`, (r) => cmp(value(r, 'updated_at'), pick(accounts, 30, 'updated_at')) >= 0],
    [`eq(name,${pick(accounts, 3, 'name')})`, (r) => value(r, 'name') === pick(accounts, 3, 'name')],
    ['like(name,Acme*)', (r) => (value(r, 'name') ?? '').startsWith('Acme')],
    ['like(legal_name,* Ltd)', (r) => (value(r, 'legal_name') ?? '').endsWith(' Ltd')],
    ['like(registration_id,*0001*)', (r) => (value(r, 'registration_id') ?? '').includes('0001')],
    [`eq(external_ref,${pick(accounts, 4, 'external_ref')})`, (r) => value(r, 'external_ref') === pick(accounts, 4, 'external_ref')],
    [`eq(registration_id,${pick(accounts, 4, 'registration_id')})`, (r) => value(r, 'registration_id') === pick(accounts, 4, 'registration_id')],
    [
      `ge(id,${pick(accounts, 7, 'id')}):lt(created_at,${pick(accounts, 60, 'created_at')})`,
      (r) => cmp(value(r, 'id'), pick(accounts, 7, 'id')) >= 0 && cmp(value(r, 'created_at'), pick(accounts, 60, 'created_at')) < 0,
    ],
  ];

  it.each(accountCases)('accounts filter=%s holds on every record, and results.total counts them', (filter, keep) => {
    const expected = accounts.filter(keep).map((r) => str(r, 'id'));
    expect(expected.length).toBeGreaterThan(0);
    expect(idsOf(walk(h, '/v2/accounts', `filter=${filter}`))).toEqual(expected);
    expect(num(h.get(`/v2/accounts?filter=${filter}`).json, 'meta.results.total')).toBe(expected.length);
  });

  it.each(accountCases.slice(0, 12))('accounts filter=%s with sort=id and sort=-created_at', (filter, keep) => {
    const kept = accounts.filter(keep);
    expect(idsOf(walk(h, '/v2/accounts', `filter=${filter}&sort=id`))).toEqual(expectedOrder(kept, 'id', false));
    expect(idsOf(walk(h, '/v2/accounts', `filter=${filter}&sort=-created_at`))).toEqual(expectedOrder(kept, 'created_at', true));
  });

  const name = pick(customers, 5, 'name');
  const customerCases: readonly [string, (r: Item) => boolean][] = [
    [`eq(name,${name})`, (r) => value(r, 'name') === name],
    [`ilike(name,${name.toUpperCase().slice(0, 4)}*)`, (r) => (value(r, 'name') ?? '').toLowerCase().startsWith(name.toLowerCase().slice(0, 4))],
    [`in(name,${name},${pick(customers, 6, 'name')})`, (r) => [name, pick(customers, 6, 'name')].includes(value(r, 'name') ?? '')],
    [`contains(name,${name.split(' ')[1] ?? ''})`, (r) => (value(r, 'name') ?? '').includes(name.split(' ')[1] ?? '')],
    [`gt(name,${name})`, (r) => cmp(value(r, 'name'), name) > 0],
    [`le(name,${name})`, (r) => cmp(value(r, 'name'), name) <= 0],
    [`like(name,"${name}")`, (r) => value(r, 'name') === name],
  ];

  it.each(customerCases)('customers filter=%s holds on every record', (filter, keep) => {
    const expected = customers.filter(keep).map((r) => str(r, 'id'));
    expect(expected.length).toBeGreaterThan(0);
    expect(idsOf(walk(h, '/v2/customers', `filter=${encodeURIComponent(filter)}`))).toEqual(expected);
  });

  it('is_null(name) matches no seeded customer, and keeps meta', () => {
    const res = h.get('/v2/customers?filter=is_null(name)');
    expect(items(res)).toEqual([]);
    expect(num(res.json, 'meta.results.total')).toBe(0);
  });

  it('reads timestamps in other forms: no milliseconds, an offset sent with a raw +', () => {
    const at50 = pick(accounts, 50, 'created_at');
    const expected = accounts.filter((r) => cmp(value(r, 'created_at'), at50) >= 0).length;
    const noMillis = at50.replace('.000Z', 'Z');
    expect(num(h.get(`/v2/accounts?filter=ge(created_at,${noMillis})`).json, 'meta.results.total')).toBe(expected);
    const d = new Date(Date.parse(at50) + 3_600_000).toISOString().replace('.000Z', '+01:00');
    expect(num(h.get(`/v2/accounts?filter=ge(created_at,${d})`).json, 'meta.results.total')).toBe(expected);
  });

  it.each([
    ['an unknown attribute', 'eq(colour,red)'],
    ['an operator the attribute does not allow', 'ilike(name,acme*)'],
    ['a range operator on a string-only attribute', 'gt(legal_name,A)'],
    ['an unknown operator', 'foo(name,x)'],
    ['an unclosed clause', 'eq(name,x'],
    ['a missing value', 'eq(name)'],
    ['too many values', 'eq(name,a,b)'],
    ['a bad separator', 'eq(name,a);eq(name,b)'],
    ['an invalid date', 'gt(created_at,yesterday)'],
    ['an empty filter', ''],
    ['eleven clauses', Array.from({ length: 11 }, () => 'like(name,*)').join(':')],
    ['more than 8 KB', `eq(name,${'x'.repeat(8200)})`],
  ])('%s answers 400', (_name, filter) => {
    expectErrorShape(h.get(`/v2/accounts?filter=${filter}`), 400);
  });

  it('an unparseable filter answers the documented detail', () => {
    expect(at(h.get('/v2/accounts?filter=eq(name,x').json, 'errors.0.detail')).toBe('Could not parse the supplied filter');
  });

  it('ten clauses are allowed', () => {
    expect(h.get(`/v2/accounts?filter=${Array.from({ length: 10 }, () => 'like(name,*)').join(':')}`).status).toBe(200);
  });
});

describe('large-data pattern (§4.3)', () => {
  it('sort=id with gt(id,<last>) and page[limit]=100 visits every account once and ends on an empty page', () => {
    const h = harness({ accounts: 345 });
    const seen: string[] = [];
    let last: string | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const res = h.get(`/v2/accounts?page[limit]=100&sort=id${last === undefined ? '' : `&filter=gt(id,${last})`}`);
      const page = ids(res);
      if (page.length === 0) break;
      seen.push(...page);
      last = page[page.length - 1];
    }
    expect(seen).toHaveLength(345);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(345);
  });

  it('shared timestamps: ge on created_at plus offset paging on uniform pages visits every record once', () => {
    const h = harness({ profile: 'shared-timestamps', accounts: 420, burst: 150 });
    const seen = new Set<string>();
    let cursor: string | undefined;
    let offset = 0;
    for (let guard = 0; guard < 50; guard++) {
      const filter = cursor === undefined ? '' : `&filter=ge(created_at,${cursor})`;
      const page = items(h.get(`/v2/accounts?page[limit]=100&sort=created_at&page[offset]=${offset}${filter}`));
      const fresh = page.filter((r) => !seen.has(str(r, 'id')));
      if (fresh.length === 0 && page.length < 100) break;
      for (const r of page) seen.add(str(r, 'id'));
      const first = value(page[0] ?? {}, 'created_at');
      const lastAt = value(page[page.length - 1] ?? {}, 'created_at') ?? undefined;
      if (first === lastAt && page.length === 100)
        offset += 100; // uniform page: page further on the same filter
      else {
        cursor = lastAt;
        offset = 0;
      }
    }
    expect(seen.size).toBe(420);
  });

  it('a deleted account disappears from list reads; an updated one moves in updated_at order', () => {
    const h = harness({ accounts: 10 });
    const before = ids(h.get('/v2/accounts?sort=updated_at'));
    const [first, second] = before;
    expect(h.del(`/v2/accounts/${first}`).status).toBe(204);
    const put = h.put(`/v2/accounts/${second}`, { data: { type: 'account', name: 'Renamed' } });
    expect(put.status).toBe(200);
    const after = ids(h.get('/v2/accounts?sort=updated_at'));
    expect(after).not.toContain(first);
    expect(after[after.length - 1]).toBe(second);
    expect(num(h.get('/v2/accounts').json, 'meta.results.total')).toBe(9);
  });
});
