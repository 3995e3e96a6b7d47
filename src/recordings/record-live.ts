/**
 * Recording: the read-only scenarios run against a target through a wrapper that keeps every exchange,
 * attributed to its scenario and step. The same observations feed `record` (written as fixtures,
 * secrets, hosts and optionally ids replaced) and `diff` (compared in memory, or read back from disk).
 */
import { CodedKitError } from '../kit-errors.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScenarioResult, StepResult } from '../report/model.js';
import { excerpt, isSecretKey } from '../report/redact.js';
import { isObject } from '../rules/inspect.js';
import type { Rule } from '../rules/rule.js';
import { TAG_SIM_ONLY, TAG_WRITES, type Scenario, type Step } from '../scenarios/format.js';
import { runScenarios } from '../scenarios/runner.js';
import { toExchange, type Exchange, type Target } from '../port.js';
import {
  ACCESS_TOKEN,
  BASE_URL,
  fixtureOf,
  INDEX_FILE,
  mapFixtureStrings,
  parseFixture,
  scrubFixture,
  serialiseFixture,
  serialiseJson,
  type Fixture,
  type FixtureFile,
  type FixtureIndex,
  type RecordedEntry,
  type RecordedScenario,
  type SecretPlaceholder,
  type StepNotRun,
} from './format.js';

/** One exchange, attributed to the scenario step that sent it. */
export interface Observation {
  readonly scenario: string;
  readonly step: string;
  /** 1-based, as in run reports. */
  readonly stepIndex: number;
  /** 0-based within the step. */
  readonly index: number;
  /** The step's rules, or the scenario's when the step names none. */
  readonly rules: readonly string[];
  readonly fixture: Fixture;
}

export interface Recording {
  readonly target: 'sim' | 'http';
  readonly baseUrl: string;
  readonly scenarios: readonly RecordedScenario[];
  readonly observations: readonly Observation[];
}

export class RecordingError extends CodedKitError<'RECORDING_NOT_FOUND' | 'RECORDING_INVALID'> {
  override readonly name = 'RecordingError';
}

/** The scenarios safe to run against anyone's deployment: not tagged `writes` (unless allowed) nor `sim-only`. */
export function readOnlyScenarios(scenarios: readonly Scenario[], allowWrites = false): Scenario[] {
  return scenarios.filter((s) => !s.tags.includes(TAG_SIM_ONLY) && (allowWrites || !s.tags.includes(TAG_WRITES)));
}

export interface RecordOptions {
  readonly ruleById: (id: string) => Rule | undefined;
  /** Literal secrets (token, client secret) and their placeholders: no observation holds them, nor the runner's excerpts. */
  readonly secrets?: readonly SecretPlaceholder[];
  readonly allowWrites?: boolean;
  /** Once aborted (the target is unreachable, the budget spent), no further scenario starts. */
  readonly signal?: AbortSignal;
}

