/**
 * Drift between two sides (simulator, live deployment, recording): the same scenarios' exchanges
 * paired by scenario, step and position, each reduced to features (normalise.ts) and compared. A step
 * that could not run to its end on a side (a missing variable) is not compared, beyond the exchanges
 * both sides made before it stopped: pairing it by position would set one request against another.
 * Pure: the CLI runs or loads the sides and renders the result.
 */
import { asList } from '../rules/inspect.js';
import { explain, NO_RULE, type Explanation } from './diff-causes.js';
import type { RecordedScenario, StepNotRun } from './format.js';
import { features, UNKNOWN, type Feature } from './normalise.js';
import type { Difference } from './difference.js';

export type { Difference } from './difference.js';
import type { Observation, Recording } from './record-live.js';

export interface Side {
  /** As given on the command line: `sim`, a URL, a directory. */
  readonly label: string;
  readonly recording: Recording;
}

export interface DiffResult {
  readonly a: string;
  readonly b: string;
  readonly compared: { readonly scenarios: number; readonly exchanges: number };
  readonly differences: readonly Difference[];
  /** Behavioural differences by rule id, ids sorted. */
  readonly byRule: readonly { readonly id: string; readonly differences: readonly Difference[] }[];
  /** The rules that explain the behavioural differences, and those that only follow from them. */
  readonly explanation: Explanation;
}

/** Rule id prefixes each aspect bears on; a difference goes to the matching rules of its step, else to all of them. */
const ASPECT_RULES: Readonly<Record<Difference['aspect'], readonly string[]>> = {
  status: [],
  scenario: [],
  exchanges: ['large-data.', 'pagination.results', 'pagination.offset'],
  errors: ['errors.', 'create.errors', 'auth.missing', 'pagination.params', 'pagination.offset-limit', 'filter.invalid', 'sort.invalid', 'settings.', 'rate-limit.'],
  'page-size': ['pagination.limit', 'pagination.results', 'pagination.offset.records', 'pagination.meta', 'pagination.endpoints', 'large-data.keyset', 'large-data.shared-timestamp'],
  totals: ['pagination.page', 'pagination.results', 'pagination.offset', 'filter.results-total', 'pagination.meta', 'pagination.endpoints'],
  links: ['pagination.links'],
  ordering: ['sort.', 'large-data.'],
  filter: ['filter.', 'large-data.'],
  // Create and password members name their rule directly (normalise.ts); these are the rest.
  fields: ['pagination.meta', 'pagination.endpoints', 'versioning.', 'settings.'],
};

/**
 * The rules a difference is reported under: the rule its feature directly evidences when it has one
 * (a page count off is `pagination.page.total` whichever scenario met it), with the step's rules that
 * bear on the aspect (a walk's `large-data.keyset.id` rests on its page sizes) except for a member
 * of a body, which is its rule's alone; without a direct rule, those step rules, or all of them.
 */
function rulesFor(aspect: Difference['aspect'], rules: readonly string[], direct?: string): readonly string[] {
  const prefixes = ASPECT_RULES[aspect];
  const matching = rules.filter((id) => prefixes.some((p) => id.startsWith(p)));
  if (direct !== undefined) return aspect === 'fields' ? [direct] : [...new Set([direct, ...matching])];
  return matching.length > 0 ? matching : rules;
}

export function compareSides(a: Side, b: Side): DiffResult {
  const differences: Difference[] = [];
  let scenarios = 0;
  let exchanges = 0;
  const bScenarios = new Map(b.recording.scenarios.map((s) => [s.name, s]));
  const aNames = new Set(a.recording.scenarios.map((s) => s.name));
  for (const sa of a.recording.scenarios) {
    const sb = bScenarios.get(sa.name);
    const coverage = scenarioCoverage(sa, sb);
    if (coverage !== undefined || sb === undefined) {
      if (coverage !== undefined) differences.push(coverage);
      continue;
    }
    scenarios += 1;
    const steps = compareScenario(sa, sb, a.recording.observations, b.recording.observations);
    exchanges += steps.pairs;
    differences.push(...steps.differences);
  }
  for (const sb of b.recording.scenarios) {
    if (!aNames.has(sb.name)) differences.push({ kind: 'coverage', rules: sb.rules, scenario: sb.name, aspect: 'scenario', what: 'scenario run', a: 'not run', b: sb.status });
  }
  return { a: a.label, b: b.label, compared: { scenarios, exchanges }, differences, byRule: byRule(differences), explanation: explain(differences) };
}

