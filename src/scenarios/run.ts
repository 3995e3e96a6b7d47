/**
 * The scenario runner: sends each step's requests through a Target, judges the exchanges by the
 * step's expectations and by the oracle checks of the rules it names, and returns pure data.
 * Scenarios run with bounded concurrency; results come back in input order whatever finished first.
 */
import type { ExchangeExcerpt, ScenarioResult, StepResult, Verdict } from '../report/model.js';
import { excerpt, isSecretKey } from '../report/redact.js';
import { fail, skip, type Outcome, type Rule } from '../rules/types.js';
import { toExchange, type Exchange, type Target, type TargetRequest } from '../target/types.js';
import { captureValues, evaluateExpectations, resolveExpectations } from './expect.js';
import {
  interpolateString,
  missingReason,
  templateRefs,
  TAG_SIM_ONLY,
  TAG_WRITES,
  type ExchangeSpec,
  type Interpolated,
  type Scenario,
  type Step,
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

export const SKIP_WRITES = 'writes data: pass --allow-writes';
export const SKIP_SIM_ONLY = 'needs the simulator (seeded data or admin API): give --var admin_token=... for a commerce-sim server';
const NOT_RUN = 'not run: an earlier step could not be sent';

export async function runScenarios(scenarios: readonly Scenario[], options: RunOptions): Promise<ScenarioResult[]> {
  const total = scenarios.length;
  const width = Math.min(8, Math.max(1, Math.floor(options.concurrency ?? (options.target.kind === 'http' ? 4 : 1))));
  const results: (ScenarioResult | undefined)[] = new Array<ScenarioResult | undefined>(total).fill(undefined);
  let next = 0;
  let done = 0;
  const gate = new Gate();
  const worker = async () => {
    for (let i = next++; i < total; i = next++) {
      const scenario = scenarios[i];
      if (scenario === undefined) continue;
      const exclusive = changesState(scenario);
      await gate.enter(exclusive);
      options.onProgress?.({ kind: 'start', index: i, total, scenario });
      let result: ScenarioResult;
      try {
        result = options.signal?.aborted === true ? skipped(scenario, `not run: ${abortReason(options.signal)}`) : await runScenario(scenario, options);
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

/** Why a scenario cannot run against this target with these variables, if it cannot. */
export function scenarioSkipReason(scenario: Scenario, options: Pick<RunOptions, 'target' | 'vars' | 'allowWrites'>): string | undefined {
  const http = options.target.kind === 'http';
  const vars = runVars(options);
  // A commerce-sim server reached over HTTP is still a simulator once its admin token is given.
  if (http && scenario.tags.includes(TAG_SIM_ONLY) && vars['admin_token'] === undefined) return SKIP_SIM_ONLY;
  if (http && scenario.tags.includes(TAG_WRITES) && options.allowWrites !== true) return SKIP_WRITES;
  const missing = templateRefs(scenario.steps).find((ref) => ref.scope === 'vars' && vars[ref.name] === undefined);
  return missing === undefined ? undefined : missingReason(missing);
}

function runVars(options: Pick<RunOptions, 'target' | 'vars'>): Record<string, string> {
  return { ...(options.vars ?? options.target.vars), base_url: options.target.baseUrl };
}

function skipped(scenario: Scenario, reason: string): ScenarioResult {
  const steps = scenario.steps.map((step, i) => skippedStep(scenario, step, i + 1, reason, []));
  return { ...header(scenario), status: 'skip', skipReason: reason, steps };
}

const header = (s: Scenario) => ({ name: s.name, file: s.file, tags: s.tags, rules: s.rules });

async function runScenario(scenario: Scenario, options: RunOptions): Promise<ScenarioResult> {
  const reason = scenarioSkipReason(scenario, options);
  if (reason !== undefined) return skipped(scenario, reason);
  const vars = runVars(options);
  const secrets = [...(options.secrets ?? []), ...Object.entries(vars).filter(([k]) => isSecretKey(k)).map(([, v]) => v)];
  const run: StepRun = { scenario, options, vars, captures: {}, secrets };
  const steps: StepResult[] = [];
  let broken = false;
  for (const [i, step] of scenario.steps.entries()) {
    if (broken) {
      steps.push(skippedStep(scenario, step, i + 1, NOT_RUN, []));
      continue;
    }
    const outcome = await runStep(run, step, i + 1);
    steps.push(outcome.result);
    broken = outcome.broken;
  }
  if (steps.some((s) => s.status === 'fail')) return { ...header(scenario), status: 'fail', steps };
  const firstRun = steps.find((s) => s.status !== 'skip');
  if (firstRun === undefined) return { ...header(scenario), status: 'skip', skipReason: steps[0]?.skipReason ?? 'no step ran', steps };
  return { ...header(scenario), status: 'pass', steps };
}

interface StepRun {
  readonly scenario: Scenario;
  readonly options: RunOptions;
  readonly vars: Readonly<Record<string, string>>;
  readonly captures: Record<string, unknown>;
  readonly secrets: readonly string[];
}

/** Raised inside a step when a template names something unknown: the step is skipped. */
class Missing extends Error {
  readonly code = 'SCENARIO_TEMPLATE_MISSING';
  constructor(readonly reason: string) {
    super(reason);
  }
}

function need<T>(r: Interpolated<T>): T {
  if (!r.ok) throw new Missing(missingReason(r.missing));
  return r.value;
}

async function runStep(run: StepRun, step: Step, index: number): Promise<{ result: StepResult; broken: boolean }> {
  const exchanges: Exchange[] = [];
  const verdicts: Verdict[] = [];
  const values = (): TemplateValues => ({ vars: run.vars, captures: run.captures });
  const send = async (request: TargetRequest): Promise<Exchange> => {
    const exchange = toExchange(request, await run.options.target.send(request));
    exchanges.push(exchange);
    return exchange;
  };
  const exchangeItem = async (spec: ExchangeSpec) => {
    const request = need(resolveRequest(spec.request, values()));
    const expect = need(resolveExpectations(spec.expect, values()));
    const exchange = await send(request);
    verdicts.push(...evaluateExpectations(expect, exchange));
    const got = captureValues(exchange, spec.capture);
    Object.assign(run.captures, got.values);
    for (const c of got.missing) {
      const description = `capture ${c.name} from ${c.path}`;
      verdicts.push({ ruleId: expect.rule, source: 'expectation', description, outcome: fail(`${c.path} is missing`, 'a value', 'absent') });
    }
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
        await runWalk(walk, { path, query, between }, send);
        break;
      }
    }
  } catch (error) {
    if (error instanceof Missing) return { result: skippedStep(run.scenario, step, index, error.reason, exchanges.map((e) => excerpt(e, { secrets: run.secrets }))), broken: false };
    const message = error instanceof Error ? `${error.message}${codeOf(error)}` : String(error);
    const outcome = fail(`the request could not be sent: ${message}`, 'a response', message);
    verdicts.push({ ruleId: attributedRule(run.scenario, step), source: 'expectation', description: 'the target answers', outcome });
    return { result: stepResult(step, index, verdicts, exchanges, run.secrets), broken: true };
  }
  verdicts.push(...judge(run, step, exchanges));
  return { result: stepResult(step, index, verdicts, exchanges, run.secrets), broken: false };
}

function codeOf(error: Error): string {
  const code: unknown = 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? ` (${code})` : '';
}

/** The oracle checks of the step's rules over its exchanges. */
function judge(run: StepRun, step: Step, exchanges: readonly Exchange[]): Verdict[] {
  const vars: Record<string, unknown> = { ...run.vars, ...run.captures, base_url: run.options.target.baseUrl };
  const pageLength = vars['page_length'];
  if (typeof pageLength === 'string' && /^\d+$/.test(pageLength)) vars['page_length'] = Number(pageLength);
  return step.rules.map((id): Verdict => {
    const rule = run.options.ruleById(id);
    if (rule === undefined) return { ruleId: id, source: 'check', description: `rule ${id}`, outcome: fail(`rule '${id}' is not in the catalogue`, id, undefined) };
    let outcome: Outcome;
    try {
      outcome = rule.check({ exchanges, vars });
    } catch (error) {
      outcome = fail(`the check threw: ${error instanceof Error ? error.message : String(error)}`, 'a verdict', 'an exception');
    }
    return { ruleId: id, source: 'check', description: rule.statement, outcome };
  });
}

function attributedRule(scenario: Scenario, step: Step): string {
  if (step.kind === 'request') return step.exchange.expect.rule;
  return step.rules[0] ?? scenario.rules[0] ?? '';
}

/** The rules a step would have judged: its checks and the rules its expectations are attributed to. */
function rulesOf(scenario: Scenario, step: Step): string[] {
  const items = step.kind === 'request' ? [step.exchange] : step.kind === 'sequence' ? step.items : [];
  const ids = [...step.rules, ...items.filter((i) => hasExpectations(i)).map((i) => i.expect.rule)];
  if (ids.length === 0) ids.push(attributedRule(scenario, step));
  return [...new Set(ids)];
}

const hasExpectations = (i: ExchangeSpec): boolean =>
  i.expect.status.length + i.expect.json.length + i.expect.headers.length + i.capture.length > 0 || i.expect.schema !== undefined;

function skippedStep(scenario: Scenario, step: Step, index: number, reason: string, exchanges: readonly ExchangeExcerpt[]): StepResult {
  const verdicts = rulesOf(scenario, step).map((ruleId): Verdict => ({ ruleId, source: 'check', description: step.name, outcome: skip(reason) }));
  return { index, name: step.name, role: 'probe', status: 'skip', skipReason: reason, verdicts, exchanges };
}

function stepResult(step: Step, index: number, verdicts: readonly Verdict[], exchanges: readonly Exchange[], secrets: readonly string[]): StepResult {
  const failed = verdicts.some((v) => v.outcome.status === 'fail');
  const kept = failed ? exchanges : exchanges.slice(0, 1);
  return { index, name: step.name, role: 'probe', status: failed ? 'fail' : 'pass', verdicts, exchanges: kept.map((e) => excerpt(e, { secrets })) };
}
