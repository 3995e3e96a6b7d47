/**
 * Injected faults (issue 11): seeded latency, 5xx answers, reset connections and truncated bodies, set
 * through PUT /__sim/adversity or a dataset file. The reference client survives each over real HTTP:
 * the export still holds every account exactly once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportAccounts } from '../../src/client/export.js';
import { parseCsv } from '../../src/client/csv.js';
import { listen, type RunningServer } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';
import { parseAdversityPatch, parseDatasetSpec } from '../../src/store/adversity-profiles.js';
import { createHttpTarget } from '../../src/adapters/http.js';
import { simTargetOf } from '../../src/adapters/simulator.js';
import { FIXED_NOW, noSleep } from './helpers.js';

const ACCOUNTS = 450;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function served(adversity: Record<string, unknown>): Promise<{ sim: Simulator; baseUrl: string; token: string }> {
  const sim = new Simulator({ seed: 11, accounts: ACCOUNTS, wallClock: () => Date.now() });
  const token = sim.issueToken('client', 'read-write');
  const res = sim.handle({ method: 'PUT', url: '/__sim/adversity?client_id=client', headers: { authorization: `Bearer ${sim.adminToken}` }, body: JSON.stringify(adversity) });
  expect(res.status, res.body).toBe(200);
  server = await listen(sim, 0, '127.0.0.1');
  return { sim, baseUrl: server.baseUrl, token };
}

/** Export over HTTP; the kit's own HTTP retries are off, so the client's retries are what is tested. */
async function exportOverHttp(baseUrl: string, token: string): Promise<{ ids: string[]; retries: number }> {
  const target = await createHttpTarget({ baseUrl, token, retries: 0 });
  let csv = '';
  try {
    const result = await exportAccounts(target, { write: (chunk: string) => void (csv += chunk) }, { sleep: noSleep, retries: 8, seed: 3 });
    const rows = parseCsv(csv).slice(1);
    return { ids: rows.map((r) => r[3] ?? ''), retries: result.stats.retries };
  } finally {
    await target.close();
  }
}

