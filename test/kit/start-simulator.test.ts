/** startSimulator(): one call to a running simulator, checked options, cleanup with `await using` (issue 11). */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, KitError, SimulatorOptionError, startSimulator, type StartSimulatorOptions } from '../../src/index.js';

const get = async (baseUrl: string, token: string, path: string) => {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

describe('startSimulator', () => {
  it('with no options: a loopback base URL, a working token, the seeded ids, and close()', async () => {
    const sim = await startSimulator();
    try {
      expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await get(sim.baseUrl, sim.token, '/v2/accounts?page[limit]=2');
      expect(res.status).toBe(200);
      expect(res.json['data']).toHaveLength(2);
      expect(Object.keys(sim.ids).sort()).toEqual(['password_profile_id', 'realm_id', 'user_authentication_info_id']);
      expect(sim.clientId).toBe('commerce-sim');
    } finally {
      await sim.close();
    }
    await expect(fetch(`${sim.baseUrl}/v2/accounts`)).rejects.toThrow();
    await sim.close(); // twice is fine
  });

  it('await using closes it at the end of the block', async () => {
    let baseUrl = '';
    {
      await using sim = await startSimulator({ accounts: 5 });
      baseUrl = sim.baseUrl;
      expect((await get(sim.baseUrl, sim.token, '/v2/accounts')).json['data']).toHaveLength(5);
    }
    await expect(fetch(`${baseUrl}/v2/accounts`)).rejects.toThrow();
  });

  it('reset, snapshot and restore act on the running simulator', async () => {
    await using sim = await startSimulator({ accounts: 3 });
    const create = () =>
      fetch(`${sim.baseUrl}/v2/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { type: 'account', name: 'Written' } }),
      });
    expect((await create()).status).toBe(201);
    const snapshot = await sim.snapshot();
    await sim.reset();
    expect((await get(sim.baseUrl, sim.token, '/v2/accounts')).json['data']).toHaveLength(3);
    await sim.restore(snapshot);
    expect((await get(sim.baseUrl, sim.token, '/v2/accounts')).json['data']).toHaveLength(4);
  });

  it('seed, dataset, deviate and surface reach the simulator', async () => {
    await using sim = await startSimulator({ seed: 7, dataset: 'shared-timestamps', deviate: ['filter.gt'], surface: 'documented', clientId: 'suite-a' });
    expect(sim.simulator.seed).toBe(7);
    expect([...sim.simulator.deviations]).toEqual(['filter.gt']);
    expect(sim.clientId).toBe('suite-a');
    // The documented surface refuses what the document does not show.
    expect((await get(sim.baseUrl, sim.token, '/v2/accounts?sort=-name')).status).toBe(400);
  });

  it.each<[string, unknown]>([
    ['accounts: -5', { accounts: -5 }],
    ['deviate: nope', { deviate: ['nope'] }],
    ["seed: 'x'", { seed: 'x' }],
    ['a typo', { acounts: 5 }],
    ['port 70000', { port: 70_000 }],
    ['surface: partial', { surface: 'partial' }],
    ['counts of an unknown collection', { counts: { widgets: 3 } }],
    ['an unknown dataset', { dataset: 'no-such-dataset' }],
    ['a non-loopback host without allowAnyClient', { host: '0.0.0.0' }],
    ['not an object', 5],
  ])('refuses %s with a KitError (SIM_INVALID_OPTION)', async (_name, options) => {
    const started = startSimulator(options as StartSimulatorOptions);
    await expect(started).rejects.toBeInstanceOf(SimulatorOptionError);
    await expect(started).rejects.toBeInstanceOf(KitError);
    await expect(started).rejects.toMatchObject({ code: 'SIM_INVALID_OPTION' });
  });

  it('types deviate by the rule ids: a typo fails to compile, and is still refused at run time', async () => {
    // @ts-expect-error -- 'filter.gtt' is not a rule id (tsconfig.test.json type-checks this file).
    const typo: StartSimulatorOptions = { deviate: ['filter.gtt'] };
    await expect(startSimulator(typo)).rejects.toMatchObject({ code: 'SIM_INVALID_OPTION', message: expect.stringContaining("'filter.gtt'") });
    // An assumed rule's id compiles (it is a rule id) but has no deviation: refused at run time.
    await expect(startSimulator({ deviate: ['pagination.limit.clamp'] })).rejects.toMatchObject({ code: 'SIM_INVALID_OPTION' });
    const typed: StartSimulatorOptions = { deviate: ['filter.gt'] };
    expect(typed.deviate).toEqual(['filter.gt']);
  });

  it('its error codes are in the table of codes', () => {
    expect(Object.keys(ERROR_CODES)).toContain('SIM_INVALID_OPTION');
    expect(Object.keys(ERROR_CODES)).toContain('SIM_ADMIN_FAILED');
  });
});