function scenarioCoverage(sa: RecordedScenario, sb: RecordedScenario | undefined): Difference | undefined {
  const state = (s: RecordedScenario | undefined) => (s === undefined ? 'not run' : s.status === 'skip' ? `skipped: ${s.skip_reason ?? ''}` : 'run');
  if (sb !== undefined && sa.status !== 'skip' && sb.status !== 'skip') return undefined;
  return { kind: 'coverage', rules: sa.rules, scenario: sa.name, aspect: 'scenario', what: 'scenario run', a: state(sa), b: state(sb) };
}

function compareScenario(sa: RecordedScenario, sb: RecordedScenario, aAll: readonly Observation[], bAll: readonly Observation[]): { pairs: number; differences: Difference[] } {
  const name = sa.name;
  const a = bySteps(aAll.filter((o) => o.scenario === name));
  const b = bySteps(bAll.filter((o) => o.scenario === name));
  const cutA = byStepIndex(sa.steps_not_run);
  const cutB = byStepIndex(sb.steps_not_run);
  const differences: Difference[] = [];
  let pairs = 0;
  for (const index of [...new Set([...a.keys(), ...b.keys(), ...cutA.keys(), ...cutB.keys()])].sort((x, y) => x - y)) {
    const xs = a.get(index) ?? [];
    const ys = b.get(index) ?? [];
    const ca = cutA.get(index);
    const cb = cutB.get(index);
    const stepName = xs[0]?.step ?? ys[0]?.step ?? ca?.step ?? cb?.step;
    if (stepName === undefined) continue;
    const at = { scenario: name, step: stepName, stepIndex: index };
    const rules = [...new Set([...(xs[0]?.rules ?? []), ...(ys[0]?.rules ?? [])])];
    if (ca !== undefined || cb !== undefined) {
      differences.push({ kind: 'coverage', rules, ...at, aspect: 'exchanges', what: 'step not compared', a: stepState(ca, xs.length), b: stepState(cb, ys.length) });
      // What both sides sent before it stopped is the same requests of the step, in the same places.
      for (const [x, y] of samePlaces(xs, ys)) {
        pairs += 1;
        differences.push(...compareExchange(x, y, { ...at, rules }));
      }
      continue;
    }
    if (xs.length === 0 || ys.length === 0) {
      differences.push({
        kind: 'coverage',
        rules,
        ...at,
        aspect: 'exchanges',
        what: 'step run',
        a: xs.length === 0 ? 'not run' : `${xs.length} exchanges`,
        b: ys.length === 0 ? 'not run' : `${ys.length} exchanges`,
      });
      continue;
    }
    if (xs.length !== ys.length) {
      // A walk over more records takes more pages: data. Any other step sending a different number of requests: behaviour.
      const walk = [...xs, ...ys].every((o) => o.fixture.request.method === 'GET' && asList(o.fixture.response.body) !== undefined);
      differences.push({
        kind: walk ? 'data' : 'behaviour',
        rules: rulesFor('exchanges', rules),
        ...at,
        aspect: 'exchanges',
        what: 'exchanges in the step',
        a: String(xs.length),
        b: String(ys.length),
      });
    }
    for (const [x, y] of pairUp(xs, ys)) {
      pairs += 1;
      differences.push(...compareExchange(x, y, { ...at, rules }));
    }
  }
  return { pairs, differences };
}

const byStepIndex = (list: readonly StepNotRun[] | undefined): Map<number, StepNotRun> => new Map((list ?? []).map((s) => [s.step_index, s]));

/** How far a side got with a step: to its end, or stopped (after some exchanges, or before any) and why. */
function stepState(cut: StepNotRun | undefined, exchanges: number): string {
  const made = `${exchanges} exchange${exchanges === 1 ? '' : 's'}`;
  if (cut === undefined) return `ran (${made})`;
  return exchanges === 0 ? `not run: ${cut.reason}` : `stopped after ${made}: ${cut.reason}`;
}

/** The exchanges at the same place of the step on both sides (the same sequence item, the same page of a walk). */
function samePlaces(xs: readonly Observation[], ys: readonly Observation[]): [Observation, Observation][] {
  const byPlace = new Map(ys.map((y) => [y.index, y]));
  const out: [Observation, Observation][] = [];
  for (const x of xs) {
    const y = byPlace.get(x.index);
    if (y !== undefined) out.push([x, y]);
  }
  return out;
}

function bySteps(observations: readonly Observation[]): Map<number, Observation[]> {
  const out = new Map<number, Observation[]>();
  for (const o of observations) out.set(o.stepIndex, [...(out.get(o.stepIndex) ?? []), o]);
  for (const list of out.values()) list.sort((x, y) => x.index - y.index);
  return out;
}