describe('the reference client survives injected faults over HTTP', () => {
  it.each([
    ['5xx answers', { error_share: 0.3 }],
    ['connection resets', { reset_share: 0.3 }],
    ['truncated bodies', { truncate_share: 0.3 }],
    ['all of them with latency', { error_share: 0.15, reset_share: 0.15, truncate_share: 0.15, latency_ms: 2, latency_jitter_ms: 5 }],
  ])('%s: every account exactly once, after retries', async (_name, adversity) => {
    const { baseUrl, token } = await served(adversity);
    const { ids, retries } = await exportOverHttp(baseUrl, token);
    expect(ids).toHaveLength(ACCOUNTS);
    expect(new Set(ids).size).toBe(ACCOUNTS);
    // The faults happened: the client had to retry.
    expect(retries).toBeGreaterThan(0);
  });

  it('a fault_path limits the faults to one route prefix', async () => {
    const { sim, baseUrl, token } = await served({ error_share: 1, fault_path: '/v2/orders' });
    const accounts = await fetch(`${baseUrl}/v2/accounts`, { headers: { authorization: `Bearer ${token}` } });
    expect(accounts.status).toBe(200);
    const orders = await fetch(`${baseUrl}/v2/orders`, { headers: { authorization: `Bearer ${token}` } });
    expect([500, 503]).toContain(orders.status);
    expect(await orders.json()).toHaveProperty('errors');
    // Never the admin API.
    const state = await fetch(`${baseUrl}/__sim/state`, { headers: { authorization: `Bearer ${sim.adminToken}` } });
    expect(state.status).toBe(200);
  });

  it('latency holds the answer, without blocking other clients', async () => {
    // A latency far past the test's own: the fast route must answer while the slow answer is still held.
    const { sim, baseUrl, token } = await served({ latency_ms: 60_000, fault_path: '/v2/orders' });
    let slowSettled = false;
    const slow = fetch(`${baseUrl}/v2/orders`, { headers: { authorization: `Bearer ${token}` } }).finally(() => (slowSettled = true));
    // The held request has reached the simulator (its journal entry is made when it is handled).
    while (!sim.journal.list().some((e) => e.url === '/v2/orders')) await new Promise((r) => setImmediate(r));
    expect((await fetch(`${baseUrl}/v2/accounts`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(slowSettled).toBe(false);
    // Shutting down cuts the held answer short; the entry says it was held.
    await server?.close();
    server = undefined;
    expect((await slow).status).toBe(200);
    expect(sim.journal.list().find((e) => e.url === '/v2/orders')?.latency_ms).toBeLessThan(60_000);
  });
});

describe('fault settings', () => {
  it('latency per route: the longest matching path prefix decides, on top of latency_ms', () => {
    const sim = new Simulator({ seed: 5, accounts: 20, wallClock: () => FIXED_NOW });
    const token = sim.issueToken('x', 'read-write');
    const put = sim.handle({
      method: 'PUT',
      url: '/__sim/adversity?client_id=x',
      headers: { authorization: `Bearer ${sim.adminToken}` },
      body: JSON.stringify({ latency_ms: 5, latency_by_path: { '/v2': 10, '/v2/orders': 120 } }),
    });
    expect(put.status, put.body).toBe(200);
    const delay = (url: string) => sim.handle({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, body: '' }).transport?.delayMs;
    expect(delay('/v2/orders?page[limit]=1')).toBe(125);
    expect(delay('/v2/accounts')).toBe(15);
    expect(delay('/pcm/catalogs')).toBe(5);
  });

  it('are seeded: the same requests meet the same faults', () => {
    const statuses = () => {
      const sim = new Simulator({ seed: 5, accounts: 20, wallClock: () => FIXED_NOW, adversity: { errorShare: 0.5 } });
      const target = simTargetOf(sim);
      void target;
      const token = sim.issueToken('x', 'read-write');
      return Array.from({ length: 30 }, () => sim.handle({ method: 'GET', url: '/v2/accounts', headers: { authorization: `Bearer ${token}` }, body: '' }).status);
    };
    const a = statuses();
    expect(a).toEqual(statuses());
    expect(new Set(a)).toContain(200);
    expect(a.some((s) => s >= 500)).toBe(true);
  });

  it('in process, a reset or a truncation is a transport error the client retries', async () => {
    const sim = new Simulator({ seed: 5, accounts: 120, wallClock: () => FIXED_NOW, adversity: { resetShare: 0.3, truncateShare: 0.2 } });
    let csv = '';
    const result = await exportAccounts(simTargetOf(sim), { write: (chunk: string) => void (csv += chunk) }, { sleep: noSleep, retries: 10 });
    expect(result.records).toBe(120);
    expect(result.stats.retries).toBeGreaterThan(0);
  });

  it.each([
    [{ latency_ms: -1 }, 'latency_ms'],
    [{ latency_ms: 600_000 }, 'latency_ms'],
    [{ error_share: 2 }, 'error_share'],
    [{ reset_share: 'often' }, 'reset_share'],
    [{ fault_path: 'v2' }, 'fault_path'],
    [{ latency_by_path: { orders: 5 } }, 'latency_by_path.orders'],
    [{ latency_by_path: { '/v2/orders': -5 } }, 'latency_by_path./v2/orders'],
  ])('%j is refused, naming %s', (patch, field) => {
    const r = parseAdversityPatch(patch);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(field);
  });

  it('a dataset file can switch them on', () => {
    const r = parseDatasetSpec({ extends: 'default', adversity: { latency_ms: 20, error_share: 0.1, fault_path: '/v2/accounts' } }, 'faulty.yaml');
    expect(r.ok && r.value.adversity).toMatchObject({ latencyMs: 20, errorShare: 0.1, faultPath: '/v2/accounts' });
  });
});
