/** Bad input never crashes the simulator and never gets a 5xx; every error is JSON (docs/api-notes.md "Errors"). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID } from '../../src/sim/simulator.js';
import { MAX_BODY_BYTES } from '../../src/sim/messages.js';
import { accounts } from '../../src/store/resources.js';
import { at, expectErrorShape, harness, parseJson, profileBody, profilePath } from './helpers.js';

describe('routing errors', () => {
  const h = harness();

  it.each(['/v2/nothing', '/v3/accounts', '/accounts', '/', '/v2', '/v2/accounts/x/y', '/__sim/nothing', '/v2/authentication-realms/a/b'])('%s answers 404 JSON', (url) => {
    expectErrorShape(h.get(url), 404);
  });

  it.each([
    ['DELETE', '/v2/accounts'],
    ['PATCH', '/v2/settings'],
    ['POST', '/v2/orders'],
    ['DELETE', '/v2/settings'],
    ['PUT', '/catalog/products'],
    ['GET', '/__sim/reset'],
  ])('%s %s answers 405 JSON with Allow', (method, url) => {
    const res = h.call(method, url);
    expectErrorShape(res, 405);
    expect(res.headers['allow']).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  });

  it('405 on the create path names POST and GET', () => {
    const res = h.call('DELETE', profilePath(h.ids));
    expectErrorShape(res, 405);
    expect(res.headers['allow']?.split(', ').sort()).toEqual(['GET', 'POST']);
  });

  it('a known route with an unknown method answers 405 before asking for a token', () => {
    expectErrorShape(h.call('PATCH', '/v2/accounts/abc', { token: null }), 405);
  });

  it('lower-case methods are read as upper-case', () => {
    expect(h.call('get', '/v2/accounts').status).toBe(200);
  });

  it('an over-long body answers 413 JSON, one byte less is read', () => {
    const big = 'x'.repeat(MAX_BODY_BYTES + 1);
    expectErrorShape(h.call('POST', profilePath(h.ids), { body: big }), 413);
    expectErrorShape(h.call('POST', profilePath(h.ids), { body: 'x'.repeat(MAX_BODY_BYTES) }), 400);
  });

  it('a body counted in bytes, not characters', () => {
    const big = '€'.repeat(Math.ceil(MAX_BODY_BYTES / 3) + 1);
    expectErrorShape(h.call('POST', profilePath(h.ids), { body: big }), 413);
  });

  it('bad percent-encoding in the path or query answers 400', () => {
    expectErrorShape(h.get(`/v2/authentication-realms/%E0%A4%A`), 400);
    expectErrorShape(h.get('/v2/accounts?filter=%E0%A4%A'), 400);
  });

  it('a path parameter is percent-decoded', () => {
    const encoded = profilePath(h.ids).replace(h.ids.realm_id, encodeURIComponent(h.ids.realm_id).replace(/-/g, '%2D'));
    expect(h.post(encoded, profileBody(h.ids)).status).toBe(201);
  });
});

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'get', 'BREW'];

describe('fuzzing handle() (seeded)', () => {
  it('never throws, never answers 5xx, and every non-empty body is JSON', () => {
    const h = harness();
    const paths = [
      '/v2/accounts',
      '/v2/settings',
      '/v2/orders',
      profilePath(h.ids),
      `${profilePath(h.ids)}/`,
      '/oauth/access_token',
      '/__sim/seed',
      '/__sim/restore',
      '/__sim/clock',
      '/catalog/products',
      '/v2/authentication-realms',
    ];
    const segment = fc.oneof(
      fc.constantFrom(...paths),
      fc.string({ maxLength: 40 }).map((s) => `/${s}`),
    );
    const query = fc.oneof(
      fc.constant(''),
      fc.string({ maxLength: 60 }).map((s) => `?${s}`),
      fc.tuple(fc.constantFrom('page[limit]', 'page[offset]', 'filter', 'sort', 'page%5Blimit%5D'), fc.string({ maxLength: 30 })).map(([k, v]) => `?${k}=${v}`),
    );
    const body = fc.oneof(
      fc.constant(''),
      fc.string({ maxLength: 200 }),
      fc.json({ maxDepth: 3 }),
      fc.record({ data: fc.dictionary(fc.constantFrom('type', 'username', 'password', 'password_profile_id', 'page_length'), fc.jsonValue({ maxDepth: 2 })) }).map((v) => JSON.stringify(v)),
    );
    const auth = fc.constantFrom<string | null | undefined>(undefined, null, h.sim.adminToken, 'junk');
    fc.assert(
      fc.property(fc.constantFrom(...METHODS), segment, query, body, auth, (method, path, q, b, token) => {
        const res = h.call(method, `${path}${q}`, { body: b, ...(token === undefined ? {} : { token }) });
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
        if (res.body.length > 0) expect(parseJson(res.body)).not.toBeUndefined();
        if (res.status >= 400) expect(at(res.json, 'errors.0.status')).toBe(res.status);
      }),
      { seed: 4747, numRuns: 2000 },
    );
  });
});

describe('a failure inside the simulator', () => {
  it('is a 400 JSON error from handle(), never a throw (the in-process target calls it directly)', () => {
    const h = harness();
    // A record no request can make (its time is past what toISOString writes), put straight into the store.
    h.sim
      .project(DEFAULT_CLIENT_ID)
      .list(accounts)
      .insert({ id: 'broken', createdMs: 1e20, updatedMs: 1e20, attrs: { name: 'Broken' } });
    const res = h.get('/v2/accounts?sort=-created_at');
    expectErrorShape(res, 400);
  });
});

describe('errors carry status and title', () => {
  it('every error kind has the status as a number and a title', () => {
    const h = harness();
    const samples = [
      h.get('/nope'),
      h.call('PATCH', '/v2/settings'),
      h.get('/v2/accounts', { token: null }),
      h.get('/v2/accounts?page[limit]=0'),
      h.post(profilePath(h.ids), profileBody(h.ids), { token: h.sim.issueToken('ro', 'read-only') }),
    ];
    expect(samples.map((r) => [r.status, at(r.json, 'errors.0.status'), at(r.json, 'errors.0.title')])).toEqual([
      [404, 404, 'Not Found'],
      [405, 405, 'Method Not Allowed'],
      [401, 401, 'Unauthorized'],
      [400, 400, 'Bad Request'],
      [403, 403, 'Forbidden'],
    ]);
  });
});