/** Same length: by position. Otherwise by position up to the shorter's last, and last with last (a walk's final, empty page). */
function pairUp<T>(xs: readonly T[], ys: readonly T[]): [T, T][] {
  const n = Math.min(xs.length, ys.length);
  const out: [T, T][] = [];
  const head = xs.length === ys.length ? n : n - 1;
  for (let i = 0; i < head; i++) {
    const x = xs[i];
    const y = ys[i];
    if (x !== undefined && y !== undefined) out.push([x, y]);
  }
  const lx = xs[xs.length - 1];
  const ly = ys[ys.length - 1];
  if (head < n && lx !== undefined && ly !== undefined) out.push([lx, ly]);
  return out;
}

interface At {
  readonly scenario: string;
  readonly step: string;
  readonly stepIndex: number;
  readonly rules: readonly string[];
}

export function compareExchange(x: Observation, y: Observation, at: At): Difference[] {
  const fa = keyed(features(x.fixture));
  const fb = keyed(features(y.fixture));
  const out: Difference[] = [];
  const where = { scenario: at.scenario, step: at.step, stepIndex: at.stepIndex, exchange: x.index, request: `${x.fixture.request.method} ${x.fixture.request.url}` };
  for (const key of [...new Set([...fa.keys(), ...fb.keys()])]) {
    const p = fa.get(key);
    const q = fb.get(key);
    const f = p ?? q;
    if (f === undefined) continue;
    const kind = p !== undefined && q !== undefined ? differs(p, q) : missingKind(key, p === undefined ? fa : fb, f);
    if (kind === undefined) continue;
    out.push({
      kind,
      rules: rulesFor(f.aspect, at.rules, f.rule),
      ...(f.rule === undefined ? {} : { direct: f.rule }),
      ...where,
      aspect: f.aspect,
      what: f.key,
      a: p?.value ?? '(absent)',
      b: q?.value ?? '(absent)',
    });
  }
  return out;
}

const keyed = (list: readonly Feature[]): Map<string, Feature> => new Map(list.map((f) => [f.key, f]));

function differs(p: Feature, q: Feature): Difference['kind'] | undefined {
  if (p.value === q.value || p.value === UNKNOWN || q.value === UNKNOWN) return undefined;
  if (p.match === 'kinds') {
    const strip = (v: string) =>
      v
        .split('|')
        .filter((k) => k !== 'null')
        .join('|');
    // Null on one side only: a nullable member that holds a value in one data set and not the other.
    if (strip(p.value) === strip(q.value) || strip(p.value) === '' || strip(q.value) === '') return 'data';
  }
  return p.kind;
}

/**
 * A feature one side has and the other lacks. Lacks that follow from a difference reported already
 * (an empty list has no item fields, a null link no parameters, a non-list no page meta) are not repeated.
 */
function missingKind(key: string, lacking: ReadonlyMap<string, Feature>, f: Feature): Difference['kind'] | undefined {
  if (f.aspect === 'fields') {
    const path = key.replace(/^(field|value) /, '');
    for (let i = path.indexOf('[]'); i >= 0; i = path.indexOf('[]', i + 2)) if (!lacking.has(`field ${path.slice(0, i + 2)}`)) return undefined;
    if (key.startsWith('value ') && !lacking.has(`field ${path}`)) return undefined;
    return 'behaviour';
  }
  // One side has an error array, the other none; per-error members only differ when the counts do (reported).
  if (f.aspect === 'errors') return key === 'errors.count' ? 'behaviour' : undefined;
  if (f.aspect === 'links') {
    const link = /^links\.(\w+) /.exec(key)?.[1];
    if (link !== undefined && lacking.get(`links.${link}`)?.value !== 'url') return undefined;
  }
  if (!lacking.has('meta.page.limit')) return undefined;
  return f.value === UNKNOWN ? undefined : f.kind;
}

function byRule(differences: readonly Difference[]): { id: string; differences: Difference[] }[] {
  const out = new Map<string, Difference[]>();
  for (const d of differences) {
    if (d.kind !== 'behaviour') continue;
    for (const id of d.rules.length > 0 ? d.rules : [NO_RULE]) out.set(id, [...(out.get(id) ?? []), d]);
  }
  return [...out].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([id, list]) => ({ id, differences: list }));
}

export const behaviouralCount = (r: DiffResult): number => r.differences.filter((d) => d.kind === 'behaviour').length;
