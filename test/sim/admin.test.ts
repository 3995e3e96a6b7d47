/** The admin API under /__sim/ (reset, seed, clock, settings, adversity, snapshot/restore), guarded by its own token. */
import { describe, expect, it } from 'vitest';
import { at, expectErrorShape, harness, ids, items, num, parseJson, profileBody, profilePath, str, type Harness } from './helpers.js';

const ADMIN_ROUTES: readonly [string, string, unknown?][] = [
  ['GET', '/__sim/state'],
  ['POST', '/__sim/reset'],
  ['POST', '/__sim/seed', { accounts: 5 }],
  ['POST', '/__sim/clock', { advance_ms: 1000 }],
  ['PUT', '/__sim/settings', { page_offset_limit: 20_000 }],
  ['PUT', '/__sim/adversity', { rate_limit_share: 0 }],
  ['PATCH', '/__sim/adversity', { rate_limit_share: 0 }],
  ['GET', '/__sim/snapshot'],
  ['POST', '/__sim/restore', { version: 2, options: {}, projects: [], drop_projects: true }],
];

describe('the admin token', () => {
  const h = harness();

  it.each(ADMIN_ROUTES)('%s %s needs the admin token: none or an API token answers 401', (method, url, body) => {
    const withBody = body === undefined ? {} : { body };
    expectErrorShape(h.call(method, url, { token: null, ...withBody }), 401);
    expectErrorShape(h.call(method, url, withBody), 401);
    expect(h.admin(method, url, body).status).toBe(200);
  });

  it('the admin API is never under /v2, and the admin token opens nothing under /v2', () => {
    for (const [method, url] of ADMIN_ROUTES) expectErrorShape(h.call(method, `/v2${url}`, { token: h.sim.adminToken }), 404);
    expectErrorShape(h.get('/v2/accounts', { token: h.sim.adminToken }), 401);
  });

  it('the admin token is derived from the seed and differs between seeds', () => {
    expect(harness().sim.adminToken).toBe(h.sim.adminToken);
    expect(harness({ seed: 7 }).sim.adminToken).not.toBe(h.sim.adminToken);
  });

  it('GET /__sim/state describes the simulator', () => {
    const res = h.admin('GET', '/__sim/state');
    expect(at(res.json, 'data')).toMatchObject({ seed: 42, base_url: 'http://127.0.0.1:4747', default_client_id: 'commerce-sim', ids: h.ids });
    expect(res.body).not.toContain(h.sim.adminToken);
  });
});

