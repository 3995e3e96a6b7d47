/**
 * The scenario runner: sends each step's requests through a Target, judges the exchanges by the
 * step's expectations and by the oracle checks of the rules it names, and returns pure data.
 * Scenarios run with bounded concurrency; results come back in input order whatever finished first.
 */
import type { ExchangeExcerpt, ScenarioResult, StepResult, Verdict } from '../report/model.js';
import { excerpt, isSecretKey } from '../report/redact.js';
import { evidenceFor, judgeRule, reviewFailure } from '../rules/judge.js';
import { inconclusive, skip, type Outcome, type Rule } from '../rules/rule.js';
import { toExchange, type Exchange, type Target, type TargetRequest } from '../port.js';
import { captureValues, evaluateExpectations, resolveExpectations } from './expect.js';
import {
  interpolateString,
  missingReason,
  TAG_SIM_ONLY,
  TAG_WRITES,
  type ExchangeSpec,
  type Interpolated,
  type RestorableState,
  type Scenario,
  type Step,
  type TemplateRef,
  type TemplateValues,
} from './format.js';
import { resolveQuery, resolveRequest } from './request.js';
import { runWalk } from './walk.js';

export type RunProgress =
  | { readonly kind: 'start'; readonly index: number; readonly total: number; readonly scenario: Scenario }
  | { readonly kind: 'done'; readonly done: number; readonly total: number; readonly result: ScenarioResult };

export interface RunOptions {
  readonly target: Target;
  /** The rule catalogue's lookup (the CLI passes `ruleById`). */
  readonly ruleById: (id: string) => Rule | undefined;
  /** Run variables; default `target.vars`. `base_url` is always the target's. */
  readonly vars?: Readonly<Record<string, string>>;
  /** Let scenarios tagged `writes` run against an HTTP target. */
  readonly allowWrites?: boolean;
  /** Scenarios in flight at once, 1..8 (default 4 over HTTP, 1 in process so the simulator's ids stay reproducible). */
  readonly concurrency?: number;
  /** Literal secrets to redact from excerpts, besides headers and secret-named members. */
  readonly secrets?: readonly string[];
  /** Once aborted, scenarios not yet started are skipped with the abort reason. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: RunProgress) => void;
}

/** Longest body kept of a passing step's sample exchange (meta and links survive the cut: report/redact.ts). */
const SAMPLE_MAX_BODY = 4_000;

export const SKIP_WRITES = 'writes data: pass --allow-writes';
export const SKIP_SIM_ONLY = 'needs the simulator (seeded data or admin API): give --var admin_token=... for a commerce-sim server';

export async function runScenarios(scenarios: readonly Scenario[], given: RunOptions): Promise<ScenarioResult[]> {
  const options = withRunTag(given);
  const total = scenarios.length;
  const width = Math.min(8, Math.max(1, Math.floor(options.concurrency ?? (options.target.kind === 'http' ? 4 : 1))));
  const results: (ScenarioResult | undefined)[] = new Array<ScenarioResult | undefined>(total).fill(undefined);
  let next = 0;
  let done = 0;
  const gate = new Gate();
  const dirty: DirtyState = new Map();
  const worker = async () => {
    for (let i = next++; i < total; i = next++) {
      const scenario = scenarios[i];
      if (scenario === undefined) continue;
      const exclusive = changesState(scenario);
      await gate.enter(exclusive);
      options.onProgress?.({ kind: 'start', index: i, total, scenario });
      let result: ScenarioResult;
      try {
        result = options.signal?.aborted === true ? skipped(scenario, `not run: ${abortReason(options.signal)}`) : await runScenario(scenario, options, dirty);
      } finally {
        gate.leave(exclusive);
      }
      results[i] = result;
      done += 1;
      options.onProgress?.({ kind: 'done', done, total, result });
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, total) }, worker));
  return results.filter((r): r is ScenarioResult => r !== undefined);
}

/** Scenarios that write or drive the admin API change what others would observe. */
const changesState = (scenario: Scenario): boolean => scenario.tags.includes(TAG_WRITES) || scenario.tags.includes(TAG_SIM_ONLY);

