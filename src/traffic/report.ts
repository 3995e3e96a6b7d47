/**
 * A traffic judge's result as the kit's usual report: the per-rule roll-up from the judge's tallies
 * (a rule the traffic never exercised is `not-covered`, shown as "not observed", never as passed),
 * one case per walk (or per client, for findings outside walks) whose steps are the findings, and the
 * traffic section (walks, ground truth, infrastructure notes). Every reporter then renders it as is.
 */
import { catalogue } from '../rules/catalogue.js';
import { clientRuleMetas } from './client-rules/catalogue.js';
import type { Outcome } from '../rules/rule.js';
import { ruleSummary, summariseRun } from '../report/summarise.js';
import type { RuleSummary, RunReport, ScenarioResult, StepResult, TrafficDeliberate, TrafficSection } from '../report/model.js';
import type { Deliberate, Finding, TrafficResult } from './judge/judge.js';

export type JudgedParty = 'both' | 'server' | 'client';

export interface TrafficReportInput {
  readonly result: TrafficResult;
  readonly version: string;
  readonly target: RunReport['target'];
  readonly strict: boolean;
  /** Only the server's rules, only the client's, or both (default). */
  readonly judged?: JudgedParty;
  readonly sources: readonly string[];
  readonly timing: RunReport['timing'];
  /** The file a case's annotations point at (the HAR checked); default `traffic`. */
  readonly caseFile?: string;
  /** `I/N`: one shard's report (`check --shard`), for `report merge`. */
  readonly shard?: string;
}

export function buildTrafficReport(input: TrafficReportInput): RunReport {
  const judged = input.judged ?? 'both';
  const r = input.result;
  const entries = [...(judged === 'client' ? [] : catalogue), ...(judged === 'server' ? [] : clientRuleMetas)];
  const rules: RuleSummary[] = entries.map((rule) => {
    const t = r.tallies.get(rule.id) ?? { passed: 0, failed: 0, inconclusive: 0, skipped: 0 };
    return ruleSummary(rule, t, t.passed + t.failed + t.inconclusive > 0 ? ['traffic'] : []);
  });
  const kept = r.findings.filter((f) => judged === 'both' || f.party === judged);
  const scenarios = casesOf(kept, input.caseFile ?? 'traffic');
  const traffic: TrafficSection = {
    sources: input.sources,
    entries: r.entries,
    clients: r.clients,
    complete: r.complete,
    judged,
    walks: r.walks,
    walksTotal: r.walksTotal,
    infrastructure: r.infrastructure,
    ...(r.shed === undefined ? {} : { shed: r.shed }),
    ...(r.deliberate === undefined || judged === 'server' ? {} : { deliberate: deliberateSection(r.deliberate) }),
  };
  return {
    schemaVersion: 1,
    tool: { name: 'commerce-sim', version: input.version },
    target: input.target,
    options: { strict: input.strict, allowWrites: false, ...(input.shard === undefined ? {} : { shard: input.shard }) },
    summary: summariseRun(rules, scenarios, [], input.strict),
    rules,
    scenarios,
    properties: [],
    traffic,
    timing: input.timing,
  };
}

function deliberateSection(d: Deliberate): TrafficDeliberate {
  const byRule = Object.fromEntries([...d.byRule].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { total: [...d.byRule.values()].reduce((a, b) => a + b, 0), byRule, examples: d.kept.map((k) => ({ ruleId: k.ruleId, message: k.message, evidence: k.evidence })) };
}

/** One case per walk with findings, then one per client for findings outside walks; in the order first met. */
function casesOf(findings: readonly Finding[], file: string): ScenarioResult[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = f.walk ?? `exchanges of ${f.evidence[0] ?? 'the traffic'}`.replace(/ (entry|#)\s*\d+$/, '');
    const g = groups.get(key) ?? [];
    g.push(f);
    groups.set(key, g);
  }
  return [...groups].map(([name, list]) => {
    const steps: StepResult[] = list.map((f, i) => {
      const outcome: Outcome =
        f.status === 'fail' ? { status: 'fail', message: f.message, expected: f.expected, actual: f.actual } : { status: 'inconclusive', reason: f.message, dependsOn: f.evidence };
      return {
        index: i + 1,
        name: `${f.party === 'client' ? 'the client' : 'the server'}: ${f.evidence.join(', ')}`,
        role: 'probe',
        status: f.status,
        verdicts: [{ ruleId: f.ruleId, source: 'check', description: f.message, outcome }],
        exchanges: f.exchanges,
      };
    });
    const rules = [...new Set(list.map((f) => f.ruleId))];
    const status = steps.some((s) => s.status === 'fail') ? 'fail' : 'inconclusive';
    return { name, file, tags: ['traffic'], rules, status, steps };
  });
}
