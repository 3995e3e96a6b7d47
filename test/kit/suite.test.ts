/**
 * The shipped conformance suite (scenarios/) against the faithful simulator, in process and over
 * loopback HTTP: every rule of the catalogue is judged by an oracle check and holds.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as runCommand } from '../../src/cli/run.js';
import { loadSuite, runSuite, type SuiteRun } from '../../src/kit/mutation.js';
import { catalogue, ruleById } from '../../src/rules/catalogue.js';
import type { RuleId } from '../../src/rules/ids.js';
import { templateRefs, type ExchangeSpec, type Scenario, type Step, type TemplateValues, type WalkSpec } from '../../src/scenarios/format.js';
import { buildUrl, resolveRequest, type QueryPair } from '../../src/scenarios/request.js';
import { classifyRequest, describeGaps, gapsFor } from '../../src/rules/surface.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { listen, type RunningServer } from '../../src/sim/server.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { createHttpTarget } from '../../src/adapters/http.js';
import { createSimTarget } from '../../src/adapters/simulator.js';
import type { Target } from '../../src/port.js';
import type { ScenarioResult } from '../../src/report/model.js';
import { summariseRules } from '../../src/report/summarise.js';
import { captureIo } from '../support/cli-io.js';

const WALL_CLOCK = () => Date.UTC(2025, 0, 1);

/** A step's or sequence item's role (`probe` unless it says otherwise). */
const roleOf = (x: object): string => ('role' in x && typeof x.role === 'string' ? x.role : 'probe');

const documentedIds: ReadonlySet<string> = new Set<string>(catalogue.filter((r) => r.level === 'documented').map((r) => r.id));

/** Stand-ins for every template of a step: an id-like word, or an instant for captured timestamps. */
function placeholders(step: Step): TemplateValues {
  const vars: Record<string, string> = {};
  const captures: Record<string, unknown> = {};
  for (const ref of templateRefs(step)) {
    const value = ref.name.endsWith('_at') ? '2025-01-01T00:00:00.000Z' : ref.name.includes('page_length') ? 7 : `kit-${ref.name}`;
    if (ref.scope === 'vars') vars[ref.name] = String(value);
    else captures[ref.name] = value;
  }
  return { vars, captures };
}

/** The requests a walk sends: its first read, and a page of its own kind. */
function walkUrls(walk: WalkSpec): string[] {
  const extra: QueryPair[] = walk.query.map(([k, v]) => [k, String(v)]);
  const limit: QueryPair = ['page[limit]', String(walk.limit)];
  const page: QueryPair[] =
    walk.mode === 'keyset-id'
      ? [['sort', 'id'], ['filter', 'gt(id,kit-last)'], limit]
      : walk.mode === 'keyset-timestamp'
        ? [['sort', walk.attribute], ['filter', `ge(${walk.attribute},2025-01-01T00:00:00.000Z)`], limit, ['page[offset]', String(walk.limit)]]
        : [limit, ['page[offset]', String(walk.limit)]];
  return [buildUrl(walk.path, [...extra, limit]), buildUrl(walk.path, [...extra, ...page])];
}

/** `scenario › step: request: gaps` for every probe request outside the documented surface in a step judging a documented rule. */
function documentedProbesOutside(scenarios: readonly Scenario[]): string[] {
  const out: string[] = [];
  for (const s of scenarios) {
    for (const step of s.steps) {
      if (roleOf(step) !== 'probe' || !step.rules.some((id) => documentedIds.has(id))) continue;
      const values = placeholders(step);
      const requests: { method: string; url: string }[] = [];
      const add = (x: ExchangeSpec): void => {
        if (roleOf(x) !== 'probe') return;
        const r = resolveRequest(x.request, values);
        if (r.ok) requests.push(r.value);
      };
      if (step.kind === 'request') add(step.exchange);
      else if (step.kind === 'sequence') step.items.forEach(add);
      // A walk's write between pages is its precondition (the runner verifies it, as a setup's).
      else for (const url of walkUrls(step.walk)) requests.push({ method: 'GET', url });
      // Inside for at least one documented rule of the step, answered as the document allows (a page: 200).
      const documentedRules = step.rules.filter((id) => documentedIds.has(id));
      for (const req of requests) {
        const c = classifyRequest(req);
        if (!documentedRules.some((id) => gapsFor(c, id as RuleId, 200).length === 0)) out.push(`${s.name} › ${step.name}: ${req.method} ${req.url}: ${describeGaps(c.gaps)}`);
      }
    }
  }
  return out;
}

/** `scenario › step: rule path` for every probe expectation of a documented rule on a position the document leaves open. */
function documentedExpectationsOnPositions(scenarios: readonly Scenario[]): string[] {
  const out: string[] = [];
  const items = (step: Step): readonly ExchangeSpec[] => (step.kind === 'request' ? [step.exchange] : step.kind === 'sequence' ? step.items : []);
  for (const s of scenarios) {
    for (const step of s.steps) {
      if (roleOf(step) !== 'probe') continue;
      for (const x of items(step)) {
        if (roleOf(x) !== 'probe' || !documentedIds.has(x.expect.rule ?? '')) continue;
        // The document places `data` (the records, their id) and the create's fields; `meta` of lists,
        // links and timestamps of list items are the public API's.
        for (const j of x.expect.json) if (/\.meta\b|\.links\b|\.timestamps\b/.test(j.path) && !/^\$\.data\.meta\./.test(j.path)) out.push(`${s.name} › ${step.name}: ${x.expect.rule} ${j.path}`);
        if (x.expect.schema !== undefined) out.push(`${s.name} › ${step.name}: ${x.expect.rule} schema ${x.expect.schema}`);
      }
    }
  }
  return out;
}