/**
 * Read-only scenarios run side by side; a scenario that changes state runs alone, so no reader sees
 * another scenario's half-done change (a page_length briefly set to 7, say). Waiting writers hold
 * back new readers, so writers are not starved.
 */
class Gate {
  private readers = 0;
  private writing = false;
  private writersWaiting = 0;
  private waiters: (() => void)[] = [];

  async enter(exclusive: boolean): Promise<void> {
    if (exclusive) this.writersWaiting += 1;
    while (exclusive ? this.writing || this.readers > 0 : this.writing || this.writersWaiting > 0) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    if (exclusive) {
      this.writersWaiting -= 1;
      this.writing = true;
    } else this.readers += 1;
  }

  leave(exclusive: boolean): void {
    if (exclusive) this.writing = false;
    else this.readers -= 1;
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }
}

const abortReason = (signal: AbortSignal): string => {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : String(reason);
};

/** Why a scenario cannot run against this target at all (a missing variable only skips the steps that need it). */
function scenarioSkipReason(scenario: Scenario, options: Pick<RunOptions, 'target' | 'vars' | 'allowWrites'>): string | undefined {
  const http = options.target.kind === 'http';
  const vars = runVars(options);
  // A commerce-sim server reached over HTTP is still a simulator once its admin token is given.
  if (http && scenario.tags.includes(TAG_SIM_ONLY) && vars['admin_token'] === undefined) return SKIP_SIM_ONLY;
  if (http && scenario.tags.includes(TAG_WRITES) && options.allowWrites !== true) return SKIP_WRITES;
  return undefined;
}

/**
 * `vars.run_tag`, for what must differ between runs: the scenarios' usernames carry it, as a deployment may
 * refuse a username it holds already (not shown, §7) and records outlive a run there. The simulator starts
 * afresh each run, so its tag is fixed and its reports stay byte-identical. A `--var run_tag=` wins.
 */
function withRunTag(options: RunOptions): RunOptions {
  const vars = options.vars ?? options.target.vars;
  if (vars['run_tag'] !== undefined) return options;
  return { ...options, vars: { ...vars, run_tag: options.target.kind === 'sim' ? 'sim' : Date.now().toString(36) } };
}

function runVars(options: Pick<RunOptions, 'target' | 'vars'>): Record<string, string> {
  return { ...(options.vars ?? options.target.vars), base_url: options.target.baseUrl };
}

function skipped(scenario: Scenario, reason: string): ScenarioResult {
  const steps = scenario.steps.map((step, i) => notRun(step, i + 1, 'skip', reason));
  return { ...header(scenario), status: 'skip', skipReason: reason, steps };
}

const header = (s: Scenario) => ({ name: s.name, file: s.file, line: s.line, tags: s.tags, rules: s.rules });

/**
 * State the kit changed and could not verify restored, shared by every scenario of a run: while the
 * settings are dirty, verdicts of the rules that read them are inconclusive.
 */
type DirtyState = Map<RestorableState, string>;

/** The rules whose verdicts depend on each restorable state being as the kit found it. */
const STATE_RULES: Readonly<Record<RestorableState, readonly string[]>> = {
  settings: ['pagination.limit.default', 'pagination.limit.project-setting'],
};

async function runScenario(scenario: Scenario, options: RunOptions, dirty: DirtyState): Promise<ScenarioResult> {
  const reason = scenarioSkipReason(scenario, options);
  if (reason !== undefined) return skipped(scenario, reason);
  const vars = runVars(options);
  const secrets = [
    ...(options.secrets ?? []),
    ...Object.entries(vars)
      .filter(([k]) => isSecretKey(k))
      .map(([, v]) => v),
  ];
  const run: StepRun = { scenario, options, vars, captures: {}, capturedBy: new Map(), secrets, dirty };
  const steps: StepResult[] = [];
  // Why later probes cannot be judged: a setup that failed, or a request that could not be sent.
  let blocked: { readonly status: 'skip' | 'inconclusive'; readonly reason: string } | undefined;
  for (const [i, step] of scenario.steps.entries()) {
    if (blocked !== undefined && step.role !== 'cleanup') {
      steps.push(notRun(step, i + 1, blocked.status, blocked.reason));
      continue;
    }
    const outcome = await runStep(run, step, i + 1);
    steps.push(outcome.result);
    if (outcome.blocks !== undefined && blocked === undefined) blocked = outcome.blocks;
  }
  return { ...header(scenario), ...rollUp(steps), steps };
}

