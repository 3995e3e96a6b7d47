/**
 * One way to build a run's report, for `run` (scenarios) and `props` (properties) alike: the per-rule
 * roll-up and the verdict come from the same functions whatever produced the results.
 */
import type { CatalogueEntry } from './summarise.js';
import { summariseRules, summariseRun } from './summarise.js';
import type { PropertyResult, ReadingPointReport, RunReport, ScenarioResult } from './model.js';
import { pointQuestion, type Fingerprint } from '../rules/fingerprint.js';
import { READING_NAMES } from '../rules/readings.js';

export interface RunReportInput {
  readonly catalogue: readonly CatalogueEntry[];
  readonly version: string;
  readonly target: RunReport['target'];
  readonly options: RunReport['options'];
  readonly scenarios?: readonly ScenarioResult[];
  readonly properties?: readonly PropertyResult[];
  readonly timing: RunReport['timing'];
  /** The readings the run's answers showed (rules/fingerprint.ts). */
  readonly readings?: Fingerprint;
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
    ...(input.readings === undefined ? {} : { readings: readingsReport(input.readings) }),
    timing: input.timing,
  };
}

/** The fingerprint as the report shows it, point by point in the table's order. */
function readingsReport(print: Fingerprint): ReadingPointReport[] {
  return READING_NAMES.map((name) => {
    const o = print[name];
    const question = pointQuestion(name);
    switch (o.kind) {
      case 'observed':
        return { name, question, status: 'observed', value: o.value, evidence: o.evidence };
      case 'unknown':
        return { name, question, status: 'unknown', evidence: o.evidence };
      case 'not-observed':
        return { name, question, status: 'not-observed', reason: o.reason };
    }
  });
}
