/**
 * Mutation testing of the shipped suite: for every deviation the simulator implements, run the whole
 * suite against a simulator that breaks that one rule on purpose, and see whether the suite notices.
 * A deviation is caught when its own rule fails; any other documented rule failing is reported, since
 * a suite that blames the wrong rule sends its reader to the wrong section of the document.
 */
import { fileURLToPath } from 'node:url';
import { DEVIATION_IDS } from '../engine/deviations.js';
import type { RuleSummary, ScenarioResult } from '../report/model.js';
import type { MutationRow } from './mutation-table.js';

export { mutationScore, renderMutationTable, type MutationRow } from './mutation-table.js';
import { summariseRules } from '../report/summarise.js';
import { catalogue, ruleById } from '../rules/catalogue.js';
import type { Scenario } from '../scenarios/format.js';
import { loadScenarios } from '../scenarios/load.js';
import { runScenarios } from '../scenarios/runner.js';
import type { Surface } from '../sim/surface.js';
import { createSimTarget } from '../adapters/simulator.js';
import type { RuleId } from '../rules/ids.js';

export interface MutationOptions {
  /** Scenario files or directories (default: the scenarios shipped with the kit). */
  readonly scenariosDir?: string;
  /** Deviation ids to try (default: every id in DEVIATION_IDS). */
  readonly deviations?: readonly RuleId[];
  /** Simulator seed (default: the simulator's). */
  readonly seed?: number;
  /** The simulator's surface (default full): `documented` proves the suite on a deployment that implements only the document. */
  readonly surface?: Surface;
}

/** One run of the suite: per-scenario results and the per-rule roll-up. */
export interface SuiteRun {
  readonly scenarios: readonly ScenarioResult[];
  readonly rules: readonly RuleSummary[];
}

const SHIPPED_SCENARIOS = fileURLToPath(new URL('../../scenarios', import.meta.url));

export function loadSuite(scenariosDir: string = SHIPPED_SCENARIOS): Promise<Scenario[]> {
  return loadScenarios([scenariosDir], { ruleExists: (id) => ruleById(id) !== undefined, cwd: scenariosDir });
}

/** The suite against one in-process simulator (faithful, or breaking the given rules). */
export async function runSuite(scenarios: readonly Scenario[], options: { readonly deviate?: readonly RuleId[]; readonly seed?: number; readonly surface?: Surface } = {}): Promise<SuiteRun> {
  const target = await createSimTarget({
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.deviate === undefined ? {} : { deviate: options.deviate }),
    ...(options.surface === undefined ? {} : { surface: options.surface }),
    // A fixed wall clock: only the token's `expires` reads it, and the verdicts must not depend on it.
    wallClock: () => Date.UTC(2025, 0, 1),
  });
  try {
    const results = await runScenarios(scenarios, { target, ruleById, concurrency: 1 });
    return { scenarios: results, rules: summariseRules(catalogue, results, []) };
  } finally {
    await target.close();
  }
}

export async function runMutation(options: MutationOptions = {}): Promise<MutationRow[]> {
  const scenarios = await loadSuite(options.scenariosDir);
  const rows: MutationRow[] = [];
  for (const ruleId of options.deviations ?? DEVIATION_IDS) {
    const run = await runSuite(scenarios, { deviate: [ruleId], ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.surface === undefined ? {} : { surface: options.surface }) });
    const failed = run.rules.filter((r) => r.status === 'fail');
    rows.push({
      ruleId,
      caught: failed.some((r) => r.id === ruleId),
      inconclusive: run.rules.some((r) => r.id === ruleId && r.status === 'inconclusive'),
      failedRules: failed.map((r) => r.id),
      unrelated: failed.filter((r) => r.id !== ruleId && r.level === 'documented').map((r) => r.id),
    });
  }
  return rows;
}
