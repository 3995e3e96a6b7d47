/** Authentication (commerce-api.md §5; docs/api-notes.md "Token endpoint", "Errors"), projects, and the seeded auth objects. */
import { describe, expect, it } from 'vitest';
import { FIXED_NOW, at, expectErrorShape, harness, ids, items, num, profileBody, profilePath, str, type Harness } from './helpers.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function token(h: Harness, body: string, headers: Record<string, string> = FORM) {
  return h.call('POST', '/oauth/access_token', { token: null, body, headers });
}

describe('POST /oauth/access_token', () => {
  it('client credentials: a read-write token, answered as docs/api-notes.md says (not wrapped in data)', () => {
    const h = harness();
    const res = token(h, 'grant_type=client_credentials&client_id=my-client&client_secret=s3cret');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      access_token: expect.stringMatching(/^\S{20,}$/),
      token_type: 'Bearer',
      expires: Math.floor(FIXED_NOW / 1000) + 3600,
      expires_in: 3600,
      identifier: 'client_credentials',
    });
    const bearer = str(res.json, 'access_token');
    expect(h.get('/v2/accounts', { token: bearer }).status).toBe(200);
    expect(h.post(profilePath(h.ids), profileBody(h.ids), { token: bearer }).status).toBe(201);
  });

  it('expires is unix seconds of the real time handed in, not of the virtual clock', () => {
    const h = harness({ wallClock: () => 2_000_000_000_123 });
    expect(num(token(h, 'grant_type=implicit&client_id=x').json, 'expires')).toBe(2_000_000_000 + 3600);
  });

  it('implicit: a read-only token; reads answer 200, writes 403', () => {
    const h = harness();
    const res = token(h, 'grant_type=implicit&client_id=my-client');
    expect(res.status).toBe(200);
    expect(at(res.json, 'identifier')).toBe('implicit');
    const bearer = str(res.json, 'access_token');
    expect(h.get('/v2/accounts', { token: bearer }).status).toBe(200);
    expect(h.get('/v2/settings', { token: bearer }).status).toBe(200);
    expect(h.get(profilePath(h.ids), { token: bearer }).status).toBe(200);
    expectErrorShape(h.post(profilePath(h.ids), profileBody(h.ids), { token: bearer }), 403);
    expectErrorShape(h.put('/v2/settings', { data: { type: 'settings', page_length: 5 } }, { token: bearer }), 403);
    expectErrorShape(h.post('/v2/accounts', { data: { type: 'account', name: 'x' } }, { token: bearer }), 403);
    expect(items(h.get(profilePath(h.ids)))).toHaveLength(0);
    expect(num(h.get('/v2/accounts').json, 'meta.page.limit')).toBe(25);
  });

  it('accepts a JSON body and a trailing slash too', () => {
    const h = harness();
    const res = h.call('POST', '/oauth/access_token/', { token: null, body: { grant_type: 'client_credentials', client_id: 'a', client_secret: 'b' } });
    expect(res.status).toBe(200);
  });

  it('gives any client id a token, and each call a new one', () => {
    const h = harness();
    const a = str(token(h, 'grant_type=implicit&client_id=one').json, 'access_token');
    const b = str(token(h, 'grant_type=implicit&client_id=one').json, 'access_token');
    const c = str(token(h, 'grant_type=implicit&client_id=two%20with%20spaces').json, 'access_token');
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it.each([
    ['no grant_type', 'client_id=a', 400],
    ['an unknown grant', 'grant_type=password&client_id=a', 400],
    ['no client_id', 'grant_type=implicit', 400],
    ['an empty client_id', 'grant_type=implicit&client_id=', 400],
    ['client credentials without a secret', 'grant_type=client_credentials&client_id=a', 401],
    ['an empty body', '', 400],
  ])('refuses %s', (_name, body, status) => {
    expectErrorShape(token(harness(), body), status);
  });

  it('refuses malformed JSON with 400', () => {
    expectErrorShape(token(harness(), '{"grant_type":', { 'content-type': 'application/json' }), 400);
  });

  it('answers 405 to GET', () => {
    const h = harness();
    const res = h.call('GET', '/oauth/access_token', { token: null });
    expectErrorShape(res, 405);
    expect(res.headers['allow']).toBe('POST');
  });
});

