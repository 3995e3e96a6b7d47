/**
 * The kit proven on deployments that conform but are not alike: the shipped suite and the property
 * suites run against the simulator playing a combination of readings (rules/readings.ts), faithful or
 * breaking one documented rule. On a faithful simulator no documented rule may fail, whatever the
 * combination; on a deviating one the deviated rule must fail, unless the readings leave it without
 * documented evidence (then it must not pass either: inconclusive).
 */
import * as fc from 'fast-check';
import { DEVIATION_IDS } from '../engine/deviations.js';
import { deviationCatchers, properties } from '../properties/registry.js';
import { runProperties } from '../properties/runner.js';
import type { PropertyResult, RuleSummary } from '../report/model.js';
import { summariseRules } from '../report/summarise.js';
import { catalogue, ruleById } from '../rules/catalogue.js';
import type { RuleId } from '../rules/ids.js';
import { blindedRules, READING_NAMES, readingValues, withDefaults, type ReadingChoice, type Readings } from '../rules/readings.js';
import type { Scenario } from '../scenarios/format.js';
import { runScenarios } from '../scenarios/runner.js';
import { createSimTarget } from '../adapters/simulator.js';
import { loadSuite } from './mutation.js';

/** Any combination of readings: every point takes any of its values. */
export const readingsArbitrary: fc.Arbitrary<Readings> = fc
  .record(Object.fromEntries(READING_NAMES.map((n) => [n, fc.constantFrom(...readingValues(n))])) as unknown as { [K in keyof Readings]: fc.Arbitrary<Readings[K]> })
  .map((r) => r as Readings);

/**
 * Combinations that together take every value of every point: as many as the point with the most values
 * has, the k-th taking each point's value k (shifted by the point's place, so values meet other values).
 * A property runs them first, so no value waits on chance to be drawn.
 */
export function coveringReadings(): Readings[] {
  const width = Math.max(...READING_NAMES.map((n) => readingValues(n).length));
  return Array.from(
    { length: width },
    (_, k) =>
      Object.fromEntries(
        READING_NAMES.map((n, i) => {
          const values = readingValues(n);
          return [n, values[(k + i) % values.length]];
        }),
      ) as unknown as Readings,
  );
}

/** `count` combinations drawn from `seed`: the same seed gives the same combinations. */
function sampleReadings(seed: number, count: number): Readings[] {
  return fc.sample(readingsArbitrary, { seed, numRuns: count });
}

export interface ReadingsCheck {
  readonly readings: Readings;
  readonly deviate: readonly RuleId[];
  /** The per-rule roll-up of the suite and the properties together. */
  readonly rules: readonly RuleSummary[];
  readonly properties: readonly PropertyResult[];
}

export interface ReadingsCheckOptions {
  readonly readings: ReadingChoice;
  readonly deviate?: readonly RuleId[];
  /** The fast-check seed of the property suites. */
  readonly propsSeed: number;
  /** Runs per property (default 15): enough for the judging paths, a combination a second. */
  readonly runs?: number;
  /** Only these properties (default: those that catch the deviation, or all of them on a faithful simulator). */
  readonly properties?: readonly string[];
  readonly scenarios?: readonly Scenario[];
}

/** The shipped suite and the property suites against one simulator playing the readings. */
export async function checkReadings(options: ReadingsCheckOptions): Promise<ReadingsCheck> {
  const scenarios = options.scenarios ?? (await loadSuite());
  const deviate = options.deviate ?? [];
  const target = await createSimTarget({ readings: options.readings, deviate, wallClock: () => Date.UTC(2025, 0, 1) });
  try {
    const results = await runScenarios(scenarios, { target, ruleById, concurrency: 1 });
    const names = options.properties ?? (deviate.length === 0 ? properties.map((p) => p.name) : [...new Set(deviate.flatMap((id) => deviationCatchers[id] ?? []))]);
    const suites = properties.filter((p) => names.includes(p.name));
    const props = await runProperties(suites, { target, ruleById, seed: options.propsSeed, runs: options.runs ?? 15, allowWrites: true });
    return { readings: withDefaults(options.readings), deviate, rules: summariseRules(catalogue, results, props), properties: props };
  } finally {
    await target.close();
  }
}

/** Documented rules that failed, with the first failing verdict's message. */
export function documentedFailures(check: ReadingsCheck): { readonly ruleId: string; readonly message: string }[] {
  return check.rules
    .filter((r) => r.level === 'documented' && r.status === 'fail')
    .map((r) => {
      const p = check.properties.flatMap((x) => x.verdicts).find((v) => v.ruleId === r.id && v.outcome.status === 'fail');
      return { ruleId: r.id, message: p?.outcome.status === 'fail' ? p.outcome.message : 'failed in a scenario' };
    });
}

/** What a deviation under readings came to: caught, inconclusive because the readings blind it, or missed. */
export type DeviationVerdict =
  | { readonly kind: 'caught' }
  | { readonly kind: 'blinded'; readonly by: string; readonly status: RuleSummary['status'] }
  | { readonly kind: 'missed'; readonly status: RuleSummary['status'] | undefined };

export function deviationVerdict(check: ReadingsCheck, ruleId: RuleId): DeviationVerdict {
  const status = check.rules.find((r) => r.id === ruleId)?.status;
  if (status === 'fail') return { kind: 'caught' };
  const by = blindedRules(check.readings).get(ruleId);
  if (by !== undefined && status !== 'pass') return { kind: 'blinded', by, status: status ?? 'not-covered' };
  return { kind: 'missed', status };
}

export interface ReadingsMutationRow {
  readonly readings: Readings;
  /** Documented rules the faithful simulator failed under these readings (must be none). */
  readonly falseFailures: readonly { readonly ruleId: string; readonly message: string }[];
  readonly deviations: readonly { readonly ruleId: RuleId; readonly verdict: DeviationVerdict }[];
}

/** `commerce-sim mutation --readings`: for each combination, the faithful check and every deviation layered on it. */
export async function runReadingsMutation(options: { readonly seed: number; readonly count: number; readonly deviations?: readonly RuleId[]; readonly runs?: number }): Promise<ReadingsMutationRow[]> {
  const scenarios = await loadSuite();
  const rows: ReadingsMutationRow[] = [];
  for (const [i, readings] of sampleReadings(options.seed, options.count).entries()) {
    const propsSeed = options.seed + i;
    const faithful = await checkReadings({ readings, propsSeed, scenarios, ...(options.runs === undefined ? {} : { runs: options.runs }) });
    const deviations: { ruleId: RuleId; verdict: DeviationVerdict }[] = [];
    for (const ruleId of options.deviations ?? DEVIATION_IDS) {
      const check = await checkReadings({ readings, propsSeed, scenarios, deviate: [ruleId], ...(options.runs === undefined ? {} : { runs: options.runs }) });
      deviations.push({ ruleId, verdict: deviationVerdict(check, ruleId) });
    }
    rows.push({ readings, falseFailures: documentedFailures(faithful), deviations });
  }
  return rows;
}