/** fail if a probe failed; else inconclusive if one could not be judged; else pass if one passed; else skip. */
function rollUp(steps: readonly StepResult[]): Pick<ScenarioResult, 'status' | 'skipReason'> {
  const probes = steps.filter((s) => s.role === 'probe');
  if (probes.some((s) => s.status === 'fail')) return { status: 'fail' };
  const inconclusive = probes.find((s) => s.status === 'inconclusive');
  if (inconclusive !== undefined) return { status: 'inconclusive', skipReason: inconclusive.skipReason ?? 'inconclusive' };
  if (probes.some((s) => s.status === 'pass')) return { status: 'pass' };
  return { status: 'skip', skipReason: probes[0]?.skipReason ?? steps[0]?.skipReason ?? 'no step ran' };
}

interface StepRun {
  readonly scenario: Scenario;
  readonly options: RunOptions;
  readonly vars: Readonly<Record<string, string>>;
  readonly captures: Record<string, unknown>;
  /** Which step captured each value (for "needs capture X from step N"). */
  readonly capturedBy: Map<string, number>;
  readonly secrets: readonly string[];
  readonly dirty: DirtyState;
}

/** Raised inside a step when a template names something unknown. */
class Missing extends Error {
  readonly code = 'SCENARIO_TEMPLATE_MISSING';
  constructor(
    readonly ref: TemplateRef,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** A setup's or cleanup's expectation that did not hold: the precondition failed. */
class Unmet extends Error {
  readonly code = 'SCENARIO_PRECONDITION_UNMET';
}

interface StepOutcome {
  readonly result: StepResult;
  /** Set when later probes cannot be judged because of this step. */
  readonly blocks?: { readonly status: 'skip' | 'inconclusive'; readonly reason: string };
}

async function runStep(run: StepRun, step: Step, index: number): Promise<StepOutcome> {
  const exchanges: Exchange[] = [];
  const verdicts: Verdict[] = [];
  // Setup items and a walk's write between pages that answered as required: preconditions met.
  const verified = new Set<Exchange>();
  const values = (): TemplateValues => ({ vars: run.vars, captures: run.captures });
  const need = <T>(r: Interpolated<T>): T => {
    if (r.ok) return r.value;
    const reason = r.missing.scope === 'captures' && !run.capturedBy.has(r.missing.name) ? `needs capture '${r.missing.name}', which no earlier step captured` : missingReason(r.missing);
    throw new Missing(r.missing, reason);
  };
  const send = async (request: TargetRequest): Promise<Exchange> => {
    const exchange = toExchange(request, await run.options.target.send(request));
    exchanges.push(exchange);
    return exchange;
  };
  const exchangeItem = async (spec: ExchangeSpec) => {
    const request = need(resolveRequest(spec.request, values()));
    const expect = need(resolveExpectations(spec.expect, values()));
    const exchange = await send(request);
    const judged = evaluateExpectations(expect, exchange);
    if (spec.role === 'probe') verdicts.push(...reviewExpectations(judged, exchange, run.options.ruleById));
    else {
      const unmet = judged.find((v) => v.outcome.status === 'fail');
      if (unmet !== undefined) throw new Unmet(`${spec.role} \`${describeRequest(request)}\` answered ${exchange.response.status} (${unmet.description})`);
      if (spec.expect.status.length > 0 || exchange.response.status < 300) verified.add(exchange);
    }
    const got = captureValues(exchange, spec.capture);
    for (const [name, value] of Object.entries(got.values)) {
      run.captures[name] = value;
      run.capturedBy.set(name, index);
    }
    const first = got.missing[0];
    if (first !== undefined && spec.role !== 'probe') throw new Unmet(`${spec.role} \`${describeRequest(request)}\` answered ${exchange.response.status} without ${first.path}`);
  };
  try {
    switch (step.kind) {
      case 'request':
        await exchangeItem(step.exchange);
        break;
      case 'sequence':
        for (const item of step.items) await exchangeItem(item);
        break;
      case 'walk': {
        const { walk } = step;
        const path = need(interpolateString(walk.path, values()));
        const query = need(resolveQuery(walk.query, values()));
        const { betweenPages } = walk;
        const between = betweenPages === undefined ? undefined : { afterPage: betweenPages.afterPage, request: need(resolveRequest(betweenPages.request, values())) };
        await runWalk(walk, { path, query, between }, async (request) => {
          const exchange = await send(request);
          if (between === undefined || request !== between.request) return exchange;
          // The write between pages is a precondition of the walk's verdict: it must have happened.
          if (exchange.response.status >= 300) throw new Unmet(`setup \`${describeRequest(request)}\` answered ${exchange.response.status}`);
          verified.add(exchange);
          return exchange;
        });
        break;
      }
    }
  } catch (error) {
    const kept = exchanges.map((e) => excerpt(e, { secrets: run.secrets }));
    if (error instanceof Missing) {
      // A missing variable: nothing was tried (skip). A missing capture: an earlier step did not deliver (inconclusive).
      const status = error.ref.scope === 'vars' ? 'skip' : 'inconclusive';
      const result = notRun(step, index, status, error.reason, kept);
      return step.role === 'setup' ? { result, blocks: { status, reason: `setup '${step.name}' ${error.reason}` } } : { result };
    }
    if (error instanceof Unmet) {
      markDirty(run, step, error.message);
      const result = notRun(step, index, 'inconclusive', error.message, kept);
      return step.role === 'setup' ? { result, blocks: { status: 'inconclusive', reason: error.message } } : { result };
    }
    const message = error instanceof Error ? `${error.message}${codeOf(error)}` : String(error);
    const reason = `the request could not be sent: ${message}`;
    markDirty(run, step, reason);
    return { result: notRun(step, index, 'inconclusive', reason, kept), blocks: { status: 'inconclusive', reason: `not run: an earlier request could not be sent (${message})` } };
  }
  if (step.role === 'probe') verdicts.push(...judge(run, step, exchanges, verified));
  return { result: stepResult(run, step, index, verdicts, exchanges) };
}

function markDirty(run: StepRun, step: Step, reason: string): void {
  if (step.role === 'cleanup' && step.restores !== undefined) run.dirty.set(step.restores, `${step.restores} may not be restored: ${reason}`);
}

function describeRequest(r: TargetRequest): string {
  const text = `${r.method} ${r.url}`;
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

function codeOf(error: Error): string {
  const code: unknown = 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? ` (${code})` : '';
}

/** A probe's failing expectation on a documented rule stands only on a documented request (rules/judge.ts). */
function reviewExpectations(judged: readonly Verdict[], exchange: Exchange, ruleById: RunOptions['ruleById']): Verdict[] {
  const out: Verdict[] = [];
  for (const v of judged) {
    const rule = ruleById(v.ruleId);
    if (v.outcome.status !== 'fail' || rule === undefined) {
      out.push(v);
      continue;
    }
    for (const j of reviewFailure(rule, v.outcome, [exchange])) {
      out.push(j.observedFor === undefined ? { ...v, outcome: j.outcome } : { ruleId: j.ruleId, source: 'expectation', description: v.description, outcome: j.outcome, observedFor: j.observedFor });
    }
  }
  return out;
}

/** The oracle checks of the step's rules over its exchanges, through the one judging path. */
function judge(run: StepRun, step: Step, exchanges: readonly Exchange[], verified: ReadonlySet<Exchange>): Verdict[] {
  const vars = checkVars(run);
  const out: Verdict[] = [];
  for (const id of step.rules) {
    const rule = run.options.ruleById(id);
    if (rule === undefined) {
      out.push({ ruleId: id, source: 'check', description: `rule ${id}`, outcome: inconclusive(`rule '${id}' is not in the catalogue`) });
      continue;
    }
    const dirty = [...run.dirty].find(([state]) => STATE_RULES[state].includes(id));
    if (dirty !== undefined) {
      out.push({ ruleId: id, source: 'check', description: rule.statement, outcome: inconclusive(dirty[1], [dirty[0]]) });
      continue;
    }
    for (const j of judgeRule(rule, { exchanges, vars }, verified)) {
      const description = j.observedFor === undefined ? rule.statement : `observed while judging ${j.observedFor}`;
      out.push({ ruleId: j.ruleId, source: 'check', description, outcome: j.outcome, ...(j.observedFor === undefined ? {} : { observedFor: j.observedFor }) });
    }
  }
  return out;
}

/** The rules a step would have judged: its checks and the rules its probe expectations name. */
function rulesOf(step: Step): string[] {
  if (step.role !== 'probe') return [];
  const items = step.kind === 'request' ? [step.exchange] : step.kind === 'sequence' ? step.items : [];
  const ids = [...step.rules, ...items.flatMap((i) => (i.role === 'probe' && i.expect.rule !== undefined ? [i.expect.rule] : []))];
  return [...new Set(ids)];
}

function notRun(step: Step, index: number, status: 'skip' | 'inconclusive', reason: string, exchanges: readonly ExchangeExcerpt[] = []): StepResult {
  const outcome = status === 'skip' ? skip(reason) : inconclusive(reason);
  const verdicts = rulesOf(step).map((ruleId): Verdict => ({ ruleId, source: 'check', description: step.name, outcome }));
  return { index, name: step.name, line: step.line, role: step.role, status, skipReason: reason, verdicts, exchanges, notRun: true };
}

function stepResult(run: StepRun, step: Step, index: number, verdicts: readonly Verdict[], exchanges: readonly Exchange[]): StepResult {
  const has = (status: Outcome['status']) => verdicts.some((v) => v.outcome.status === status);
  const status = has('fail') ? 'fail' : has('inconclusive') ? 'inconclusive' : has('pass') || verdicts.length === 0 ? 'pass' : 'skip';
  const firstReason = verdicts.find((v) => v.outcome.status === status)?.outcome;
  const reason = firstReason !== undefined && (firstReason.status === 'inconclusive' || firstReason.status === 'skip') ? firstReason.reason : undefined;
  const keepAll = status === 'fail' || status === 'inconclusive';
  const evidence = keepAll ? evidenceIndexes(run, verdicts, exchanges) : new Set<number>();
  const kept = keepAll ? exchanges : exchanges.slice(0, 1);
  return {
    index,
    name: step.name,
    line: step.line,
    role: step.role,
    status,
    ...(reason === undefined ? {} : { skipReason: reason }),
    verdicts,
    // A passing step keeps a sample of its first exchange; a failing or inconclusive one keeps every exchange whole.
    exchanges: kept.map((e, i) => excerpt(e, { secrets: run.secrets, evidence: evidence.has(i), ...(keepAll ? {} : { maxBody: SAMPLE_MAX_BODY }) })),
  };
}

/** The exchanges the step's failing or inconclusive verdicts rest on. */
function evidenceIndexes(run: StepRun, verdicts: readonly Verdict[], exchanges: readonly Exchange[]): Set<number> {
  const out = new Set<number>();
  const ctx = { exchanges, vars: checkVars(run) };
  for (const v of verdicts) {
    if (v.outcome.status !== 'fail' && v.outcome.status !== 'inconclusive') continue;
    const rule = v.source === 'check' ? run.options.ruleById(v.observedFor ?? v.ruleId) : undefined;
    for (const i of rule === undefined ? exchanges.keys() : evidenceFor(rule, ctx)) out.add(i);
  }
  return out;
}

/** What the checks read besides the exchanges: run variables, captures (page_length as a number), the base URL. */
function checkVars(run: StepRun): Record<string, unknown> {
  const vars: Record<string, unknown> = { ...run.vars, ...run.captures, base_url: run.options.target.baseUrl };
  const pageLength = vars['page_length'];
  if (typeof pageLength === 'string' && /^\d+$/.test(pageLength)) vars['page_length'] = Number(pageLength);
  return vars;
}