/** `scenario › step: rule: message` for every failing verdict, so a failure names what broke. */
function failures(results: readonly ScenarioResult[]): string[] {
  const out: string[] = [];
  for (const s of results) {
    for (const step of s.steps) {
      for (const v of step.verdicts) if (v.outcome.status === 'fail') out.push(`${s.name} › ${step.name}: ${v.ruleId}: ${v.outcome.message}`);
    }
  }
  return out;
}

/** What a reseed changes: the dataset options (a restore also records the dataset seed it implied). */
const datasetOf = (sim: Simulator) => {
  const { accounts, counts, profile, burst, datasetSeed } = sim.settings;
  return { accounts, counts, profile, burst, datasetSeed: datasetSeed ?? sim.seed };
};

describe('the shipped suite against the in-process simulator', () => {
  let scenarios: Scenario[];
  let run: SuiteRun;
  beforeAll(async () => {
    scenarios = await loadSuite();
    run = await runSuite(await loadSuite());
  });

  it('has no failing verdict and runs every scenario', () => {
    expect(failures(run.scenarios)).toEqual([]);
    expect(run.scenarios.filter((s) => s.status !== 'pass').map((s) => `${s.name}: ${s.status} ${s.skipReason ?? ''}`)).toEqual([]);
    expect(run.scenarios).toHaveLength(scenarios.length);
  });

  it('passes every rule of the catalogue, documented and assumed', () => {
    const notPassing = run.rules.filter((r) => r.status !== 'pass').map((r) => `${r.id} (${r.level}): ${r.status}`);
    expect(notPassing).toEqual([]);
    expect(run.rules.map((r) => r.id)).toEqual(catalogue.map((r) => r.id));
  });

  it('judges every rule with its oracle check, not only with expectations', () => {
    const judged = new Set<string>();
    for (const s of run.scenarios) for (const step of s.steps) for (const v of step.verdicts) if (v.source === 'check' && v.outcome.status === 'pass') judged.add(v.ruleId);
    expect(catalogue.map((r) => r.id).filter((id) => !judged.has(id))).toEqual([]);
  });

  it('names each rule in the scenario that covers it', () => {
    const named = new Set(scenarios.flatMap((s) => s.rules));
    expect(catalogue.map((r) => r.id).filter((id) => !named.has(id))).toEqual([]);
  });

  // A conforming deployment answers anything outside the document as it likes: a documented rule's
  // verdict must rest only on requests the document states what must hold for (src/rules/surface.ts).
  it('probes documented rules only with requests inside the documented surface', () => {
    expect(documentedProbesOutside(scenarios)).toEqual([]);
  });

  it('expects no position the document leaves open in the name of a documented rule', () => {
    expect(documentedExpectationsOnPositions(scenarios)).toEqual([]);
  });

  it('tags every scenario that uses the admin API sim-only', () => {
    const admin = scenarios.filter((s) => JSON.stringify(s.steps).includes('"/__sim/'));
    expect(admin.length).toBeGreaterThan(0);
    expect(admin.filter((s) => !s.tags.includes('sim-only')).map((s) => s.name)).toEqual([]);
  });

  it('gives the same verdicts and excerpts on a second run (deterministic)', async () => {
    const again = await runSuite(scenarios);
    expect(JSON.stringify(again.scenarios)).toBe(JSON.stringify(run.scenarios));
  });

  // Read-only scenarios must hold on any conforming deployment: other data, fewer and more records.
  it.each([
    ['another seed, few records', { seed: 7, counts: { accounts: 12, customers: 9, orders: 3 } }],
    ['many records', { seed: 99, counts: { accounts: 1500 } }],
    ['records sharing timestamps', { dataset: 'shared-timestamps', counts: { accounts: 300 } }],
  ])('holds on other data: %s', async (_label, options) => {
    const target = await createSimTarget({ ...options, wallClock: WALL_CLOCK });
    const results = await runScenarios(scenarios, { target, ruleById });
    expect(failures(results)).toEqual([]);
  });

  it('leaves the simulator with its default data, settings and adversity', async () => {
    const target = await createSimTarget({ wallClock: WALL_CLOCK });
    const before = target.sim.project(DEFAULT_CLIENT_ID);
    const settings = { ...before.settings };
    const adversity = { ...before.adversity };
    const dataset = datasetOf(target.sim);
    await runScenarios(scenarios, { target, ruleById, concurrency: 1 });
    const after = target.sim.project(DEFAULT_CLIENT_ID);
    expect(after.settings).toEqual(settings);
    expect(after.adversity).toEqual(adversity);
    expect(datasetOf(target.sim)).toEqual(dataset);
  });
});

