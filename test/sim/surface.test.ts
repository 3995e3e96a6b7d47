/** `--surface documented`: the simulator answers only what the API document states, JSON errors for the rest. */
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve.js';
import { Simulator } from '../../src/sim/simulator.js';

const sim = new Simulator({ seed: 42, surface: 'documented', wallClock: () => 0 });
const token = sim.issueToken('commerce-sim', 'read-write');
const ids = sim.seededIds();
const create = `/v2/authentication-realms/${ids.realm_id}/user-authentication-info/${ids.user_authentication_info_id}/user-authentication-password-profile-info`;
const send = (method: string, url: string, body = '', auth = true) => sim.handle({ method, url, headers: auth ? { authorization: `Bearer ${token}`, 'content-type': 'application/json' } : {}, body });
const status = (method: string, url: string, body = '') => send(method, url, body).status;

describe('the documented-only surface', () => {
  it('serves the documented list reads and the create', () => {
    expect(status('GET', '/v2/accounts?page[limit]=3&sort=created_at&filter=ge(created_at,2020-01-01T00:00:00.000Z)')).toBe(200);
    expect(status('GET', '/v2/orders?page[offset]=10')).toBe(200);
    const body = JSON.stringify({ data: { type: 'user_authentication_password_profile_info', username: 'doc@example.com', password: 'long-enough', password_profile_id: ids.password_profile_id } });
    expect(status('POST', `${create}/`, body)).toBe(201);
  });

  it('refuses other paths with 404, other methods with 405 and undocumented query parts with 400, as JSON errors', () => {
    for (const [method, url, want] of [
      ['GET', '/v2/customers', 404],
      ['GET', '/v2/settings', 404],
      ['POST', '/v2/accounts', 405],
      ['GET', `${create}`, 405],
      ['GET', '/v2/accounts?sort=-created_at', 400],
      ['GET', '/v2/accounts?filter=eq(id,x)', 400],
      ['GET', '/v2/accounts?filter=gt(id,a):gt(id,b)', 400],
      ['GET', '/v2/accounts?sort=name', 400],
      ['GET', '/v2/orders?sort=id', 400],
      ['GET', '/v2/accounts?page[offset]=10001', 400],
    ] as const) {
      const res = send(method, url);
      expect([url, res.status]).toEqual([url, want]);
      expect(JSON.parse(res.body)).toMatchObject({ errors: [{ status: want }] });
    }
    const hyphen = JSON.stringify({ data: { type: 'user-authentication-password-profile-info', username: 'h@example.com', password: 'long-enough', password_profile_id: ids.password_profile_id } });
    expect(status('POST', create, hyphen)).toBe(400);
  });

  it("answers lists with conforming choices other than the public API's where the document leaves them open", () => {
    const page = JSON.parse(send('GET', '/v2/accounts?page[limit]=5&page[offset]=10').body) as Record<string, unknown>;
    expect(Object.keys(page).sort()).toEqual(['data', 'page', 'results']);
    expect(page['page']).toMatchObject({ limit: 5, offset: 10, current: 2 }); // 0-based: the public API says 3
    const first = (page['data'] as Record<string, unknown>[])[0] ?? {};
    expect(first['links']).toBeUndefined();
    expect(first['meta']).toHaveProperty('created_at');
    const empty = JSON.parse(send('GET', '/v2/accounts?sort=id&filter=gt(id,ffffffff-ffff-ffff-ffff-ffffffffffff)').body) as Record<string, unknown>;
    expect(empty).toMatchObject({ data: [], page: { total: 1, current: 0 }, results: { total: 0 } });
  });

  it('keeps the token endpoint, the admin API and its 401 for a read without a token', () => {
    expect(sim.handle({ method: 'POST', url: '/oauth/access_token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=implicit&client_id=x' }).status).toBe(200);
    expect(sim.handle({ method: 'GET', url: '/__sim/state', headers: { authorization: `Bearer ${sim.adminToken}` }, body: '' }).status).not.toBe(404);
    expect(send('GET', '/v2/accounts', '', false).status).toBe(401);
  });

  it('is chosen with serve --surface, which refuses other values', () => {
    const parsed = parseServeArgs(['--surface', 'documented']);
    expect(parsed !== 'help' && parsed.simulator.surface).toBe('documented');
    expect(() => parseServeArgs(['--surface', 'nope'])).toThrow(/--surface must be full or documented, got 'nope'/);
  });
});
