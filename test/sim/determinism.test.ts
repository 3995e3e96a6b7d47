/** Same seed and same requests: byte-identical responses (the issue's "Determinism and data"). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimRequest, SimResponse } from '../../src/sim/messages.js';
import { Simulator, type SimulatorOptions } from '../../src/sim/simulator.js';
import { FIXED_NOW, at, harness, parseJson, profileBody, profilePath } from './helpers.js';

function fresh(options: Partial<SimulatorOptions> = {}): Simulator {
  return new Simulator({ seed: 42, wallClock: () => FIXED_NOW, ...options });
}

/** A session that touches every part of the simulator, tokens obtained over the wire. */
function session(sim: Simulator): SimResponse[] {
  const out: SimResponse[] = [];
  const send = (req: Omit<SimRequest, 'headers'> & { headers?: Record<string, string> }): SimResponse => {
    const res = sim.handle({ headers: {}, ...req });
    out.push(res);
    return res;
  };
  const tokenOf = (res: SimResponse): string => {
    const t = at(parseJson(res.body), 'access_token');
    if (typeof t !== 'string') throw new Error(res.body);
    return t;
  };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const rw = tokenOf(send({ method: 'POST', url: '/oauth/access_token', headers: form, body: 'grant_type=client_credentials&client_id=a&client_secret=s' }));
  const ro = tokenOf(send({ method: 'POST', url: '/oauth/access_token', headers: form, body: 'grant_type=implicit&client_id=b' }));
  const auth = (t: string) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' });
  const admin = { authorization: `Bearer ${sim.adminToken}` };
  const ids = sim.seededIds();
  const create = profilePath(ids);
  const get = (url: string, t = rw) => send({ method: 'GET', url, headers: auth(t), body: '' });
  get('/v2/accounts?page[limit]=100&sort=-name');
  get('/v2/authentication-realms');
  get(`/v2/authentication-realms/${ids.realm_id}/user-authentication-info`);
  for (let i = 0; i < 3; i++) send({ method: 'POST', url: create, headers: auth(rw), body: JSON.stringify(profileBody(ids, { username: `u${i}@example.com` })) });
  send({ method: 'POST', url: `${create}/`, headers: auth(rw), body: JSON.stringify(profileBody(ids, { type: 'user-authentication-password-profile-info' })) });
  send({ method: 'POST', url: create, headers: auth(rw), body: JSON.stringify(profileBody(ids, { password: 'short' })) });
  get(create);
  send({ method: 'POST', url: '/v2/accounts', headers: auth(rw), body: JSON.stringify({ data: { type: 'account', name: 'Zed' } }) });
  send({ method: 'PUT', url: '/v2/settings', headers: auth(rw), body: JSON.stringify({ data: { type: 'settings', page_length: 11 } }) });
  get('/v2/accounts?filter=like(name,*e*)&sort=updated_at');
  get('/v2/orders?page[offset]=10001');
  get('/catalog/products?page[limit]=3', ro);
  send({ method: 'POST', url: create, headers: auth(ro), body: JSON.stringify(profileBody(ids)) });
  send({ method: 'POST', url: '/__sim/clock', headers: admin, body: '{"advance_ms": 5000}' });
  send({ method: 'POST', url: create, headers: auth(rw), body: JSON.stringify(profileBody(ids)) });
  send({ method: 'GET', url: '/__sim/snapshot', headers: admin, body: '' });
  send({ method: 'POST', url: '/__sim/seed', headers: admin, body: '{"accounts": 12, "profile": "shared-timestamps", "burst": 5}' });
  get('/v2/accounts?sort=created_at');
  get('/nowhere');
  return out;
}

describe('determinism', () => {
  it('two simulators with the same seed answer the same session byte for byte, headers included', () => {
    const a = session(fresh());
    const b = session(fresh());
    expect(a.length).toBeGreaterThan(20);
    expect(b).toEqual(a);
    expect(b.map((r) => r.body).join('\n')).toBe(a.map((r) => r.body).join('\n'));
  });

  it('another seed answers differently', () => {
    const a = session(fresh());
    const c = session(fresh({ seed: 43 }));
    expect(c.map((r) => r.body)).not.toEqual(a.map((r) => r.body));
  });

  it('the data of one collection does not depend on which collections were read first', () => {
    const a = fresh();
    const b = fresh();
    const token = (s: Simulator) => ({ authorization: `Bearer ${s.issueToken('commerce-sim', 'read-write')}` });
    const ta = token(a);
    const tb = token(b);
    b.handle({ method: 'GET', url: '/v2/orders', headers: tb, body: '' });
    b.handle({ method: 'GET', url: '/v2/customers', headers: tb, body: '' });
    expect(b.handle({ method: 'GET', url: '/v2/accounts?page[limit]=100', headers: tb, body: '' }).body).toBe(
      a.handle({ method: 'GET', url: '/v2/accounts?page[limit]=100', headers: ta, body: '' }).body,
    );
  });

  it('any sequence of requests gives identical responses on two simulators of a seed (seeded property)', () => {
    const probe = harness();
    const requests = fc.constantFrom<readonly [string, string, unknown?]>(
      ['GET', '/v2/accounts?page[limit]=5&sort=-updated_at'],
      ['GET', '/v2/customers?filter=like(name,*a*)'],
      ['POST', profilePath(probe.ids), profileBody(probe.ids)],
      ['POST', '/v2/accounts', { data: { type: 'account', name: 'P' } }],
      ['PUT', '/v2/settings', { data: { type: 'settings', page_length: 3 } }],
      ['GET', profilePath(probe.ids)],
      ['POST', '/__sim/clock', { advance_ms: 10 }],
      ['DELETE', '/v2/accounts/nope'],
    );
    fc.assert(
      fc.property(fc.array(requests, { maxLength: 15 }), (seq) => {
        const a = harness();
        const b = harness();
        for (const [method, url, body] of seq) {
          const admin = url.startsWith('/__sim');
          const ra = admin ? a.admin(method, url, body) : a.call(method, url, body === undefined ? {} : { body });
          const rb = admin ? b.admin(method, url, body) : b.call(method, url, body === undefined ? {} : { body });
          expect(rb.body).toBe(ra.body);
          expect(rb.status).toBe(ra.status);
        }
      }),
      { seed: 42, numRuns: 60 },
    );
  });

  it('the simulator reads real time only through the injected clock, and only for token expiry and the journal', () => {
    let calls = 0;
    const answers = (start: number) => {
      const sim = fresh({
        wallClock: () => {
          calls++;
          return start;
        },
      });
      const token = sim.issueToken('commerce-sim', 'read-write');
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      return [
        sim.handle({ method: 'GET', url: '/v2/accounts', headers, body: '' }).body,
        sim.handle({ method: 'POST', url: profilePath(sim.seededIds()), headers, body: JSON.stringify(profileBody(sim.seededIds())) }).body,
      ];
    };
    // Different real times within a token's life give the same bytes: only expiry reads the clock.
    expect(answers(FIXED_NOW)).toEqual(answers(FIXED_NOW + 1_234_567));
    expect(calls).toBeGreaterThan(0);
  });
});
