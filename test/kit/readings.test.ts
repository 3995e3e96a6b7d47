/**
 * The kit proven on every legal reading of the document, as a property: for any seeded combination of
 * readings (rules/readings.ts) the simulator plays, the shipped suite and every property suite give
 * no documented failure; and a documented deviation layered on any combination fails its own rule
 * (or, where the readings leave it no documented evidence, is inconclusive: never passed).
 *
 * Every value of every point is met in every run (coveringReadings, run first), then random combinations:
 * READINGS_RUNS (default 10) faithful ones and READINGS_DEVIATION_RUNS (default 40) deviation × readings
 * pairs beyond one pass over every deviation. The seed is printed; replay a failure with
 * READINGS_SEED=<seed> (and the path fast-check prints), raise the budget with the two counts.
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
import { checkReadings, coveringReadings, deviationVerdict, documentedFailures, readingsArbitrary } from '../../src/kit/readings-proof.js';
import { DEFAULT_READINGS, describeReadings, READING_NAMES, readingValues, type Readings } from '../../src/rules/readings.js';
import type { RuleId } from '../../src/rules/ids.js';
import type { Scenario } from '../../src/scenarios/format.js';

const SEED = Number(process.env['READINGS_SEED'] ?? 20261125);
const PATH = process.env['READINGS_PATH'];
const RUNS = Number(process.env['READINGS_RUNS'] ?? 10);
const DEVIATION_RUNS = Number(process.env['READINGS_DEVIATION_RUNS'] ?? 40);
const COVERING = coveringReadings();

describe('the kit on deployments that conform but are not alike', () => {
  let scenarios: Scenario[];
  beforeAll(async () => {
    scenarios = await loadSuite();
    console.log(`readings property: seed ${SEED} (replay with READINGS_SEED=${SEED}); ${COVERING.length} covering combinations, then ${RUNS} faithful and ${DEVIATION_RUNS} deviation runs`);
  });

  it('meets every value of every point in the combinations it runs first', () => {
    for (const name of READING_NAMES) expect(new Set(COVERING.map((r) => r[name])), name).toEqual(new Set(readingValues(name)));
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
      { seed: SEED, numRuns: COVERING.length + RUNS, endOnFailure: true, examples: COVERING.map((r, i) => [r, SEED + i]), ...(PATH === undefined ? {} : { path: PATH }) },
    );
  }, 600_000);

  it('fails the deviated rule for any documented deviation layered on any combination of readings', async () => {
    // Every deviation once on a covering combination (in turn), then random pairs.
    const examples: [Readings, RuleId, number][] = DEVIATION_IDS.map((id, i) => [COVERING[i % COVERING.length] ?? DEFAULT_READINGS, id, SEED + i]);
    await fc.assert(
      fc.asyncProperty(readingsArbitrary, fc.constantFrom(...DEVIATION_IDS), fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (readings, ruleId, propsSeed) => {
        const check = await checkReadings({ readings, propsSeed, scenarios, deviate: [ruleId] });
        const verdict = deviationVerdict(check, ruleId);
        if (verdict.kind === 'missed') throw new Error(`${ruleId} missed (${verdict.status ?? 'not judged'}) under ${describeReadings(readings)}, props seed ${propsSeed}`);
      }),
      { seed: SEED, numRuns: examples.length + DEVIATION_RUNS, endOnFailure: true, examples, ...(PATH === undefined ? {} : { path: PATH }) },
    );
  }, 600_000);

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
      expect(c.out()).toMatch(/PASS: (all 34|\d+ of 34) documented rules judged, all hold/);
      const p = captureIo({ cwd: dir, env: { T: token } });
      expect(await props(['--target', server.baseUrl, '--token-env', 'T', '--grep', 'keyset-reads', '--runs', '10', '--seed', String(SEED), '--report', dir], p.io), p.out()).toBe(0);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