/** Runs each scenario alone, in order, so every exchange belongs to exactly one scenario. */
export async function recordScenarios(scenarios: readonly Scenario[], target: Target, options: RecordOptions): Promise<Recording> {
  const recorded: RecordedScenario[] = [];
  const observations: Observation[] = [];
  for (const scenario of scenarios) {
    if (options.signal?.aborted === true) break;
    const captured: Exchange[] = [];
    const wrapper: Target = {
      kind: target.kind,
      baseUrl: target.baseUrl,
      vars: target.vars,
      async send(request) {
        const response = await target.send(request);
        captured.push(toExchange(request, response));
        return response;
      },
      close: () => Promise.resolve(),
    };
    const [result] = await runScenarios([scenario], {
      target: wrapper,
      ruleById: options.ruleById,
      concurrency: 1,
      allowWrites: options.allowWrites === true,
      secrets: (options.secrets ?? []).map(([secret]) => secret),
    });
    if (result === undefined) continue;
    // A scenario skipped whole says so itself; within one that ran, each step cut short is named with its reason.
    const notRun: StepNotRun[] = result.status === 'skip' ? [] : result.steps.filter((r) => r.notRun === true).map((r) => ({ step_index: r.index, step: r.name, reason: r.skipReason ?? r.status }));
    recorded.push({
      name: scenario.name,
      rules: scenario.rules,
      status: result.status === 'inconclusive' ? 'skip' : result.status,
      ...(result.skipReason === undefined ? {} : { skip_reason: result.skipReason }),
      ...(notRun.length === 0 ? {} : { steps_not_run: notRun }),
    });
    const secrets = options.secrets ?? [];
    for (const { step, stepIndex, exchanges } of attribute(
      scenario,
      result,
      captured,
      secrets.map(([s]) => s),
    )) {
      const rules = step.rules.length > 0 ? step.rules : scenario.rules;
      exchanges.forEach((exchange, index) => {
        const fixture = scrubFixture(fixtureOf('', rules, withAuthorization(exchange)), secrets);
        observations.push({ scenario: scenario.name, step: step.name, stepIndex, index, rules, fixture });
      });
    }
  }
  return { target: target.kind, baseUrl: target.baseUrl, scenarios: recorded, observations };
}

/** The target adds its bearer token itself; the fixture shows that one was sent (as a placeholder). */
function withAuthorization(exchange: Exchange): Exchange {
  const { request } = exchange;
  const headers = request.headers ?? {};
  if (request.auth === 'none' || Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) return exchange;
  return { ...exchange, request: { ...request, headers: { ...headers, authorization: `Bearer ${ACCESS_TOKEN}` } } };
}

/**
 * Splits a scenario's exchanges into its steps. The runner reports how many exchanges a failing,
 * inconclusive or cut-short step made (it keeps them all); a step that ran to its end otherwise (passing,
 * or skipped by its verdicts: the runner keeps only its first exchange) made one for a request, one per
 * item for a sequence, and for a walk as many as it took, found as what lies before the next step's first exchange.
 */
function attribute(scenario: Scenario, result: ScenarioResult, captured: readonly Exchange[], secrets: readonly string[]) {
  const counts = result.steps.map((r, i) => knownCount(scenario.steps[i], r));
  const out: { step: Step; stepIndex: number; exchanges: Exchange[] }[] = [];
  let pos = 0;
  result.steps.forEach((r, i) => {
    const step = scenario.steps[i];
    if (step === undefined) return;
    let count = counts[i];
    if (count === undefined) {
      const later = counts.slice(i + 1);
      if (later.every((c): c is number => c !== undefined)) count = captured.length - pos - later.reduce((a, b) => a + b, 0);
      else count = untilNextStep(result.steps.slice(i + 1), captured, pos, secrets) - pos;
    }
    const taken = captured.slice(pos, pos + Math.max(0, count));
    pos += taken.length;
    out.push({ step, stepIndex: r.index, exchanges: taken });
  });
  return out;
}

function knownCount(step: Step | undefined, r: StepResult): number | undefined {
  if (r.notRun === true || r.status === 'fail' || r.status === 'inconclusive' || step === undefined) return r.exchanges.length;
  switch (step.kind) {
    case 'request':
      return 1;
    case 'sequence':
      return step.items.length;
    case 'walk':
      return undefined;
  }
}

/** Position of the first exchange of the next step that made any, searched from after `pos`. */
function untilNextStep(later: readonly StepResult[], captured: readonly Exchange[], pos: number, secrets: readonly string[]): number {
  const next = later.find((r) => r.exchanges.length > 0)?.exchanges[0];
  if (next === undefined) return captured.length;
  for (let i = pos + 1; i < captured.length; i++) {
    const ex = captured[i];
    if (ex === undefined) continue;
    const e = excerpt(ex, { secrets });
    if (e.method === next.method && e.url === next.url && e.status === next.status) return i;
  }
  return captured.length;
}

