/**
 * The kit proven on every legal reading of the document, as a property: for any seeded combination of
 * readings (rules/readings.ts) the simulator plays, the shipped suite and every property suite give
 * no documented failure; and a documented deviation layered on any combination fails its own rule
 * (or, where the readings leave it no documented evidence, is inconclusive: never passed).
 *
 * The seed is printed; replay a failure with READINGS_SEED=<seed> (and the path fast-check prints).
 */
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEVIATION_IDS } from '../../src/engine/deviations.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { checkReadings, deviationVerdict, documentedFailures, readingsArbitrary, sampleReadings } from '../../src/kit/readings.js';
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
});