describe('reset and seed', () => {
  it('reset forgets every write and setting, keeps tokens valid', () => {
    const h = harness();
    const before = h.get('/v2/accounts?page[limit]=100').body;
    h.post(profilePath(h.ids), profileBody(h.ids));
    h.post('/v2/accounts', { data: { type: 'account', name: 'New' } });
    h.put('/v2/settings', { data: { type: 'settings', page_length: 3 } });
    h.admin('PUT', '/__sim/settings', { page_offset_limit: 50_000 });
    expect(h.admin('POST', '/__sim/reset').status).toBe(200);
    expect(h.get('/v2/accounts?page[limit]=100').body).toBe(before);
    expect(items(h.get(profilePath(h.ids)))).toHaveLength(0);
    expect(at(h.get('/v2/settings').json, 'data')).toMatchObject({ page_length: 25, page_offset_limit: 10_000 });
  });

  it('seed with accounts and counts changes the dataset of every project', () => {
    const h = harness();
    const res = h.admin('POST', '/__sim/seed', { accounts: 7, counts: { orders: 3, customers: 0 } });
    expect(res.status).toBe(200);
    expect(num(h.get('/v2/accounts').json, 'meta.results.total')).toBe(7);
    expect(num(h.get('/v2/orders').json, 'meta.results.total')).toBe(3);
    expect(num(h.get('/v2/customers').json, 'meta.results.total')).toBe(0);
    const other = h.sim.issueToken('other', 'read-write');
    expect(num(h.get('/v2/accounts', { token: other }).json, 'meta.results.total')).toBe(7);
  });

  it('seed with a new seed changes the data, and the same seed gives it back; tokens stay valid', () => {
    const h = harness();
    const first = ids(h.get('/v2/accounts'));
    h.admin('POST', '/__sim/seed', { seed: 7 });
    const seven = ids(h.get('/v2/accounts'));
    expect(seven).not.toEqual(first);
    h.admin('POST', '/__sim/seed', { seed: 42 });
    expect(ids(h.get('/v2/accounts'))).toEqual(first);
  });

  it('seed with the shared-timestamps profile makes bursts larger than a page', () => {
    const h = harness();
    h.admin('POST', '/__sim/seed', { profile: 'shared-timestamps', accounts: 300, burst: 120 });
    const page = items(h.get('/v2/accounts?page[limit]=100&sort=created_at'));
    const times = new Set(page.map((r) => str(r, 'meta.timestamps.created_at')));
    expect(times.size).toBe(1);
    expect(num(h.get(`/v2/accounts?filter=eq(created_at,${[...times][0] ?? ''})`).json, 'meta.results.total')).toBe(120);
  });

  it.each([
    ['a negative seed', { seed: -1 }],
    ['a fractional account count', { accounts: 1.5 }],
    ['too many accounts', { accounts: 3_000_000 }],
    ['an unknown profile', { profile: 'chaos' }],
    ['a zero burst', { burst: 0 }],
    ['counts not an object', { counts: [1] }],
    ['a negative count', { counts: { orders: -1 } }],
    ['a JSON array', []],
  ])('seed refuses %s with 400 and changes nothing', (_name, body) => {
    const h = harness();
    expectErrorShape(h.admin('POST', '/__sim/seed', body), 400);
    expect(num(h.get('/v2/accounts').json, 'meta.results.total')).toBe(120);
  });

  it('seed refuses malformed JSON', () => {
    const h = harness();
    expectErrorShape(h.admin('POST', '/__sim/seed', '{"accounts":'), 400);
  });
});

describe('the virtual clock', () => {
  it('starts at a fixed time and moves one step per write', () => {
    const h = harness();
    const a = str(h.post(profilePath(h.ids), profileBody(h.ids)).json, 'data.meta.created_at');
    const b = str(h.post(profilePath(h.ids), profileBody(h.ids)).json, 'data.meta.created_at');
    expect(a).toBe('2025-01-01T00:00:01.000Z');
    expect(Date.parse(b) - Date.parse(a)).toBe(1000);
  });

  it('the step is configurable', () => {
    const h = harness({ clock: { stepMs: 250 } });
    h.post(profilePath(h.ids), profileBody(h.ids));
    expect(str(h.post(profilePath(h.ids), profileBody(h.ids)).json, 'data.meta.created_at')).toBe('2025-01-01T00:00:00.500Z');
  });

  it('reads do not move it', () => {
    const h = harness();
    for (let i = 0; i < 5; i++) h.get('/v2/accounts');
    expect(str(h.post(profilePath(h.ids), profileBody(h.ids)).json, 'data.meta.created_at')).toBe('2025-01-01T00:00:01.000Z');
  });

  it('POST /__sim/clock advances it, per project', () => {
    const h = harness();
    const res = h.admin('POST', '/__sim/clock', { advance_ms: 3_600_000 });
    expect(at(res.json, 'data')).toEqual({ client_id: 'commerce-sim', now: '2025-01-01T01:00:00.000Z' });
    expect(str(h.post(profilePath(h.ids), profileBody(h.ids)).json, 'data.meta.created_at')).toBe('2025-01-01T01:00:01.000Z');
    const other = h.sim.issueToken('other', 'read-write');
    expect(str(h.post(profilePath(h.ids), profileBody(h.ids), { token: other }).json, 'data.meta.created_at')).toBe('2025-01-01T00:00:01.000Z');
  });

  it.each([[{ advance_ms: -5 }], [{ advance_ms: 1.5 }], [{ advance_ms: '10' }], [{}]])('refuses %j with 400', (body) => {
    expectErrorShape(harness().admin('POST', '/__sim/clock', body), 400);
  });

  it('refuses to move past year 9999, and the simulator keeps answering reads and writes', () => {
    const h = harness();
    expectErrorShape(h.admin('POST', '/__sim/clock', { advance_ms: 1e300 }), 400);
    expect(h.post('/v2/accounts', { data: { type: 'account', name: 'After' } }).status).toBe(201);
    expect(h.get('/v2/accounts?sort=-created_at&page[limit]=1').status).toBe(200);
    expect(h.admin('GET', '/__sim/state').status).toBe(200);
  });

  it('wall-clock mode takes time from the injected clock only', () => {
    let now = Date.UTC(2030, 0, 1);
    const h = harness({ clock: { mode: 'wall' }, wallClock: () => now });
    expect(str(h.post(profilePath(h.ids), profileBody(h.ids)).json, 'data.meta.created_at')).toBe('2030-01-01T00:00:00.000Z');
    now += 1234;
    expect(str(h.post(profilePath(h.ids), profileBody(h.ids)).json, 'data.meta.created_at')).toBe('2030-01-01T00:00:01.234Z');
  });
});

