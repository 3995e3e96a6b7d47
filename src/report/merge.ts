/**
 * Reports of one suite's shards (`run --shard I/N`), or of `run` and `props` against the same target,
 * merged into one report: the cases of every input, the rules summarised again over all of them, the
 * verdict decided again. Pure: reports in, a report or the reason they cannot be merged out.
 */
import type { Result } from '../result.js';
import { buildRunReport } from './build.js';
import type { ReadingPointReport } from './model.js';
import type { RunReport } from './model.js';
import type { CatalogueEntry } from './summarise.js';
import { mergeTrafficReports, type TrafficMergeInput } from './merge-traffic.js';

export interface MergeInput {
  /** Where the report was read from (named in problems). */
  readonly source: string;
  readonly report: RunReport;
}

export type MergeProblem =
  | { readonly kind: 'mismatch'; readonly field: string; readonly values?: readonly [unknown, unknown]; readonly sources: readonly [string, string] }
  | { readonly kind: 'kinds'; readonly sources: readonly [string, string] }
  | { readonly kind: 'overlap'; readonly caseName: string; readonly sources: readonly [string, string] }
  | { readonly kind: 'shards'; readonly missing: readonly string[] }
  | { readonly kind: 'empty' };

/**
 * What must be the same in every input for their verdicts to add up to one run's, member by member (a
 * refusal names the member). Shards of one command share their selection and seeds too; a `run` and a
 * `props` of one configuration each select their own cases, and only props has a fast-check seed.
 */
function configuration(r: RunReport, mixed: boolean): Record<string, unknown> {
  const o = r.options;
  const shared = {
    'tool.version': r.tool.version,
    'target.kind': r.target.kind,
    'target.baseUrl': r.target.baseUrl,
    'target.deviate': r.target.deviate,
    'options.strict': o.strict,
    'options.allowWrites': o.allowWrites,
    'options.simSeed': o.simSeed,
  };
  return mixed ? shared : { ...shared, 'options.seed': o.seed, 'options.grep': o.grep, 'options.tags': o.tags };
}

/** A report of properties alone is a `props` run's; anything else a `run`'s. */
const isProps = (r: RunReport): boolean => r.scenarios.length === 0 && r.properties.length > 0;

/** Scenarios in the order a whole run gives them: by file, then place in the file, then name. */
const scenarioOrder = (a: RunReport['scenarios'][number], b: RunReport['scenarios'][number]): number =>
  a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const stripShard = (runId: string): string => runId.replace(/-shard\d+of\d+$/, '');

/**
 * The shards of an `I/N` set no input brings: a merged verdict must not cover a shard that did not run (a
 * failed job uploads no report). Shards of different N are told apart by the configuration check.
 */
function missingShards(inputs: readonly MergeInput[]): readonly string[] {
  const given = new Map<number, Set<number>>();
  for (const { report } of inputs) {
    const match = /^(\d+)\/(\d+)$/.exec(report.options.shard ?? '');
    if (match === null) continue;
    const count = Number(match[2]);
    const set = given.get(count) ?? new Set<number>();
    set.add(Number(match[1]));
    given.set(count, set);
  }
  const missing: string[] = [];
  for (const [count, set] of given) for (let i = 1; i <= count; i++) if (!set.has(i)) missing.push(`${i}/${count}`);
  return missing;
}

