/**
 * Deviation mode: for every id in DEVIATION_IDS, a request whose response differs between the faithful
 * simulator and the one started with `deviate: [id]`. The table must cover the list exactly.
 */
import { describe, expect, it } from 'vitest';
import { DEVIATION_IDS } from '../../src/engine/deviations.js';
import type { SimulatorOptions } from '../../src/sim/simulator.js';
import { harness, ids, profileBody, profilePath, str, type Harness } from './helpers.js';

interface Probe {
  readonly options?: Partial<SimulatorOptions>;
  /** What is compared: any JSON-able value built from the responses. */
  run(h: Harness): unknown;
}

const create =
  (overrides: Record<string, unknown> = {}) =>
  (h: Harness) => {
    const res = h.post(profilePath(h.ids), profileBody(h.ids, overrides));
    return [res.status, res.body];
  };
const list = (url: string) => (h: Harness) => h.get(url).body;
const status = (url: string) => (h: Harness) => h.get(url).status;
const secondId = (h: Harness) => ids(h.get('/v2/accounts?sort=id&page[limit]=3'))[1] ?? '';

const PROBES: Readonly<Record<string, Probe>> = {
  'create.status.201': { run: create() },
  'create.response.fields': { run: create() },
  'create.type.underscore-echo': { run: create({ type: 'user-authentication-password-profile-info' }) },
  'create.timestamps.format': { run: create() },
  'create.timestamps.equal': { run: create() },
  'create.password.not-returned': { run: create() },
  'create.links.self': { run: create() },
  'create.path.trailing-slash': { run: (h) => h.post(`${profilePath(h.ids)}/`, profileBody(h.ids)).status },
  'create.password.min-length': { run: create({ password: '123456' }) },
  'create.required-fields': { run: create({ password_profile_id: undefined }) },
  'pagination.meta.present': { run: list('/v2/accounts') },
  'pagination.meta.present-when-empty': { run: list('/v2/accounts?filter=eq(id,none)') },
  'pagination.limit.default': { run: list('/v2/accounts') },
  'pagination.limit.project-setting': {
    run: (h) => {
      h.put('/v2/settings', { data: { type: 'settings', page_length: 7 } });
      return h.get('/v2/accounts').body;
    },
  },
  'pagination.limit.per-call': { run: list('/v2/accounts?page[limit]=5') },
  'pagination.limit.max': { options: { accounts: 150 }, run: list('/v2/accounts?page[limit]=150') },
  'pagination.offset.records': { run: list('/v2/accounts?page[limit]=5&page[offset]=5') },
  'pagination.offset.echo': { run: list('/v2/accounts?page[offset]=5') },
  'pagination.page.total': { run: list('/v2/accounts?page[limit]=7') },
  'pagination.results.total': { run: list('/v2/accounts') },
  'pagination.offset-limit.hard': { run: status('/v2/orders?page[offset]=10001') },
  'pagination.offset-limit.soft': { run: status('/v2/accounts?page[offset]=6000') },
  'pagination.endpoints.listed': { run: list('/v2/files') },
  'sort.ascending': { run: list('/v2/accounts?sort=created_at') },
  'filter.gt': { run: (h) => h.get(`/v2/accounts?sort=id&filter=gt(id,${secondId(h)})`).body },
  'filter.ge': { run: (h) => h.get(`/v2/accounts?sort=id&filter=ge(id,${secondId(h)})`).body },
  'filter.results-total': { run: list('/v2/accounts?filter=like(name,Acme*)') },
  'large-data.keyset.id': { options: { accounts: 50 }, run: (h) => h.get(`/v2/accounts?sort=id&page[limit]=100&filter=gt(id,${secondId(h)})`).body },
  'large-data.keyset.timestamp': { run: list('/v2/accounts?sort=created_at&filter=ge(created_at,2024-01-01T00:10:00.000Z)') },
  'large-data.shared-timestamp': { options: { profile: 'shared-timestamps', burst: 150 }, run: list('/v2/accounts?sort=created_at&page[limit]=10&page[offset]=10') },
  'large-data.updates-during-traversal': {
    run: (h) => {
      const id = secondId(h);
      h.put(`/v2/accounts/${id}`, { data: { type: 'account', name: 'Moved' } });
      return h.get(`/v2/accounts/${id}`).body;
    },
  },
  'large-data.deletes-invisible': {
    run: (h) => {
      h.del(`/v2/accounts/${secondId(h)}`);
      return h.get('/v2/accounts?sort=id&page[limit]=3').body;
    },
  },
  'auth.required': { run: (h) => h.post(profilePath(h.ids), profileBody(h.ids), { token: null }).status },
  'versioning.v2-prefix': { run: status('/v2/files') },
};

describe('deviation mode', () => {
  it('the table covers every deviation id, and only those', () => {
    expect(Object.keys(PROBES).sort()).toEqual([...DEVIATION_IDS].sort());
  });

  it.each([...DEVIATION_IDS])('--deviate %s changes the probe response', (id) => {
    const probe = PROBES[id];
    if (probe === undefined) throw new Error(`no probe for ${id}`);
    const faithful = probe.run(harness(probe.options ?? {}));
    const deviant = probe.run(harness({ ...probe.options, deviate: [id] }));
    expect(JSON.stringify(deviant)).not.toBe(JSON.stringify(faithful));
  });

  it('an unknown deviation id changes nothing', () => {
    // @ts-expect-error -- not a rule id: a compile error for typed callers; at run time it changes nothing.
    const h = harness({ deviate: ['no.such.rule'] });
    const f = harness();
    expect(h.get('/v2/accounts').body).toBe(f.get('/v2/accounts').body);
    expect(str(h.post(profilePath(h.ids), profileBody(h.ids)).json, 'data.type')).toBe('user_authentication_password_profile_info');
  });
});