// ---------------------------------------------------------------- to files

export interface RecordingFileOptions {
  /** Map UUID-shaped ids to `<id-1>`, `<id-2>`, ... in order of first appearance. */
  readonly renameIds: boolean;
  /** Literal secrets (bearer token, client secret) and their placeholders, replaced wherever they appear. */
  readonly secrets: readonly SecretPlaceholder[];
}

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The fixture files of a recording, then index.json. Pure: the same recording gives the same bytes. */
export function recordingFiles(recording: Recording, options: RecordingFileOptions): FixtureFile[] {
  const secrets = secretPlaceholders(recording, options.secrets);
  const hosts = hostSpellings(recording.baseUrl);
  const ids = new Map<string, string>();
  const rename = (s: string): string =>
    s.replace(UUIDS, (id) => {
      const key = id.toLowerCase();
      let name = ids.get(key);
      if (name === undefined) ids.set(key, (name = `<id-${ids.size + 1}>`));
      return name;
    });
  const slugs = scenarioSlugs(recording.scenarios.map((s) => s.name));
  const counters = new Map<string, number>();
  const files: FixtureFile[] = [];
  const entries: RecordedEntry[] = [];
  for (const o of recording.observations) {
    const n = (counters.get(o.scenario) ?? 0) + 1;
    counters.set(o.scenario, n);
    const name = `${slugs.get(o.scenario) ?? slug(o.scenario)}/${String(n).padStart(2, '0')}-${slug(o.step)}`;
    let fixture = scrubFixture({ ...o.fixture, case: name }, secrets);
    fixture = mapFixtureStrings(fixture, (s) => hosts.reduce((text, [host, as]) => text.split(host).join(as), s));
    if (options.renameIds) fixture = mapFixtureStrings(fixture, rename);
    const file = `${name}.json`;
    files.push({ file, content: serialiseFixture(fixture) });
    entries.push({
      case: name,
      rules: o.rules,
      request: { method: fixture.request.method, url: fixture.request.url },
      file,
      scenario: o.scenario,
      step: o.step,
      step_index: o.stepIndex,
      exchange: o.index,
    });
  }
  const index: FixtureIndex = { format: 1, kind: 'recording', target: recording.target, base_url: BASE_URL, rename_ids: options.renameIds, scenarios: recording.scenarios, fixtures: entries };
  files.push({ file: INDEX_FILE, content: serialiseJson(index) });
  return files;
}

/** The given secrets, and every password a request body sent (it might come back somewhere). */
function secretPlaceholders(recording: Recording, given: readonly SecretPlaceholder[]): SecretPlaceholder[] {
  const out: SecretPlaceholder[] = [...given];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (isObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (isSecretKey(k) && typeof x === 'string') out.push([x, `<${k.toLowerCase()}>`]);
        else visit(x);
      }
    }
  };
  for (const o of recording.observations) visit(o.fixture.request.body);
  return out;
}

/** The target's base URL, its origin, then its bare host, each replaced wherever it appears. */
function hostSpellings(baseUrl: string): [string, string][] {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return [];
  }
  const base = baseUrl.replace(/\/+$/, '');
  const out: [string, string][] = [
    [base, BASE_URL],
    [url.origin, BASE_URL],
    [url.host, '{host}'],
  ];
  if (url.hostname !== url.host) out.push([url.hostname, '{host}']);
  return out.filter(([s], i) => s !== '' && out.findIndex(([t]) => t === s) === i);
}

function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s === '' ? 'x' : s;
}

/** One directory per scenario; names that slug alike get -2, -3. */
function scenarioSlugs(names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const name of names) {
    const base = slug(name);
    let s = base;
    for (let i = 2; used.has(s); i++) s = `${base}-${i}`;
    used.add(s);
    out.set(name, s);
  }
  return out;
}

// ---------------------------------------------------------------- reading back

