/**
 * The kit proven on every legal reading of the document, as a property: for any seeded combination of
 * readings (rules/readings.ts) the simulator plays, the shipped suite and every property suite give
 * no documented failure; and a documented deviation layered on any combination fails its own rule
 * (or, where the readings leave it no documented evidence, is inconclusive: never passed).
 *
 * The seed is printed; replay a failure with READINGS_SEED=<seed> (and the path fast-check prints).
 */
import * as fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { props } from '../../src/cli/props.js';
import { run } from '../../src/cli/run.js';
import { listen } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';
import { captureIo } from '../support/cli-io.js';
import { DEVIATION_IDS } from '../../src/engine/deviations.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { checkReadings, deviationVerdict, documentedFailures, readingsArbitrary, sampleReadings } from '../../src/kit/readings-proof.js';
import { describeReadings } from '../../src/rules/readings.js';
import type { Scenario } from '../../src/scenarios/format.js';

const SEED = Number(process.env['READINGS_SEED'] ?? 20261125);
const PATH = process.env['READINGS_PATH'];

describe('the kit on deployments that conform but are not alike', () => {
  let scenarios: Scenario[];
  beforeAll(async () => {
    scenarios = await loadSuite();
    console.log(`readings property: seed ${SEED} (replay with READINGS_SEED=${SEED})`);
  });

  it('fails no documented rule on any combination of readings, in the shipped suite and the property suites', async () => {
    await fc.assert(
      fc.asyncProperty(readingsArbitrary, fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (readings, propsSeed) => {
        const check = await checkReadings({ readings, propsSeed, scenarios });
        const failures = documentedFailures(check);
        if (failures.length > 0)
          throw new Error(
            `documented rules failed on a conforming simulator (${describeReadings(readings)}, props seed ${propsSeed}):\n${failures.map((f) => `  ${f.ruleId}: ${f.message}`).join('\n')}`,
          );
        // Not vacuous: most documented rules are judged (passed) under any readings.
        const judged = check.rules.filter((r) => r.level === 'documented' && r.status === 'pass').length;
        expect(judged).toBeGreaterThanOrEqual(28);
      }),
      { seed: SEED, numRuns: 10, endOnFailure: true, ...(PATH === undefined ? {} : { path: PATH }) },
    );
  }, 240_000);

  it('fails the deviated rule for every documented deviation layered on a combination of readings', async () => {
    // One combination per deviation, drawn from the seed: over the runs every deviation meets many readings.
    const combos = sampleReadings(SEED, DEVIATION_IDS.length);
    const missed: string[] = [];
    for (const [i, ruleId] of DEVIATION_IDS.entries()) {
      const readings = combos[i] ?? combos[0];
      if (readings === undefined) continue;
      const check = await checkReadings({ readings, propsSeed: SEED + i, scenarios, deviate: [ruleId] });
      const verdict = deviationVerdict(check, ruleId);
      if (verdict.kind === 'missed') missed.push(`${ruleId} (${verdict.status ?? 'not judged'}) under ${describeReadings(readings)}`);
    }
    expect(missed).toEqual([]);
  }, 240_000);

  it('passes a served simulator that always compresses, closes every connection, says vnd.api+json and resets some reads', async () => {
    const sim = new Simulator({
      readings: { compression: 'always', connection: 'close', 'media-type': 'application/vnd.api+json', 'meta.position': 'nested', 'timestamps.precision': 'ns' },
      // One connection in ten reset on the list reads: a GET is retried, never a create (none here: read-only).
      adversity: { resetShare: 0.1, faultPath: '/v2/accounts' },
      wallClock: () => Date.now(),
    });
    const server = await listen(sim, 0, '127.0.0.1');
    const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-readings-http-'));
    try {
      const token = sim.issueToken('reader', 'read-write');
      const c = captureIo({ cwd: dir, env: { T: token } });
      const code = await run(['--target', server.baseUrl, '--token-env', 'T', '--report', dir], c.io);
      expect(c.err(), c.out()).toBe('');
      expect(code, c.out()).toBe(0);
      expect(c.out()).toMatch(/PASS: every documented rule holds/);
      const p = captureIo({ cwd: dir, env: { T: token } });
      expect(await props(['--target', server.baseUrl, '--token-env', 'T', '--grep', 'keyset-reads', '--runs', '10', '--seed', String(SEED), '--report', dir], p.io), p.out()).toBe(0);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