describe('401 without a valid bearer token (§5)', () => {
  const h = harness();
  const routes: readonly [string, string, unknown?][] = [
    ['GET', '/v2/accounts'],
    ['GET', '/v2/settings'],
    ['PUT', '/v2/settings', { data: { type: 'settings', page_length: 5 } }],
    ['POST', profilePath(h.ids), profileBody(h.ids)],
    ['POST', `${profilePath(h.ids)}/`, profileBody(h.ids)],
    ['GET', profilePath(h.ids)],
    ['GET', '/v2/authentication-realms'],
    ['GET', `/v2/authentication-realms/${h.ids.realm_id}`],
    ['GET', '/catalog/products'],
    ['GET', '/pcm/jobs'],
    ['POST', '/v2/accounts', { data: { type: 'account', name: 'x' } }],
  ];

  it.each(routes)('%s %s without Authorization answers 401 Unauthorized', (method, url, body) => {
    const res = h.call(method, url, { token: null, ...(body === undefined ? {} : { body }) });
    expectErrorShape(res, 401);
    expect(at(res.json, 'errors.0.title')).toBe('Unauthorized');
  });

  it.each([
    ['an unknown token', 'Bearer not-a-token'],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['an empty bearer', 'Bearer '],
    ['the bare token without a scheme', h.token],
    ['the admin token', `Bearer ${h.sim.adminToken}`],
  ])('%s answers 401', (_name, authorization) => {
    expectErrorShape(h.call('GET', '/v2/accounts', { token: null, headers: { authorization } }), 401);
  });

  it('the scheme is case-insensitive', () => {
    expect(h.call('GET', '/v2/accounts', { token: null, headers: { authorization: `bearer ${h.token}` } }).status).toBe(200);
  });

  it('a create without a token creates nothing', () => {
    const w = harness();
    w.post(profilePath(w.ids), profileBody(w.ids), { token: null });
    expect(items(w.get(profilePath(w.ids)))).toHaveLength(0);
  });
});

describe('projects: each client id its own store and settings', () => {
  it('writes and settings of one client id are invisible to another', () => {
    const h = harness();
    const other = h.sim.issueToken('suite-b', 'read-write');
    expect(h.put('/v2/settings', { data: { type: 'settings', page_length: 3 } }).status).toBe(200);
    expect(h.post(profilePath(h.ids), profileBody(h.ids)).status).toBe(201);
    h.post('/v2/accounts', { data: { type: 'account', name: 'Only in A' } });
    expect(num(h.get('/v2/accounts', { token: other }).json, 'meta.page.limit')).toBe(25);
    expect(items(h.get(profilePath(h.ids), { token: other }))).toHaveLength(0);
    expect(num(h.get('/v2/accounts', { token: other }).json, 'meta.results.total')).toBe(120);
    expect(num(h.get('/v2/accounts').json, 'meta.results.total')).toBe(121);
  });

  it('the seeded data and ids are the same for every client id of a seed', () => {
    const h = harness();
    const other = h.sim.issueToken('suite-b', 'read-write');
    expect(h.get('/v2/accounts?page[limit]=100', { token: other }).body).toBe(h.get('/v2/accounts?page[limit]=100').body);
    expect(ids(h.get('/v2/authentication-realms', { token: other }))).toEqual(ids(h.get('/v2/authentication-realms')));
  });

  it('two client ids create in parallel without sharing ids or clocks', () => {
    const h = harness();
    const other = h.sim.issueToken('suite-b', 'read-write');
    const a = h.post(profilePath(h.ids), profileBody(h.ids));
    const b = h.post(profilePath(h.ids), profileBody(h.ids), { token: other });
    expect(at(a.json, 'data.meta.created_at')).toBe(at(b.json, 'data.meta.created_at'));
    expect(str(a.json, 'data.id')).not.toBe(str(b.json, 'data.id'));
  });
});

