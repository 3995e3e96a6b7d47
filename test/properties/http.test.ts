/** The same suites over loopback HTTP: the simulator behind node:http, reached through the live adapter. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { properties, selectProperties } from '../../src/properties/registry.js';
import { runProperties } from '../../src/properties/runner.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { listen, type RunningServer } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';
import { createHttpTarget } from '../../src/adapters/http.js';
import type { Target } from '../../src/port.js';
import type { RuleId } from '../../src/rules/ids.js';
import { failing, SEED } from './helpers.js';

describe('property suites over loopback HTTP', () => {
  let server: RunningServer;
  let sim: Simulator;
  let target: Target;

  beforeAll(async () => {
    sim = new Simulator({ seed: 42, wallClock: () => 0 });
    server = await listen(sim, 0, '127.0.0.1');
    // The admin token among the variables is how a served simulator offers its admin API to the kit.
    target = await createHttpTarget({
      baseUrl: server.baseUrl,
      token: sim.issueToken('commerce-sim', 'read-write'),
      vars: { ...sim.seededIds(), admin_token: sim.adminToken },
      // One retry: a long synchronous turn of this process (a loaded machine) can outlast the server's keep-alive
      // with a request already written on the socket it then closes (ECONNRESET on the admin reset before a property).
      retries: 1,
    });
  });
  afterAll(async () => {
    await target.close();
    await server.close();
  });

  it('all pass, writes allowed', async () => {
    const results = await runProperties(properties, { target, ruleById, seed: SEED, runs: 12, strict: true, allowWrites: true });
    expect(results.map((r) => [r.name, r.status, failing(r)])).toEqual(properties.map((p) => [p.name, 'pass', []]));
  });

  it('read-only: writing properties skipped, the rest pass', async () => {
    const results = await runProperties(selectProperties('robustness').concat(selectProperties('create')), { target, ruleById, seed: SEED, runs: 30, strict: true });
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['robustness', 'pass'],
      ['create', 'skip'],
    ]);
  });

  it('walks the existing data by keyset read-only, without the admin API, and catches a broken gt there', async () => {
    const variants: readonly (readonly RuleId[])[] = [[], ['filter.gt']];
    for (const deviate of variants) {
      const served = new Simulator({ seed: 42, wallClock: () => 0, deviate });
      const running = await listen(served, 0, '127.0.0.1');
      const methods = new Set<string>();
      // No admin_token among the variables: a live deployment, read-only (no --allow-writes).
      const live = await createHttpTarget({ baseUrl: running.baseUrl, token: served.issueToken('commerce-sim', 'read-write'), vars: { ...served.seededIds() }, retries: 0 });
      const spy: Target = { ...live, send: (req) => (methods.add(req.method), live.send(req)) };
      try {
        const [r] = await runProperties(selectProperties('keyset-reads'), { target: spy, ruleById, seed: SEED, runs: 30, strict: true });
        if (deviate.length === 0) {
          expect([r?.status, failing(r!)]).toEqual(['pass', []]);
          expect(r?.verdicts.filter((v) => v.outcome.status === 'pass').map((v) => v.ruleId)).toEqual(
            expect.arrayContaining(['large-data.keyset.id', 'large-data.keyset.timestamp', 'filter.gt', 'filter.ge']),
          );
        } else expect(failing(r!)).toContain('filter.gt');
        expect([...methods]).toEqual(['GET']);
      } finally {
        await live.close();
        await running.close();
      }
    }
  });

  it('catches a deviation over the wire as in process', async () => {
    const deviating = new Simulator({ seed: 42, wallClock: () => 0, deviate: ['pagination.limit.max'] });
    const running = await listen(deviating, 0, '127.0.0.1');
    const live = await createHttpTarget({ baseUrl: running.baseUrl, token: deviating.issueToken('commerce-sim', 'read-write'), retries: 0 });
    try {
      const [r] = await runProperties(selectProperties('page-arithmetic'), { target: live, ruleById, seed: SEED, runs: 100, strict: true, command: `commerce-sim props --target ${running.baseUrl}` });
      expect(failing(r!)).toContain('pagination.limit.max');
      expect(r?.replay).toMatch(new RegExp(`^commerce-sim props --target ${running.baseUrl} --strict --seed ${SEED} --path "[\\d:]+" --grep page-arithmetic$`));
    } finally {
      await live.close();
      await running.close();
    }
  });
});
