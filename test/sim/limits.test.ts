/**
 * What one client can make the simulator hold or do (issue 10): field lengths, projects that share the
 * seed, filters answered from the indexes. Work is measured in records visited, never in time.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CLIENT_ID_LENGTH, MAX_PASSWORD_LENGTH, MAX_TEXT_LENGTH } from '../../src/engine/field-limits.js';
import { parseFilter } from '../../src/engine/filter.js';
import { Collection, type SimRecord } from '../../src/store/collection.js';
import { accounts } from '../../src/store/resources.js';
import { at, expectErrorShape, harness, num, profileBody, profilePath } from './helpers.js';

describe('field length limits', () => {
  const h = harness();

  it.each(['name', 'legal_name', 'registration_id', 'external_ref'])('an account %s past %i characters answers 400 naming the field; at the limit it is stored', (field) => {
    const long = h.post('/v2/accounts', { data: { type: 'account', name: 'n', [field]: 'x'.repeat(MAX_TEXT_LENGTH + 1) } });
    expectErrorShape(long, 400);
    expect(long.body).toContain(`data.${field}`);
    expect(h.post('/v2/accounts', { data: { type: 'account', name: 'n', [field]: 'é'.repeat(MAX_TEXT_LENGTH) } }).status).toBe(201);
  });

  it('a megabyte name is refused, so a page of 100 records stays small whatever was written', () => {
    expectErrorShape(h.post('/v2/accounts', { data: { type: 'account', name: 'x'.repeat(1_000_000) } }), 400);
    const id = String(at(h.get('/v2/accounts?page[limit]=1').json, 'data.0.id'));
    expectErrorShape(h.put(`/v2/accounts/${id}`, { data: { type: 'account', name: 'x'.repeat(MAX_TEXT_LENGTH + 1) } }), 400);
  });

  it('password-profile-info username and password have maxima too (create and update)', () => {
    const path = profilePath(h.ids);
    const username = h.post(path, profileBody(h.ids, { username: 'u'.repeat(MAX_TEXT_LENGTH + 1) }));
    expectErrorShape(username, 400);
    expect(username.body).toContain('data.username');
    const password = h.post(path, profileBody(h.ids, { password: 'p'.repeat(MAX_PASSWORD_LENGTH + 1) }));
    expectErrorShape(password, 400);
    expect(password.body).toContain('data.password');
    expect(password.body).not.toContain('pppppppp');
    const created = h.post(path, profileBody(h.ids, { password: 'p'.repeat(MAX_PASSWORD_LENGTH) }));
    expect(created.status).toBe(201);
    const id = String(at(created.json, 'data.id'));
    expectErrorShape(h.put(`${path}/${id}`, { data: { type: 'user_authentication_password_profile_info', username: 'u'.repeat(MAX_TEXT_LENGTH + 1) } }), 400);
  });

  it('the token endpoint refuses a client id past the limit (it would name a project)', () => {
    const res = h.call('POST', '/oauth/access_token', {
      token: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=${'c'.repeat(MAX_CLIENT_ID_LENGTH + 1)}&client_secret=s`,
    });
    expectErrorShape(res, 400);
    expect(h.sim.projectIds()).not.toContain('c'.repeat(MAX_CLIENT_ID_LENGTH + 1));
  });
});

describe('projects share the seed', () => {
  it('a new client id reads the same seeded records without copying them; its writes stay its own', () => {
    const h = harness({ accounts: 2000 });
    const first = h.sim.project('a').list(accounts);
    const second = h.sim.project('b').list(accounts);
    const page = (c: Collection) => c.page({ clauses: [], sort: { field: 'id', direction: 'asc' }, offset: 0, limit: 5 }).records;
    // The very same record objects: one seeded copy for every project.
    expect(page(first)[0]).toBe(page(second)[0]);
    expect(first.ownRecords()).toHaveLength(0);
    const target = page(first)[0] as SimRecord;
    first.update(target, (r) => {
      r.attrs['name'] = 'Changed in a';
    });
    expect(first.get(target.id)?.attrs['name']).toBe('Changed in a');
    expect(second.get(target.id)?.attrs['name']).not.toBe('Changed in a');
    expect(first.ownRecords()).toHaveLength(1);
  });

  it('over HTTP-shaped calls: 50 client ids reading 20,000 accounts hold no seeded record of their own', () => {
    const h = harness({ accounts: 20_000 });
    for (let i = 0; i < 50; i++) {
      const token = h.sim.issueToken(`client-${i}`, 'read-write');
      expect(h.get('/v2/accounts?page[limit]=100&page[offset]=500', { token }).status).toBe(200);
      expect(h.sim.project(`client-${i}`).ownRecordCount).toBe(0);
    }
  });
});

/** A collection that counts the records its reads look at (the base's index entries it visits). */
function countingBase(n: number): { base: Collection; visits: () => number } {
  let visits = 0;
  const records: SimRecord[] = [];
  for (let i = 0; i < n; i++) {
    const record = {
      id: `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`,
      createdMs: Date.UTC(2024, 0, 1) + i * 1000,
      updatedMs: Date.UTC(2024, 0, 1) + ((i * 7919) % n) * 1000,
      attrs: { name: `N${i}` },
    };
    records.push(
      new Proxy(record, {
        get(target, key, receiver) {
          if (key === 'updatedMs') visits++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      }),
    );
  }
  const base = new Collection(accounts.filter);
  base.load(records);
  return { base, visits: () => visits };
}

describe('filters are answered from the ordered indexes', () => {
  it('ten timestamp clauses off the sort field are one interval, read from its own index: a narrow one visits few records', () => {
    const h = harness({ accounts: 50_000 });
    const t = (s: number) => new Date(Date.UTC(2024, 0, 1) + s * 30_000).toISOString();
    const clauses = Array.from({ length: 5 }, (_, i) => `gt(updated_at,${t(20_000 + i)}):lt(updated_at,${t(20_040 - i)})`).join(':');
    const res = h.get(`/v2/accounts?filter=${clauses}&page[limit]=100`);
    expect(res.status).toBe(200);
    expect(num(res.json, 'meta.results.total')).toBeGreaterThan(0);
    // The same answer as the plain reading, on a collection that counts what it touches.
    const { base, visits } = countingBase(50_000);
    const coll = new Collection(accounts.filter, base);
    const from = new Date(Date.UTC(2024, 0, 1) + 20_000_000).toISOString();
    const to = new Date(Date.UTC(2024, 0, 1) + 20_100_000).toISOString();
    coll.page({ clauses: [{ op: 'gt', field: 'updated_at', values: [from] }], sort: { field: 'created_at', direction: 'asc' }, offset: 0, limit: 1 }); // builds the indexes
    const before = visits();
    const page = coll.page({
      clauses: Array.from({ length: 10 }, (_, i) => ({ op: i % 2 === 0 ? ('gt' as const) : ('lt' as const), field: 'updated_at', values: [i % 2 === 0 ? from : to] })),
      sort: { field: 'created_at', direction: 'asc' },
      offset: 0,
      limit: 100,
    });
    expect(page.total).toBe(99);
    // 99 matches: the reads look at those, not at the 50,000 records a scan would.
    expect(visits() - before).toBeLessThan(500);
  });
});

/** A base of `n` accounts whose reads count the distinct records they look at (any field). */
function touchingBase(n: number): { base: Collection; records: SimRecord[]; touched: Set<SimRecord> } {
  const touched = new Set<SimRecord>();
  const records: SimRecord[] = [];
  for (let i = 0; i < n; i++) {
    const record: SimRecord = {
      id: `${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`,
      createdMs: Date.UTC(2024, 0, 1) + i * 30_000,
      updatedMs: Date.UTC(2024, 0, 1) + ((i * 7919) % n) * 30_000,
      attrs: { name: `N${i}` },
    };
    const counted: SimRecord = new Proxy(record, {
      get(target, key, receiver) {
        touched.add(counted);
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    records.push(counted);
  }
  const base = new Collection(accounts.filter);
  base.load(records);
  return { base, records, touched };
}

describe('a work budget per list read (--max-scan is its unit)', () => {
  const T0 = Date.UTC(2024, 0, 1);
  const iso = (ms: number) => new Date(ms).toISOString();
  /** 4,000 values in 8 KiB, as the found defect sent them, with `real` ids among them. */
  const manyIds = (real: readonly string[]) => [...real, ...Array.from({ length: 4000 - real.length }, (_, i) => (i % 36).toString(36))].join(',');

  it('in(id, 4,000 values) inside a created_at range is answered by looking the ids up, not by testing each record of the range', () => {
    const { base, records, touched } = touchingBase(20_000);
    const wanted = [records[5], records[17_000], records[9_999]].map((r) => (r as SimRecord).id);
    const clauses = parseFilter(`ge(created_at,${iso(T0)}):lt(created_at,${iso(T0 + 20_000 * 30_000)}):in(id,${manyIds(wanted)})`, accounts.filter);
    if (!clauses.ok) throw new Error('filter');
    const read = { clauses: clauses.value, sort: { field: 'created_at', direction: 'asc' as const }, offset: 0, limit: 100 };
    base.page({ ...read, clauses: [] }); // builds the index
    touched.clear();
    const page = base.page(read);
    expect(page.refused).toBeUndefined();
    expect(page.records.map((r) => r.id)).toEqual([wanted[0], wanted[2], wanted[1]]);
    // Three found records and the index cuts' binary searches: not the 20,000 of the range.
    expect(touched.size).toBeLessThan(200);
  });

  it("over HTTP: the found defect's filter answers 200 with the right page under a budget its scan would pass many times over", () => {
    const h = harness({ accounts: 5000, maxScan: 1000 });
    const some = (h.get('/v2/accounts?page[limit]=3&page[offset]=2000').json as { data: { id: string }[] }).data.map((r) => r.id);
    const res = h.get(`/v2/accounts?filter=ge(created_at,${iso(T0)}):lt(created_at,${iso(T0 + 5000 * 30_000)}):in(id,${manyIds(some)})`);
    expect(res.status).toBe(200);
    expect(num(res.json, 'meta.results.total')).toBe(3);
    expect((res.json as { data: { id: string }[] }).data.map((r) => r.id)).toEqual(some);
  });

  it('costly tests weigh more: the same 900 records pass with one simple pattern, and are refused with a pattern of many parts or ten patterns', () => {
    const h = harness({ accounts: 5000, maxScan: 1000 });
    const range = `ge(created_at,${iso(T0)}):lt(created_at,${iso(T0 + 900 * 30_000)})`;
    expect(h.get(`/v2/accounts?filter=${range}:like(name,*1*)`).status).toBe(200);
    for (const costly of [`like(name,${'*e'.repeat(40)}*)`, Array.from({ length: 8 }, () => 'like(name,*1*)').join(':')]) {
      const res = h.get(`/v2/accounts?filter=${range}:${costly}`);
      expectErrorShape(res, 400);
      expect(at(res.json, 'errors.0.source')).toBe('filter');
      expect(res.body).toContain('--max-scan');
      expect(res.body).toContain('1000');
    }
  });

  it("long values cost a pattern search by their length, in the layer that holds them: the seed's reads cost the same after long writes", () => {
    const written = (name: string) => {
      const h = harness({ accounts: 5000, maxScan: 1000 });
      for (let i = 0; i < 100; i++) expect(h.post('/v2/accounts', { data: { type: 'account', name } }).status).toBe(201);
      return h;
    };
    const long = written('a'.repeat(MAX_TEXT_LENGTH));
    const short = written('a');
    // 100 written records (the clock starts after the seed): a search may read each long one whole.
    const ofWritten = '/v2/accounts?filter=ge(created_at,2025-01-01T00:00:00Z):like(name,*aaaaaaaab*)';
    expect(short.get(ofWritten).status).toBe(200);
    const refused = long.get(ofWritten);
    expectErrorShape(refused, 400);
    expect(refused.body).toContain('--max-scan');
    // The seed's 900 records with one simple pattern cost what they cost beside short writes.
    const ofSeed = parseFilter(`ge(created_at,${iso(T0)}):lt(created_at,${iso(T0 + 900 * 30_000)}):like(name,*1*)`, accounts.filter);
    if (!ofSeed.ok) throw new Error('filter');
    const cost = (h: ReturnType<typeof harness>) =>
      h.sim
        .project(h.sim.defaultClientId)
        .list(accounts)
        .page({ clauses: ofSeed.value, sort: { field: 'created_at', direction: 'asc' }, offset: 0, limit: 25 }).cost;
    expect(cost(long)).toBe(cost(short));
  });

  it("a read led by another field's index is bounded too: 2,000 records of an updated_at range with a pattern, sorted by created_at", () => {
    const h = harness({ accounts: 50_000, maxScan: 1000 });
    const from = iso(T0 + 20_000 * 30_000);
    const to = iso(T0 + 22_000 * 30_000);
    const res = h.get(`/v2/accounts?filter=ge(updated_at,${from}):lt(updated_at,${to}):like(name,*1*)`);
    expectErrorShape(res, 400);
    expect(res.body).toContain('--max-scan');
    // With room for it, the same read is answered.
    expect(harness({ accounts: 50_000, maxScan: 250_000 }).get(`/v2/accounts?filter=ge(updated_at,${from}):lt(updated_at,${to}):like(name,*1*)`).status).toBe(200);
  });
});

describe('scans are bounded (--max-scan)', () => {
  it('a filter no index answers, over more records than maxScan, answers 400 naming the limit; narrowed by a range, it is answered', () => {
    const h = harness({ accounts: 5000, maxScan: 1000 });
    const broad = h.get('/v2/accounts?filter=like(name,*1*)');
    expectErrorShape(broad, 400);
    expect(broad.body).toContain('--max-scan');
    const t0 = new Date(Date.UTC(2024, 0, 1)).toISOString();
    const t1 = new Date(Date.UTC(2024, 0, 1) + 900 * 30_000).toISOString();
    const narrowed = h.get(`/v2/accounts?filter=ge(created_at,${t0}):lt(created_at,${t1}):like(name,*1*)`);
    expect(narrowed.status).toBe(200);
    expect(num(narrowed.json, 'meta.results.total')).toBeGreaterThan(0);
    // Index-answered reads are never refused, whatever the size.
    expect(h.get('/v2/accounts?sort=id&page[offset]=4000').status).toBe(200);
    expect(h.get(`/v2/accounts?filter=gt(updated_at,${t0})`).status).toBe(200);
  });
});
