/**
 * Reports of traffic judged in shards (`check --shard I/N` on several machines) merged into one: each
 * rule's counts added up and its status decided again, the cases (findings grouped by walk) side by side
 * with the shard they came from, the traffic section added up. Pure: reports in, one report out.
 */
import type { Result } from '../result.js';
import type { RuleSummary, RunReport, TrafficDeliberate, TrafficSection } from './model.js';
import { ruleSummary, summariseRun } from './summarise.js';

export interface TrafficMergeInput {
  readonly source: string;
  readonly report: RunReport & { readonly traffic: TrafficSection };
}

/** What must agree for shards' verdicts to add up to one judging's: the tool, what was read, how it was judged. */
const sameFields = (r: TrafficMergeInput['report']): Record<string, unknown> => {
  const { shard: _shard, ...options } = r.options;
  return { 'tool.version': r.tool.version, 'traffic.sources': r.traffic.sources, 'traffic.judged': r.traffic.judged, options };
};

/** Deliberate findings of every shard, added up rule by rule. */
function mergedDeliberate(t: readonly TrafficSection[]): { deliberate?: TrafficDeliberate } {
  const parts = t.flatMap((x) => (x.deliberate === undefined ? [] : [x.deliberate]));
  if (parts.length === 0) return {};
  const byRule: Record<string, number> = {};
  for (const d of parts) for (const [id, n] of Object.entries(d.byRule)) byRule[id] = (byRule[id] ?? 0) + n;
  const sorted = Object.fromEntries(Object.entries(byRule).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { deliberate: { total: parts.reduce((n, d) => n + d.total, 0), byRule: sorted, examples: parts.flatMap((d) => d.examples) } };
}

export function mergeTrafficReports(inputs: readonly TrafficMergeInput[]): Result<RunReport, { readonly field: string; readonly sources: readonly [string, string] }> {
  const first = inputs[0];
  if (first === undefined) return { ok: false, field: 'reports', sources: ['', ''] };
  const expected = sameFields(first.report);
  for (const input of inputs.slice(1)) {
    const got = sameFields(input.report);
    for (const field of Object.keys(expected)) if (JSON.stringify(got[field]) !== JSON.stringify(expected[field])) return { ok: false, field, sources: [first.source, input.source] };
  }
  const rules: RuleSummary[] = first.report.rules.map((rule) => {
    const all = inputs.map((i) => i.report.rules.find((r) => r.id === rule.id));
    const sum = (k: 'passed' | 'failed' | 'inconclusive' | 'skipped') => all.reduce((n, r) => n + (r?.[k] ?? 0), 0);
    const coveredBy = [...new Set(all.flatMap((r) => r?.coveredBy ?? []))].sort();
    return ruleSummary(rule, { passed: sum('passed'), failed: sum('failed'), inconclusive: sum('inconclusive'), skipped: sum('skipped') }, coveredBy);
  });
  // Walks are numbered per shard: a case is named with the shard it came from.
  const scenarios = inputs.flatMap(({ source, report }) =>
    report.scenarios.map((s) => ({ ...s, name: `${s.name} (${report.options.shard === undefined ? source : `shard ${report.options.shard}`})` })),
  );
  const t = inputs.map((i) => i.report.traffic);
  const total = (f: (x: TrafficSection) => number) => t.reduce((n, x) => n + f(x), 0);
  const shedExchanges = total((x) => x.shed?.exchanges ?? 0);
  const traffic: TrafficSection = {
    sources: first.report.traffic.sources,
    entries: total((x) => x.entries),
    clients: total((x) => x.clients),
    complete: t.every((x) => x.complete),
    judged: first.report.traffic.judged,
    walks: t.flatMap((x) => x.walks),
    walksTotal: total((x) => x.walksTotal),
    infrastructure: t.flatMap((x) => x.infrastructure),
    ...(shedExchanges === 0 ? {} : { shed: { exchanges: shedExchanges, clients: total((x) => x.shed?.clients ?? 0) } }),
    ...mergedDeliberate(t),
  };
  const timings = inputs.map((i) => i.report.timing);
  const earliest = [...timings].sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0))[0] ?? first.report.timing;
  const { shard: _shard, ...options } = first.report.options;
  return {
    ok: true,
    value: {
      schemaVersion: 1,
      tool: first.report.tool,
      target: first.report.target,
      options,
      summary: summariseRun(rules, scenarios, [], options.strict),
      rules,
      scenarios,
      properties: [],
      traffic,
      timing: {
        runId: `${earliest.runId.replace(/-shard\d+of\d+$/, '')}-merged`,
        startedAt: earliest.startedAt,
        durationMs: Math.max(...timings.map((x) => x.durationMs)),
        requests: timings.reduce((n, x) => n + x.requests, 0),
      },
    },
  };
}
