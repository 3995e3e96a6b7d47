/**
 * One way to build a run's report, for `run` (scenarios) and `props` (properties) alike: the per-rule
 * roll-up and the verdict come from the same functions whatever produced the results.
 */
import type { CatalogueEntry } from './summarise.js';
import { summariseRules, summariseRun } from './summarise.js';
import type { PropertyResult, RunReport, ScenarioResult } from './model.js';

export interface RunReportInput {
  readonly catalogue: readonly CatalogueEntry[];
  readonly version: string;
  readonly target: RunReport['target'];
  readonly options: RunReport['options'];
  readonly scenarios?: readonly ScenarioResult[];
  readonly properties?: readonly PropertyResult[];
  readonly timing: RunReport['timing'];
}

export function buildRunReport(input: RunReportInput): RunReport {
  const scenarios = input.scenarios ?? [];
  const properties = input.properties ?? [];
  const rules = summariseRules(input.catalogue, scenarios, properties);
  return {
    schemaVersion: 1,
    tool: { name: 'commerce-sim', version: input.version },
    target: input.target,
    options: input.options,
    summary: summariseRun(rules, scenarios, properties, input.options.strict),
    rules,
    scenarios,
    properties,
    timing: input.timing,
  };
}