/** A recording directory as observations, to compare with a live side (or another recording). */
export async function loadRecording(dir: string): Promise<Recording> {
  const text = await readFile(join(dir, INDEX_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) throw new RecordingError('RECORDING_NOT_FOUND', `${dir}: no ${INDEX_FILE} (make one with commerce-sim record --out ${dir})`);
  const index = parseJson(text, `${dir}/${INDEX_FILE}`);
  if (!isObject(index) || index['kind'] !== 'recording' || !Array.isArray(index['fixtures']) || !Array.isArray(index['scenarios'])) {
    throw new RecordingError('RECORDING_INVALID', `${dir}/${INDEX_FILE} is not the index of a recording (commerce-sim record writes one)`);
  }
  const scenarios = index['scenarios'].map((s: unknown, i: number) => recordedScenario(s, `${dir}/${INDEX_FILE} scenarios[${i}]`));
  const observations: Observation[] = [];
  for (const [i, e] of index['fixtures'].entries()) {
    const where = `${dir}/${INDEX_FILE} fixtures[${i}]`;
    if (!isObject(e)) throw new RecordingError('RECORDING_INVALID', `${where} is not an object`);
    const { file, scenario, step, step_index: stepIndex, exchange, rules } = e;
    if (
      typeof file !== 'string' ||
      file.split('/').includes('..') ||
      typeof scenario !== 'string' ||
      typeof step !== 'string' ||
      typeof stepIndex !== 'number' ||
      typeof exchange !== 'number' ||
      !isStringList(rules)
    ) {
      throw new RecordingError('RECORDING_INVALID', `${where} needs file, scenario, step, step_index, exchange and rules`);
    }
    const content = await readFile(join(dir, ...file.split('/')), 'utf8').catch(() => undefined);
    if (content === undefined) throw new RecordingError('RECORDING_INVALID', `${dir}/${file} is missing`);
    const parsed = parseFixture(parseJson(content, `${dir}/${file}`));
    if (!parsed.ok) throw new RecordingError('RECORDING_INVALID', `${dir}/${file}: ${parsed.message}`);
    observations.push({ scenario, step, stepIndex, index: exchange, rules, fixture: parsed.value });
  }
  const target = index['target'] === 'sim' ? 'sim' : 'http';
  return { target, baseUrl: BASE_URL, scenarios, observations };
}

const isStringList = (v: unknown): v is readonly string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function recordedScenario(value: unknown, where: string): RecordedScenario {
  if (!isObject(value)) throw new RecordingError('RECORDING_INVALID', `${where} is not an object`);
  const { name, rules, status, skip_reason: reason, steps_not_run: notRun } = value;
  if (typeof name !== 'string' || !isStringList(rules) || (status !== 'pass' && status !== 'fail' && status !== 'skip')) {
    throw new RecordingError('RECORDING_INVALID', `${where} needs name, rules and status`);
  }
  // Absent in a recording made before steps cut short were named: its steps are then compared as they are.
  const steps = notRun === undefined ? undefined : stepsNotRun(notRun, `${where}.steps_not_run`);
  return { name, rules, status, ...(typeof reason === 'string' ? { skip_reason: reason } : {}), ...(steps === undefined ? {} : { steps_not_run: steps }) };
}

function stepsNotRun(value: unknown, where: string): StepNotRun[] {
  if (!Array.isArray(value)) throw new RecordingError('RECORDING_INVALID', `${where} is not a list`);
  return value.map((s: unknown, i: number) => {
    if (!isObject(s) || typeof s['step_index'] !== 'number' || typeof s['step'] !== 'string' || typeof s['reason'] !== 'string') {
      throw new RecordingError('RECORDING_INVALID', `${where}[${i}] needs step_index, step and reason`);
    }
    return { step_index: s['step_index'], step: s['step'], reason: s['reason'] };
  });
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RecordingError('RECORDING_INVALID', `${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