describe('soft offset limit and adversity settings', () => {
  it.each([[{ page_offset_limit: 0 }], [{ page_offset_limit: -1 }], [{ page_offset_limit: 'big' }], [{ page_offset_limit: 1e300 }], [{}]])('PUT /__sim/settings refuses %j', (body) => {
    expectErrorShape(harness().admin('PUT', '/__sim/settings', body), 400);
  });

  it('PUT /__sim/adversity answers the values and refuses bad ones', () => {
    const h = harness();
    const res = h.admin('PUT', '/__sim/adversity', { consistency_window_ms: 5000, retry_after_seconds: 2 });
    expect(at(res.json, 'data')).toMatchObject({ consistency_window_ms: 5000, retry_after_seconds: 2, rate_limit_share: 0, updates_per_read: 0 });
    expectErrorShape(h.admin('PUT', '/__sim/adversity', { rate_limit_share: 2 }), 400);
    expectErrorShape(h.admin('PUT', '/__sim/adversity', { consistency_window_ms: -1 }), 400);
  });

  it('PUT /__sim/adversity replaces: a field not given returns to its default', () => {
    const h = harness();
    h.admin('PUT', '/__sim/adversity', { consistency_window_ms: 5000, rate_limit_share: 0.5, latency_by_path: { '/v2': 10 } });
    const res = h.admin('PUT', '/__sim/adversity', { retry_after_seconds: 2 });
    expect(at(res.json, 'data')).toMatchObject({ consistency_window_ms: 0, rate_limit_share: 0, retry_after_seconds: 2, latency_by_path: {} });
    expect(at(h.admin('GET', '/__sim/adversity').json, 'data')).toMatchObject({ consistency_window_ms: 0, rate_limit_share: 0, retry_after_seconds: 2 });
    // The whole of it given back to its defaults: the project holds nothing a restore would miss.
    h.admin('PUT', '/__sim/adversity', {});
    expect(h.sim.existingProject(h.sim.defaultClientId)?.pristine).toBe(true);
  });

  it('PATCH /__sim/adversity merges: the fields not given keep their values; a refused body changes nothing', () => {
    const h = harness();
    h.admin('PUT', '/__sim/adversity', { consistency_window_ms: 5000, rate_limit_share: 0.5 });
    const res = h.admin('PATCH', '/__sim/adversity', { retry_after_seconds: 2 });
    expect(at(res.json, 'data')).toMatchObject({ consistency_window_ms: 5000, rate_limit_share: 0.5, retry_after_seconds: 2 });
    expectErrorShape(h.admin('PATCH', '/__sim/adversity', { retry_after_seconds: 3, rate_limit_share: 2 }), 400);
    expectErrorShape(h.admin('PUT', '/__sim/adversity', { retry_after_seconds: 3, rate_limit_share: 2 }), 400);
    expect(at(h.admin('GET', '/__sim/adversity').json, 'data')).toMatchObject({ consistency_window_ms: 5000, rate_limit_share: 0.5, retry_after_seconds: 2 });
    const preset = h.admin('PATCH', '/__sim/adversity', { preset: 'rate-limited', consistency_window_ms: 7 });
    expect(at(preset.json, 'data')).toMatchObject({ rate_limit_share: 0.2, consistency_window_ms: 7 });
  });

  it('a rate-limit share of 1 answers 429 with Retry-After to API calls, never to the admin API', () => {
    const h = harness();
    h.admin('PUT', '/__sim/adversity', { rate_limit_share: 1, retry_after_seconds: 3 });
    const res = h.get('/v2/accounts');
    expectErrorShape(res, 429);
    expect(res.headers['retry-after']).toBe('3');
    expect(h.admin('GET', '/__sim/state').status).toBe(200);
  });

  it('a consistency window hides records created within it until the clock passes it', () => {
    const h = harness();
    h.admin('PUT', '/__sim/adversity', { consistency_window_ms: 10_000 });
    const made = str(h.post('/v2/accounts', { data: { type: 'account', name: 'Fresh' } }).json, 'data.id');
    expect(ids(h.get('/v2/accounts?filter=eq(name,Fresh)'))).toEqual([]);
    h.admin('POST', '/__sim/clock', { advance_ms: 10_000 });
    expect(ids(h.get('/v2/accounts?filter=eq(name,Fresh)'))).toEqual([made]);
  });
});

