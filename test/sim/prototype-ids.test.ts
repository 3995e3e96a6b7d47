/**
 * Ids named like the prototype's members (`__proto__`, `constructor`, `prototype`) are refused with a 400
 * naming where they came, wherever ids enter from outside: a restore's record ids, deleted ids, client
 * ids and profile-info keys, and every door a client id comes in by.
 */
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve.js';
import { startSimulator } from '../../src/kit/start-simulator.js';
import { readClients } from '../../src/sim/clients.js';
import { listResources } from '../../src/store/resources.js';
import { expectErrorShape, harness, str } from './helpers.js';

type Snap = { version: number; options: Record<string, unknown>; projects: Record<string, unknown>[] };
type Delta = { upserts: Record<string, unknown>[]; deletes: string[] };

const SMALL = { accounts: 100, counts: Object.fromEntries(listResources.map((r) => [r.name, r.name === 'accounts' ? 100 : 0])), maxProjects: 2, maxRecords: 1000 };
const NAMES = ['__proto__', 'constructor', 'prototype'] as const;
const accountsOf = (s: Snap): Delta => (s.projects[0]?.['lists'] as Record<string, Delta>)['accounts'] as Delta;

/** A snapshot with one written account. */
function withAccount(): Snap {
  const h = harness(SMALL);
  h.post('/v2/accounts', { data: { type: 'account', name: 'First' } });
  return JSON.parse(h.admin('GET', '/__sim/snapshot').body) as Snap;
}

describe('in a restore', () => {
  it.each(NAMES)('%s is refused with 400 naming the path, as a record id, a deleted id, a client id and in a profile-info key', (name) => {
    const cases: [string, (s: Snap) => void][] = [
      [
        'projects.0.lists.accounts.upserts.0.id',
        (s) => {
          (accountsOf(s).upserts[0] as Record<string, unknown>)['id'] = name;
        },
      ],
      ['projects.0.lists.accounts.deletes.0', (s) => accountsOf(s).deletes.push(name)],
      [
        'projects.0.clientId',
        (s) => {
          (s.projects[0] as Record<string, unknown>)['clientId'] = name;
        },
      ],
      [
        `projects.0.profileInfos.realm/${name}`,
        (s) => {
          (s.projects[0] as Record<string, unknown>)['profileInfos'] = { [`realm/${name}`]: [] };
        },
      ],
    ];
    for (const [path, change] of cases) {
      const snap = withAccount();
      change(snap);
      const refused = harness(SMALL).admin('POST', '/__sim/restore', snap);
      expectErrorShape(refused, 400);
      expect(str(refused.json, 'errors.0.source')).toBe(path);
    }
  });
});

describe('client ids', () => {
  it.each(NAMES)('%s is refused at the token endpoint and by the admin API, and makes no project', (name) => {
    const h = harness();
    const token = h.call('POST', '/oauth/access_token', {
      token: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=implicit&client_id=${name}`,
    });
    expectErrorShape(token, 400);
    expect(str(token.json, 'errors.0.detail')).toContain('client_id');
    const admin = h.admin('POST', `/__sim/clock?client_id=${name}`, { advance_ms: 1 });
    expectErrorShape(admin, 400);
    expect(str(admin.json, 'errors.0.source')).toBe('client_id');
    expect(h.sim.projectIds()).not.toContain(name);
  });

  it.each(NAMES)('%s is refused by a clients file, --client-id and startSimulator()', async (name) => {
    expect(readClients({ clients: [{ client_id: name, client_secret: 's'.repeat(16) }] })).toMatchObject({ ok: false, path: 'clients.0.client_id' });
    expect(() => parseServeArgs(['--client-id', name])).toThrow('--client-id must be a non-empty string of at most 255 characters, and not __proto__, constructor or prototype');
    await expect(startSimulator({ clientId: name })).rejects.toThrow('clientId must be');
  });
});