describe('the shipped suite over loopback HTTP', () => {
  let server: RunningServer;
  let target: Target;
  let results: ScenarioResult[];
  let scenarios: Scenario[];
  beforeAll(async () => {
    scenarios = await loadSuite();
    const sim = new Simulator({ wallClock: WALL_CLOCK });
    server = await listen(sim, 0, '127.0.0.1');
    const vars = { ...sim.seededIds(), admin_token: sim.adminToken, client_id: DEFAULT_CLIENT_ID };
    // No retries: the rate-limit scenario must see its 429, not wait out Retry-After.
    target = await createHttpTarget({ baseUrl: server.baseUrl, token: sim.issueToken(DEFAULT_CLIENT_ID, 'read-write'), vars, seed: 1, retries: 0 });
    // Four at a time, as the CLI runs live targets: scenarios that change state must still run alone.
    results = await runScenarios(scenarios, { target, ruleById, allowWrites: true, concurrency: 4 });
  });
  afterAll(async () => {
    await target.close();
    await server.close();
  });

  it('has no failing verdict', () => {
    expect(failures(results)).toEqual([]);
    expect(
      summariseRules(catalogue, results, [])
        .filter((r) => r.status === 'fail')
        .map((r) => r.id),
    ).toEqual([]);
  });

  it('runs every scenario, the sim-only ones through the admin API', () => {
    expect(results.filter((r) => r.status !== 'pass').map((r) => `${r.name}: ${r.status} ${r.skipReason ?? ''}`)).toEqual([]);
    expect(results).toHaveLength(scenarios.length);
  });

  it('passes every rule of the catalogue', () => {
    const rules = summariseRules(catalogue, results, []);
    expect(rules.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.status}`)).toEqual([]);
  });
});

/** The status of one rule in `run --json` output. */
function ruleStatus(json: string, id: string): unknown {
  const report: unknown = JSON.parse(json);
  const rules: unknown = typeof report === 'object' && report !== null && 'rules' in report ? report.rules : undefined;
  if (!Array.isArray(rules)) return undefined;
  const rule: unknown = rules.find((r: unknown) => typeof r === 'object' && r !== null && 'id' in r && r.id === id);
  return typeof rule === 'object' && rule !== null && 'status' in rule ? rule.status : undefined;
}

describe('commerce-sim run --dataset', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'commerce-sim-kit-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const walk = ['--grep', 'a keyset walk by created_at visits every account once', '--json', '--report', 'reports'];

  it('runs the simulator on the named dataset: shared timestamps make uniform pages to page through', async () => {
    const plain = captureIo({ cwd: dir });
    expect(await runCommand(walk, plain.io)).toBe(0);
    expect(ruleStatus(plain.out(), 'large-data.shared-timestamp')).toBe('not-covered');
    const shared = captureIo({ cwd: dir });
    expect(await runCommand([...walk, '--dataset', 'shared-timestamps'], shared.io)).toBe(0);
    expect(ruleStatus(shared.out(), 'large-data.shared-timestamp')).toBe('pass');
    expect(ruleStatus(shared.out(), 'large-data.keyset.timestamp')).toBe('pass');
  });

  it('plays every dataset serve plays: a named one beyond the two profiles, and a file read from the working directory', async () => {
    // bursty data from a profile that is not one of the two plain ones: the walk finds its shared timestamps.
    const named = captureIo({ cwd: dir });
    expect(await runCommand([...walk, '--dataset', 'updates-during-traversal'], named.io)).toBe(0);
    expect(ruleStatus(named.out(), 'large-data.keyset.timestamp')).toBe('pass');
    await writeFile(join(dir, 'bursty.yaml'), 'extends: shared-timestamps\ncounts:\n  accounts: 320\n');
    const file = captureIo({ cwd: dir });
    expect(await runCommand([...walk, '--dataset', 'bursty.yaml'], file.io)).toBe(0);
    expect(ruleStatus(file.out(), 'large-data.shared-timestamp')).toBe('pass');
    // The file's 320 accounts, not the profile's 500.
    expect(await readFile(join(dir, 'reports', 'latest', 'report.json'), 'utf8')).toContain('\\"results\\":{\\"total\\":320}');
  });

  it('refuses an unknown dataset and a dataset for a live target', async () => {
    const unknown = captureIo({ cwd: dir });
    expect(await runCommand(['--dataset', 'nope'], unknown.io)).toBe(2);
    expect(unknown.err()).toContain("--dataset: unknown dataset 'nope': give one of default, shared-timestamps, eventual-consistency");
    const missing = captureIo({ cwd: dir });
    expect(await runCommand(['--dataset', 'absent.yaml'], missing.io)).toBe(2);
    expect(missing.err()).toContain('--dataset: ');
    expect(missing.err()).toContain('absent.yaml');
    const live = captureIo({ cwd: dir });
    expect(await runCommand(['--dataset', 'default', '--target', 'http://127.0.0.1:9'], live.io)).toBe(2);
    expect(live.err()).toContain('--dataset applies to the embedded simulator only (--target sim)');
  });
});
