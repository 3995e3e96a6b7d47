/**
 * The traffic judge on deployments that conform but are not alike, as a property: the traffic of the
 * shipped suite and of the reference client, recorded from the simulator playing any seeded combination
 * of readings (and, on some runs, answering only the documented surface), gives no documented failure of
 * a server rule, complete or not; and of the client rules, none on the reference client's requests and on
 * the suite's none but what it does on purpose and says so (it pages /v2/orders and /v2/files past the
 * hard offset limit and sends refused creates to probe the server; x-commerce-sim-expect names them). Every value of every point is met first (coveringReadings), then random
 * combinations: TRAFFIC_READINGS_RUNS (default 8). The seed is printed; replay with TRAFFIC_READINGS_SEED=<seed>.
 */
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { exportAccounts } from '../../src/client/export.js';
import { iterate } from '../../src/client/keyset.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { coveringReadings, readingsArbitrary } from '../../src/kit/readings-proof.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { describeReadings } from '../../src/rules/readings.js';
import type { Scenario } from '../../src/scenarios/format.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { judgeTraffic } from '../../src/traffic/judge/judge.js';
import { observedTarget } from '../../src/traffic/observed-target.js';

const SEED = Number(process.env['TRAFFIC_READINGS_SEED'] ?? 20261126);
const COVERING = coveringReadings();

describe('the traffic judge on servers that conform but are not alike', () => {
  let scenarios: Scenario[];
  beforeAll(async () => {
    scenarios = await loadSuite();
    console.log(`traffic readings property: seed ${SEED} (replay with TRAFFIC_READINGS_SEED=${SEED})`);
  });

  it('finds no documented server failure in any conforming server’s traffic, and of the client only the suite’s deliberate probes', async () => {
    await fc.assert(
      fc.asyncProperty(readingsArbitrary, fc.boolean(), fc.boolean(), async (readings, documentedOnly, complete) => {
        const sim = await createSimTarget({ readings, ...(documentedOnly ? { surface: 'documented' as const } : {}), wallClock: () => Date.UTC(2025, 0, 1) });
        const entries: TrafficEntry[] = [];
        const target = observedTarget(sim, (e) => entries.push(e));
        let suiteEnds = 0;
        try {
          await runScenarios(scenarios, { target, ruleById, concurrency: 1 });
          suiteEnds = entries.length;
          for (const attribute of ['id', 'created_at'] as const) for await (const _r of iterate(target, '/v2/accounts', { attribute, pageSize: 7, highWater: !documentedOnly })) void _r;
          await exportAccounts(target, { write: () => undefined }, { pageSize: 13 });
        } finally {
          await sim.close();
        }
        const result = await judgeTraffic(entries, { complete });
        const failures = result.findings.filter((f) => f.party === 'server' && f.level === 'documented' && f.status === 'fail');
        if (failures.length > 0)
          throw new Error(
            `documented server rules failed on a conforming simulator's traffic (${describeReadings(readings)}${documentedOnly ? ', surface documented' : ''}, ${complete ? 'complete' : 'not complete'}):\n${failures.map((f) => `  ${f.ruleId}: ${f.message} [${f.evidence.join(', ')}]`).join('\n')}`,
          );
        // The client rules: the reference client breaks none; the suite only the limit it probes on purpose.
        const numberOf = (source: string) => Number(/(\d+)$/.exec(source)?.[1] ?? 0);
        const clientFindings = result.findings.filter((f) => f.party === 'client' && f.level === 'documented');
        const byReference = clientFindings.filter((f) => f.evidence.some((e) => numberOf(e) > suiteEnds));
        expect(
          byReference.map((f) => `${f.ruleId}: ${f.message}`),
          describeReadings(readings),
        ).toEqual([]);
        // Its probes past the hard offset limit and its refused creates name the rules they break (x-commerce-sim-expect): counted apart, never findings.
        expect(
          clientFindings.map((f) => `${f.ruleId} (${f.status}): ${f.message} [${f.evidence.join(', ')}]`),
          describeReadings(readings),
        ).toEqual([]);
        expect(result.deliberate?.byRule.get('client.offset.hard-limit')).toBeGreaterThan(0);
        // Not vacuous: documented server rules are judged (passed) on this traffic.
        const judged = [...result.tallies].filter(([id, t]) => ruleById(id)?.level === 'documented' && t.passed > 0).length;
        expect(judged).toBeGreaterThanOrEqual(documentedOnly ? 15 : 25);
      }),
      {
        seed: SEED,
        numRuns: COVERING.length + Number(process.env['TRAFFIC_READINGS_RUNS'] ?? 8),
        endOnFailure: true,
        // The covering combinations first, the surface and completeness in turn.
        examples: COVERING.map((r, i) => [r, i % 2 === 0, i % 3 !== 0]),
      },
    );
  }, 240_000);
});
