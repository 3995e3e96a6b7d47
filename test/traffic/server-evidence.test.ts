/**
 * The traffic judge loses no evidence a rule can see, as a property: legal clients (the plans of
 * test/support/legal-clients/) play against a simulator deviating from one documented rule; whenever that
 * rule, judged on one activity's exchanges at once (as a scenario's steps are judged; every client's writes
 * meanwhile included), fails, the traffic judge (walks, sessions, chunks, budget) fails it too. On the
 * faithful simulator no activity fails a documented rule that way, so the oracle is sound.
 * Seeded: TRAFFIC_SERVER_SEED, TRAFFIC_SERVER_RUNS.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simTargetOf } from '../../src/adapters/simulator.js';
import { DEVIATION_IDS } from '../../src/engine/deviations.js';
import type { Exchange } from '../../src/port.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { judgeRule } from '../../src/rules/judge.js';
import { changesState } from '../../src/rules/inspect.js';
import type { RuleId } from '../../src/rules/ids.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { resolveDataset } from '../../src/store/adversity-profiles.js';
import { createTrafficJudge } from '../../src/traffic/judge/judge.js';
import { observedTarget } from '../../src/traffic/observed-target.js';
import { describePlan, planArbitrary, type Plan } from '../support/legal-clients/plan.js';
import { play, type ActivityLog } from '../support/legal-clients/run.js';

const SEED = Number(process.env['TRAFFIC_SERVER_SEED'] ?? 20261127);
const RUNS = Number(process.env['TRAFFIC_SERVER_RUNS'] ?? 40);
const DATASETS = ['default', 'shared-timestamps'] as const;

interface Played {
  /** Each activity's exchanges, with every write of the traffic made meanwhile, in order. */
  readonly activities: readonly (readonly Exchange[])[];
  readonly failed: ReadonlySet<string>;
}

async function played(plan: Plan, dataset: (typeof DATASETS)[number], seed: number, deviate: readonly RuleId[]): Promise<Played> {
  const d = await resolveDataset(dataset);
  const sim = new Simulator({
    seed,
    profile: d.profile,
    ...(d.burst === undefined ? {} : { burst: d.burst }),
    counts: { ...(d.counts ?? {}), accounts: 241 },
    adversity: d.adversity,
    wallClock: () => Date.UTC(2025, 5, 1),
    deviate,
  });
  const judge = createTrafficJudge({ complete: true });
  const sent: { readonly ex: Exchange; readonly by: ActivityLog | undefined; readonly pass: number }[] = [];
  const current: { log: ActivityLog | undefined } = { log: undefined };
  const target = observedTarget(simTargetOf(sim), (e) => {
    sent.push({ ex: e.exchange, by: current.log, pass: current.log?.pass ?? 0 });
    judge.observe(e);
  });
  const tokens = Array.from({ length: plan.clients.length }, () => sim.issueToken(DEFAULT_CLIENT_ID, 'read-write'));
  const logs = await play(plan, { target, tokens, now: () => sim.project(DEFAULT_CLIENT_ID).clock.now(), sleep: () => Promise.resolve(), current });
  const result = judge.finish();
  const failed = new Set(result.findings.filter((f) => f.party === 'server' && f.level === 'documented' && f.status === 'fail').map((f) => f.ruleId));
  // One context per pass of an activity over its query (a sync's two runs are two), as a scenario would judge each.
  const activities = logs.flatMap((log) => Array.from({ length: log.pass + 1 }, (_, pass) => sent.filter((x) => (x.by === log && x.pass === pass) || changesState(x.ex)).map((x) => x.ex)));
  return { activities, failed };
}

/** The rule on each activity's exchanges at once: 'fail' when one of them shows it failing. */
function byActivity(id: RuleId, activities: readonly (readonly Exchange[])[]): 'fail' | 'other' {
  const rule = ruleById(id);
  if (rule === undefined) return 'other';
  return activities.some((exchanges) => judgeRule(rule, { exchanges, vars: {} }, new Set(exchanges.filter(changesState)))[0]?.outcome.status === 'fail') ? 'fail' : 'other';
}

describe('the traffic judge on a deviating server', () => {
  it('fails a deviated rule wherever an activity’s traffic shows it failing, and the faithful simulator’s traffic shows no documented failure', async () => {
    console.log(`server evidence property: seed ${SEED}, ${RUNS} runs (replay with TRAFFIC_SERVER_SEED=${SEED})`);
    const shown = new Set<string>();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(planArbitrary, fc.constantFrom(...DATASETS), fc.integer({ min: 1, max: 1_000 }), fc.constantFrom(...DEVIATION_IDS), async (plan, dataset, seed, id) => {
        runs++;
        const deviating = await played(plan, dataset, seed, [id]);
        if (byActivity(id, deviating.activities) === 'fail') {
          shown.add(id);
          expect(deviating.failed.has(id), `${id} fails on an activity's traffic but the traffic judge missed it (${dataset}, seed ${seed})\n  ${describePlan(plan)}`).toBe(true);
        }
        const faithful = await played(plan, dataset, seed, []);
        expect(byActivity(id, faithful.activities), `${id} fails on an activity's traffic of the faithful simulator: the oracle is unsound (${dataset}, seed ${seed})\n  ${describePlan(plan)}`).toBe(
          'other',
        );
        expect([...faithful.failed], `documented server failures on the faithful simulator (${dataset}, seed ${seed})\n  ${describePlan(plan)}`).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // Not vacuous: legal clients' traffic holds the evidence of a good share of the deviations drawn.
    console.log(`deviations the traffic showed (and the judge found): ${[...shown].sort().join(', ')}`);
    expect(shown.size, `only ${shown.size} deviations shown in ${runs} runs`).toBeGreaterThanOrEqual(Math.min(6, Math.floor(runs / 5)));
  }, 600_000);
});
