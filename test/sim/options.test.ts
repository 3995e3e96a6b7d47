/**
 * One reader of the simulator's options (src/sim/options.ts) behind every door they come in by: serve's
 * flags, startSimulator()'s object and the admin API's reseed body refuse a bad value with the same words.
 */
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve.js';
import { startSimulator } from '../../src/kit/start-simulator.js';
import { readSimulatorSettings, simulatorOptionsOf } from '../../src/sim/options.js';
import { harness, str } from './helpers.js';

const message = (value: Record<string, unknown>): string => {
  const r = readSimulatorSettings(value, ['seed', 'accounts', 'counts', 'profile', 'burst', 'deviate', 'surface', 'readings', 'clock', 'clientId']);
  if (r.ok) throw new Error(`accepted ${JSON.stringify(value)}`);
  return r.message;
};

describe('the simulator options reader', () => {
  it.each([
    // [reader's value, serve's argv, reseed body or undefined where reseed does not take it]
    [{ accounts: 2.5 }, ['--accounts', '2.5'], { accounts: 2.5 }],
    [{ seed: 2 ** 33 }, ['--sim-seed', String(2 ** 33)], { seed: 2 ** 33 }],
    [{ counts: { widgets: 3 } }, ['--count', 'widgets=3'], { counts: { widgets: 3 } }],
    [{ deviate: ['no.such.rule'] }, ['--deviate', 'no.such.rule'], undefined],
    [{ surface: 'sideways' }, ['--surface', 'sideways'], undefined],
    [{ clock: 'fast' }, ['--clock', 'fast'], undefined],
    [{ clientId: '' }, ['--client-id', ''], undefined],
  ])('refuses %j alike at every door', async (value, argv, reseed) => {
    const words = message(value);
    expect(() => parseServeArgs(argv)).toThrow(words);
    await expect(startSimulator(value as never)).rejects.toThrow(words);
    if (reseed !== undefined) {
      const reply = harness().call('POST', '/__sim/seed', { body: reseed, token: harness().sim.adminToken });
      expect(reply.status).toBe(400);
      expect(str(reply.json, 'errors.0.detail')).toContain(words);
    }
  });

  it('refuses a setting a door does not take, naming it', () => {
    const r = readSimulatorSettings({ surface: 'documented' }, ['seed']);
    expect(r).toMatchObject({ ok: false, path: 'surface' });
  });

  it("gives serve's defaults the simulator's own shapes", () => {
    const parsed = parseServeArgs(['--clock-step', '5', '--client-id', 'ci']);
    expect(parsed !== 'help' && parsed.simulator).toEqual({ seed: 42, clock: { mode: 'virtual', stepMs: 5 }, defaultClientId: 'ci' });
    expect(simulatorOptionsOf({ surface: 'full', deviate: [], counts: {} })).toEqual({});
  });
});