/** A fixed sequence of requests whose responses depend on every part of the state. */
function probe(h: Harness): string[] {
  const other = h.sim.issueToken('suite-b', 'read-write');
  return [
    h.get('/v2/settings').body,
    h.get('/v2/accounts?page[limit]=100&sort=-updated_at').body,
    h.get(profilePath(h.ids)).body,
    h.post(profilePath(h.ids), profileBody(h.ids, { username: 'after@example.com' })).body,
    h.post('/v2/accounts', { data: { type: 'account', name: 'After' } }).body,
    h.get('/v2/orders?page[offset]=15000').body,
    h.get('/v2/accounts', { token: other }).body,
    h.get('/v2/customers?page[limit]=3').body,
  ];
}

function mutate(h: Harness): void {
  const other = h.sim.issueToken('suite-b', 'read-write');
  h.post(profilePath(h.ids), profileBody(h.ids));
  const account = ids(h.get('/v2/accounts?page[limit]=2'));
  h.put(`/v2/accounts/${account[0] ?? ''}`, { data: { type: 'account', name: 'Changed' } });
  h.del(`/v2/accounts/${account[1] ?? ''}`);
  h.put('/v2/settings', { data: { type: 'settings', page_length: 9 } });
  h.put('/v2/settings', { data: { type: 'settings', page_length: 4 } }, { token: other });
  h.admin('PUT', '/__sim/settings', { page_offset_limit: 30_000 });
  h.admin('POST', '/__sim/clock', { advance_ms: 86_400_000 });
}