describe('authentication realms and user-authentication-info are readable', () => {
  const h = harness();

  it('lists realms, gets one, lists its user-authentication-info and gets one', () => {
    const realms = h.get('/v2/authentication-realms');
    expect(realms.status).toBe(200);
    expect(ids(realms)).toContain(h.ids.realm_id);
    const realm = h.get(`/v2/authentication-realms/${h.ids.realm_id}`);
    expect(realm.status).toBe(200);
    expect(at(realm.json, 'data.id')).toBe(h.ids.realm_id);
    const uai = h.get(`/v2/authentication-realms/${h.ids.realm_id}/user-authentication-info`);
    expect(uai.status).toBe(200);
    expect(ids(uai)).toContain(h.ids.user_authentication_info_id);
    expect(num(uai.json, 'meta.results.total')).toBeGreaterThan(0);
    const one = h.get(`/v2/authentication-realms/${h.ids.realm_id}/user-authentication-info/${h.ids.user_authentication_info_id}`);
    expect(one.status).toBe(200);
    expect(at(one.json, 'data.id')).toBe(h.ids.user_authentication_info_id);
    expect(at(one.json, 'data.meta.created_at')).toMatch(/Z$/);
  });

  it('answers 404 for unknown ones', () => {
    expectErrorShape(h.get('/v2/authentication-realms/nope'), 404);
    expectErrorShape(h.get('/v2/authentication-realms/nope/user-authentication-info'), 404);
    expectErrorShape(h.get(`/v2/authentication-realms/${h.ids.realm_id}/user-authentication-info/nope`), 404);
  });

  it('seededIds names the first realm, its first user-authentication-info and a password profile id', () => {
    expect(h.ids.realm_id).toBe(ids(h.get('/v2/authentication-realms?sort=created_at'))[0]);
    expect(h.ids.password_profile_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("a served simulator's secrets", () => {
  it('are random unless given: the seed tells nobody a token or the admin token', async () => {
    const { parseServeArgs, startServer } = await import('../../src/cli/serve.js');
    const { adminTokenFor } = await import('../../src/sim/tokens.js');
    const options = parseServeArgs(['--port', '0', '--sim-seed', '42']);
    if (options === 'help') throw new Error('help');
    const a = await startServer(options, { cwd: process.cwd() }, () => 0);
    const b = await startServer(options, { cwd: process.cwd() }, () => 0);
    try {
      expect(a.info.admin_token).not.toBe(b.info.admin_token);
      expect(a.info.token).not.toBe(b.info.token);
      expect(a.info.admin_token).not.toBe(adminTokenFor('42'));
      // In process the same seed still gives the same tokens: runs and fixtures stay byte-identical.
      const { Simulator } = await import('../../src/sim/simulator.js');
      const one = new Simulator({ seed: 42, wallClock: () => 0 });
      const two = new Simulator({ seed: 42, wallClock: () => 0 });
      expect(one.issueToken('x', 'read-write')).toBe(two.issueToken('x', 'read-write'));
      expect(one.adminToken).toBe(two.adminToken);
    } finally {
      await a.server.close();
      await b.server.close();
    }
  });

  it('with --clients, print a token only for a registered client id, with a scope it holds', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { parseServeArgs, startServer, formatServeInfo } = await import('../../src/cli/serve.js');
    const dir = mkdtempSync(join(tmpdir(), 'clients-'));
    writeFileSync(join(dir, 'clients.json'), JSON.stringify({ clients: [{ client_id: 'ci', client_secret: 'a-long-enough-secret', scopes: ['read-only'] }] }));
    const start = async (argv: string[]) => {
      const options = parseServeArgs(['--port', '0', '--clients', 'clients.json', ...argv]);
      if (options === 'help') throw new Error('help');
      return startServer(options, { cwd: dir }, () => 0);
    };
    const unregistered = await start([]);
    const registered = await start(['--client-id', 'ci']);
    try {
      expect(unregistered.info.token).toBeNull();
      expect(formatServeInfo(unregistered.info, false)).toMatch(/bearer token\s+none: client id commerce-sim is not in --clients/);
      expect(registered.info).toMatchObject({ client_id: 'ci', token_scope: 'read-only' });
      const write = await fetch(`${registered.info.base_url}/v2/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${registered.info.token ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { type: 'account', name: 'x', legal_name: 'x' } }),
      });
      expect(write.status).toBe(403);
    } finally {
      await unregistered.server.close();
      await registered.server.close();
    }
  });

  it('come from the environment variables serve is told to read', async () => {
    const { parseServeArgs, startServer } = await import('../../src/cli/serve.js');
    const options = parseServeArgs(['--port', '0', '--admin-token-env', 'KIT_ADMIN', '--token-key-env', 'KIT_KEY']);
    if (options === 'help') throw new Error('help');
    const env = { KIT_ADMIN: 'sim-admin-chosen-by-the-user', KIT_KEY: 'a-key-of-at-least-16-chars' };
    const a = await startServer(options, { cwd: process.cwd(), env }, () => 0);
    const b = await startServer(options, { cwd: process.cwd(), env }, () => 0);
    try {
      expect(a.info.admin_token).toBe('sim-admin-chosen-by-the-user');
      expect(a.info.token).toBe(b.info.token);
    } finally {
      await a.server.close();
      await b.server.close();
    }
    await expect(startServer(options, { cwd: process.cwd(), env: { KIT_ADMIN: 'short' } }, () => 0)).rejects.toThrow(/--token-key-env KIT_KEY: the variable must hold at least 16 characters/);
  });
});

describe('token lifetime and the token table', () => {
  it('refuses a token once expires_in has passed in wall time', async () => {
    const { Simulator } = await import('../../src/sim/simulator.js');
    const { LIFETIME_SECONDS } = await import('../../src/sim/tokens.js');
    let now = Date.UTC(2026, 0, 1);
    const sim = new Simulator({ seed: 1, wallClock: () => now });
    const token = sim.issueToken('c', 'read-write');
    const read = () => sim.handle({ method: 'GET', url: '/v2/accounts?page[limit]=1', headers: { authorization: `Bearer ${token}` }, body: '' }).status;
    now += (LIFETIME_SECONDS - 1) * 1000;
    expect(read()).toBe(200);
    now += 2000;
    expect(read()).toBe(401);
  });

  it("lets no client push out another's token: a client asking in a loop loses only its own oldest", async () => {
    const { Simulator } = await import('../../src/sim/simulator.js');
    const { MAX_TOKENS_PER_CLIENT } = await import('../../src/sim/tokens.js');
    const sim = new Simulator({ seed: 1, wallClock: () => 0 });
    const read = (token: string) => sim.handle({ method: 'GET', url: '/v2/accounts?page[limit]=1', headers: { authorization: `Bearer ${token}` }, body: '' }).status;
    const other = sim.issueToken('other', 'read-write');
    const first = sim.issueToken('greedy', 'read-only');
    let last = first;
    for (let i = 0; i < 10_000; i++) last = sim.issueToken('greedy', 'read-only');
    expect(read(other)).toBe(200);
    expect(read(last)).toBe(200);
    expect(read(first)).toBe(401);
    expect(sim.tokenCount).toBe(MAX_TOKENS_PER_CLIENT + 1);
  });

  it('keeps tokens for at most maxProjects client ids, forgetting the one that asked least recently', async () => {
    const { Simulator } = await import('../../src/sim/simulator.js');
    const sim = new Simulator({ seed: 1, wallClock: () => 0, maxProjects: 3 });
    const read = (token: string) => sim.handle({ method: 'GET', url: '/v2/accounts?page[limit]=1', headers: { authorization: `Bearer ${token}` }, body: '' }).status;
    const a = sim.issueToken('a', 'read-write');
    const b = sim.issueToken('b', 'read-write');
    sim.issueToken('c', 'read-write');
    sim.issueToken('a', 'read-write');
    sim.issueToken('d', 'read-write');
    expect(read(a)).toBe(200);
    expect(read(b)).toBe(401);
  });
});