export function mergeReports(inputs: readonly MergeInput[], catalogue: readonly CatalogueEntry[]): Result<RunReport, MergeProblem> {
  const first = inputs[0];
  if (first === undefined) return { ok: false, kind: 'empty' };
  // Traffic judged in shards (check --shard): rules add up from their counts, not from cases.
  const traffic = inputs.filter((i): i is TrafficMergeInput => i.report.traffic !== undefined);
  if (traffic.length > 0 && traffic.length < inputs.length) {
    const other = inputs.find((i) => i.report.traffic === undefined);
    return { ok: false, kind: 'kinds', sources: [traffic[0]?.source ?? '', other?.source ?? ''] };
  }
  if (traffic.length > 0) {
    const missing = missingShards(inputs);
    if (missing.length > 0) return { ok: false, kind: 'shards', missing };
    const merged = mergeTrafficReports(traffic);
    return merged.ok ? merged : { ok: false, kind: 'mismatch', field: merged.field, sources: merged.sources };
  }
  const mixed = inputs.some((i) => isProps(i.report)) && inputs.some((i) => !isProps(i.report));
  const expected = configuration(first.report, mixed);
  for (const input of inputs.slice(1)) {
    const got = configuration(input.report, mixed);
    for (const field of Object.keys(expected))
      if (JSON.stringify(got[field]) !== JSON.stringify(expected[field])) return { ok: false, kind: 'mismatch', field, values: [expected[field], got[field]], sources: [first.source, input.source] };
  }
  // A case judged in two inputs would be counted twice: shards never overlap, so neither may the inputs.
  const seen = new Map<string, string>();
  const claim = (key: string, caseName: string, source: string): MergeProblem | undefined => {
    const other = seen.get(key);
    if (other !== undefined) return { kind: 'overlap', caseName, sources: [other, source] };
    seen.set(key, source);
    return undefined;
  };
  for (const { source, report } of inputs) {
    for (const s of report.scenarios) {
      const problem = claim(`scenario\u0000${s.file}\u0000${s.name}`, s.name, source);
      if (problem !== undefined) return { ok: false, ...problem };
    }
    for (const p of report.properties) {
      const problem = claim(`property\u0000${p.name}`, p.name, source);
      if (problem !== undefined) return { ok: false, ...problem };
    }
  }
  const missing = missingShards(inputs);
  if (missing.length > 0) return { ok: false, kind: 'shards', missing };
  const scenarios = inputs.flatMap((i) => i.report.scenarios).sort(scenarioOrder);
  const properties = inputs.flatMap((i) => i.report.properties).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const timings = inputs.map((i) => i.report.timing);
  const earliest = [...timings].sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0))[0] ?? first.report.timing;
  // A run and a props together: the run's selection, the props' fast-check seed.
  const runOptions = inputs.find((i) => !isProps(i.report))?.report.options ?? first.report.options;
  const propsSeed = inputs.find((i) => isProps(i.report))?.report.options.seed;
  const { shard: _shard, ...options } = mixed && propsSeed !== undefined ? { ...runOptions, seed: propsSeed } : first.report.options;
  const readings = mergeReadings(inputs.map((i) => i.report.readings));
  const report = buildRunReport({
    catalogue,
    version: first.report.tool.version,
    target: first.report.target,
    options,
    scenarios,
    properties,
    // Shards run side by side: the merged run took as long as the longest and made every request.
    timing: {
      runId: `${stripShard(earliest.runId)}-merged`,
      startedAt: earliest.startedAt,
      durationMs: Math.max(...timings.map((t) => t.durationMs)),
      requests: timings.reduce((n, t) => n + t.requests, 0),
    },
  });
  return { ok: true, value: readings === undefined ? report : { ...report, readings } };
}

/**
 * The readings the shards saw, together: a point one shard observed and none contradicted is observed; two
 * values, or one shard's "none of the known", make it none of the known; seen by no shard, not observed.
 */
function mergeReadings(all: readonly (readonly ReadingPointReport[] | undefined)[]): ReadingPointReport[] | undefined {
  const given = all.filter((r): r is readonly ReadingPointReport[] => r !== undefined);
  const [first] = given;
  if (first === undefined) return undefined;
  return first.map((point) => {
    const same = given.map((r) => r.find((p) => p.name === point.name)).filter((p): p is ReadingPointReport => p !== undefined);
    const odd = same.find((p) => p.status === 'unknown');
    const observed = same.filter((p) => p.status === 'observed');
    const values = new Set(observed.map((p) => p.value));
    if (odd !== undefined) return odd;
    if (values.size > 1) return { name: point.name, question: point.question, status: 'unknown', evidence: observed.map((p) => `${p.value ?? ''}: ${p.evidence ?? ''}`).join('; ') };
    return observed[0] ?? point;
  });
}

const shownValue = (v: unknown): string => (v === undefined ? 'not given' : JSON.stringify(v));

/** The problem in one line, for the CLI. */
export function describeMergeProblem(problem: MergeProblem): string {
  switch (problem.kind) {
    case 'empty':
      return 'no report to merge';
    case 'mismatch':
      return `${problem.sources[0]} and ${problem.sources[1]} are not reports of one run: their ${problem.field} differ${problem.values === undefined ? '' : ` (${shownValue(problem.values[0])} and ${shownValue(problem.values[1])})`}`;
    case 'kinds':
      return `${problem.sources[0]} is a report of observed traffic and ${problem.sources[1]} is not: they cannot be merged`;
    case 'shards':
      return `shard${problem.missing.length === 1 ? '' : 's'} ${problem.missing.join(', ')} ${problem.missing.length === 1 ? 'is' : 'are'} missing: a merged verdict would not cover ${problem.missing.length === 1 ? 'its' : 'their'} cases (merge every shard's report)`;
    case 'overlap':
      return `${problem.sources[0]} and ${problem.sources[1]} both judged '${problem.caseName}': merging would count it twice`;
  }
}