describe('snapshot and restore', () => {
  it('the snapshot holds passwords only as salted hashes', () => {
    const h = harness();
    h.post(profilePath(h.ids), profileBody(h.ids, { password: 'very-secret-password' }));
    const snap = h.admin('GET', '/__sim/snapshot');
    expect(snap.status).toBe(200);
    expect(snap.body).not.toContain('very-secret-password');
    expect(snap.body).toMatch(/pbkdf2-sha256\$/);
  });

  it('restore brings back the state: the same requests then give byte-identical responses', () => {
    const h = harness();
    mutate(h);
    const snap = h.admin('GET', '/__sim/snapshot').body;
    const expected = probe(h);
    // Change everything again, in the snapshotted projects and in a new one, and reseed.
    mutate(h);
    h.post(profilePath(h.ids), profileBody(h.ids), { token: h.sim.issueToken('suite-c', 'read-write') });
    h.admin('POST', '/__sim/seed', { accounts: 3 });
    expect(h.admin('POST', '/__sim/restore', snap).status).toBe(200);
    expect(probe(h)).toEqual(expected);
  });

  it('a snapshot restores into a fresh simulator of the same seed', () => {
    const a = harness();
    mutate(a);
    const snap = a.admin('GET', '/__sim/snapshot').body;
    const expected = probe(a);
    const b = harness();
    expect(b.admin('POST', '/__sim/restore', snap).status).toBe(200);
    expect(probe(b)).toEqual(expected);
  });

  it.each([
    ['not JSON', '{'],
    ['not a snapshot', { hello: 1 }],
    ['another version', { version: 3, options: {}, projects: [] }],
    ['a version 1 snapshot (every record, before copy-on-write projects)', { version: 1, projects: [] }],
    ['a project without a client id', { version: 2, options: {}, projects: [{}] }],
    ['a project with junk state', { version: 2, options: {}, projects: [{ clientId: 'x', settings: 'no', lists: 5 }] }],
  ])('restore refuses %s with 400 and keeps the state', (_name, body) => {
    const h = harness();
    h.put('/v2/settings', { data: { type: 'settings', page_length: 9 } });
    expectErrorShape(h.admin('POST', '/__sim/restore', body), 400);
    expect(num(h.get('/v2/accounts').json, 'meta.page.limit')).toBe(9);
  });

  /** A real snapshot (with a write in it) with the value at a dotted path replaced. */
  const bent = (path: string, value: unknown, options: Parameters<typeof harness>[0] = {}): unknown => {
    const h = harness(options);
    h.post('/v2/accounts', { data: { type: 'account', name: 'Snapshotted' } });
    const snap = parseJson(h.admin('GET', '/__sim/snapshot').body);
    const keys = path.split('.');
    const last = keys.pop() ?? '';
    const parent = at(snap, keys.join('.'));
    if (typeof parent !== 'object' || parent === null || !(last in parent)) throw new Error(`no ${path} in the snapshot`);
    Reflect.set(parent, last, value);
    return snap;
  };

  it.each([
    // PUT /__sim/adversity refuses more than 1000 per read: a trillion would hang the next list read.
    ['an adversity PUT /__sim/adversity would refuse', bent('projects.0.adversity.updatesPerRead', 1e12)],
    ['a clock past year 9999', bent('projects.0.now', 1e20)],
    ['a record past year 9999', bent('projects.0.lists.accounts.upserts.0.createdMs', 1e20)],
    ['more accounts than POST /__sim/seed allows', bent('options.accounts', 1e9, { accounts: 5 })],
  ])('restore refuses %s with 400, and reads keep working', (_name, body) => {
    const h = harness();
    expectErrorShape(h.admin('POST', '/__sim/restore', body), 400);
    expect(h.get('/v2/accounts?sort=-created_at&page[limit]=1').status).toBe(200);
    expect(h.admin('GET', '/__sim/state').status).toBe(200);
  });

  /** The snapshot with a change made to its parsed form. */
  const edited = (change: (snap: { options: Record<string, unknown>; projects: Record<string, unknown>[] }) => void): unknown => {
    const h = harness();
    h.post('/v2/accounts', { data: { type: 'account', name: 'Snapshotted' } });
    h.post('/v2/accounts', { data: { type: 'account', name: 'Second' } });
    const snap = JSON.parse(h.admin('GET', '/__sim/snapshot').body) as { options: Record<string, unknown>; projects: Record<string, unknown>[] };
    change(snap);
    return snap;
  };
  const accountsOf = (snap: { projects: Record<string, unknown>[] }) =>
    (snap.projects[0]?.['lists'] as Record<string, { upserts: Record<string, unknown>[]; deletes: string[] }>)['accounts'] as { upserts: Record<string, unknown>[]; deletes: string[] };

  it.each([
    [
      'a duplicate record id',
      'projects.0.lists.accounts.upserts.1.id',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        const a = accountsOf(s);
        (a.upserts[1] as Record<string, unknown>)['id'] = (a.upserts[0] as Record<string, unknown>)['id'];
      },
    ],
    [
      'an empty record id',
      'projects.0.lists.accounts.upserts.0.id',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        (accountsOf(s).upserts[0] as Record<string, unknown>)['id'] = '';
      },
    ],
    [
      'a __proto__ key among the attributes',
      'projects.0.lists.accounts.upserts.0.attrs.__proto__',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        const attrs = (accountsOf(s).upserts[0] as Record<string, unknown>)['attrs'] as Record<string, unknown>;
        // A string: an object here would nest deeper than a snapshot does, refused before it is parsed.
        Object.defineProperty(attrs, '__proto__', { value: 'polluted', enumerable: true });
      },
    ],
    [
      'a __proto__ collection name',
      'projects.0.lists.__proto__',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        Object.defineProperty(s.projects[0]?.['lists'], '__proto__', { value: { upserts: [] }, enumerable: true });
      },
    ],
    [
      'an offset limit of 1e300',
      'projects.0.settings.page_offset_limit',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        (s.projects[0]?.['settings'] as Record<string, unknown>)['page_offset_limit'] = 1e300;
      },
    ],
    [
      'a duplicate client id',
      'projects.1.clientId',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        s.projects.push({ ...(s.projects[0] as Record<string, unknown>) });
      },
    ],
    [
      'an account name past the field limit',
      'projects.0.lists.accounts.upserts.0.attrs.name',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        ((accountsOf(s).upserts[0] as Record<string, unknown>)['attrs'] as Record<string, unknown>)['name'] = 'x'.repeat(256);
      },
    ],
    [
      'an empty deleted id',
      'projects.0.lists.accounts.deletes.0',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        accountsOf(s).deletes.push('');
      },
    ],
    [
      'an id both written and deleted',
      'projects.0.lists.accounts.deletes.0',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        accountsOf(s).deletes.push(String((accountsOf(s).upserts[0] as Record<string, unknown>)['id']));
      },
    ],
    [
      'no dataset options (the start-up dataset would silently become the default one)',
      'options',
      (s: Parameters<Parameters<typeof edited>[0]>[0]) => {
        delete (s as Partial<typeof s>).options;
      },
    ],
  ])('restore refuses %s with 400 naming the member (%s)', (_name, path, change) => {
    const body = JSON.stringify(edited(change));
    const h = harness();
    h.put('/v2/settings', { data: { type: 'settings', page_length: 9 } });
    const res = h.admin('POST', '/__sim/restore', body);
    expectErrorShape(res, 400);
    expect(res.body).toContain(path);
    expect(num(h.get('/v2/accounts').json, 'meta.page.limit')).toBe(9);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a restore that would drop projects with changes needs "drop_projects": true; an empty snapshot does not wipe them silently', () => {
    const h = harness();
    h.post('/v2/accounts', { data: { type: 'account', name: 'Kept' } });
    const before = h.get('/v2/accounts?sort=-created_at&page[limit]=1').body;
    const empty = { version: 2, options: {}, projects: [] };
    const refused = h.admin('POST', '/__sim/restore', empty);
    expectErrorShape(refused, 409);
    expect(refused.body).toContain('commerce-sim');
    expect(h.get('/v2/accounts?sort=-created_at&page[limit]=1').body).toBe(before);
    expect(h.admin('POST', '/__sim/restore', { ...empty, drop_projects: true }).status).toBe(200);
    expect(h.get('/v2/accounts?sort=-created_at&page[limit]=1').body).not.toBe(before);
  });

  it('a snapshot holds only what projects changed, not the seeded records they share', () => {
    const h = harness({ accounts: 5000 });
    h.get('/v2/accounts');
    h.post('/v2/accounts', { data: { type: 'account', name: 'Only this' } });
    const snap = h.admin('GET', '/__sim/snapshot').body;
    expect(snap.length).toBeLessThan(5000);
    expect(snap).toContain('Only this');
  });
});
