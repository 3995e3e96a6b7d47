/**
 * Runs selected property suites against one Target and returns report data: per property its
 * verdicts (one per rule it judges), the seed, the shrunk counterexample (redacted), the path and one
 * command that replays the failure. Nothing here prints; the CLI does.
 */
import type { ExchangeExcerpt, PropertyResult, Verdict } from '../report/model.js';
import { excerpt, redactedJson, redactText, redactValue } from '../report/redact.js';
import { asString, at, requestJson } from '../rules/inspect.js';
import { inconclusive, skip, type Outcome, type Rule } from '../rules/rule.js';
import { TargetError, type Exchange, type Target } from '../port.js';
import { AdminError, readBaseline, restoreBaseline } from './admin-requests.js';
import { PropertySetupError } from './define.js';
import type { RuleId } from '../rules/ids.js';
import type { FailedRun, PropertyOutcome, PropertySuite } from './property.js';
import type { AdminAccess, FindingId, PropertyEnv } from './env.js';
import { usernames } from './usernames.js';

import { DEFAULT_RUNS, NOT_RUN, SKIP_ADMIN, SKIP_WRITES, STOPPED } from './names.js';

export { NOT_RUN, SKIP_ADMIN, SKIP_WRITES } from './names.js';
/** Exchanges kept in a report per failure: the first few and the last ones. */
const KEEP_HEAD = 2;
const KEEP_TAIL = 8;

export interface PropsRunOptions {
  readonly target: Target;
  readonly ruleById: (id: string) => Rule | undefined;
  readonly seed: number;
  /** Runs per property (default 100). */
  readonly runs?: number;
  /** fast-check path of a failure to replay (with one selected property). */
  readonly path?: string;
  readonly strict?: boolean;
  /** Lets properties tagged `writes` run against an HTTP target (the simulator always allows them). */
  readonly allowWrites?: boolean;
  /** Variables over the target's own. */
  readonly vars?: Readonly<Record<string, string>>;
  /** Literal secrets to redact wherever they appear. */
  readonly secrets?: readonly string[];
  /** The command that reaches this target again, e.g. `commerce-sim props --target sim`; replays append to it. */
  readonly command?: string;
  readonly onResult?: (result: PropertyResult) => void;
}

export async function runProperties(suites: readonly PropertySuite[], options: PropsRunOptions): Promise<PropertyResult[]> {
  const vars = { ...options.target.vars, ...(options.vars ?? {}) };
  const admin = await adminAccess(options.target, vars['admin_token']);
  const writable = options.target.kind === 'sim' || options.allowWrites === true;
  // Against a URL, records outlive the run: a repeat's tag carries the run's start (the simulator's runs start afresh, and stay byte-identical).
  const names = usernames(options.target.kind === 'sim' ? '' : `${Date.now().toString(36)}.`);
  const env: PropertyEnv = { target: options.target, vars, ruleById: options.ruleById, writable, strict: options.strict === true, admin, usernames: names };
  const secrets = [...(options.secrets ?? []), ...(admin === undefined ? [] : [admin.token])];
  const results: PropertyResult[] = [];
  try {
    for (const suite of suites) {
      const result = await runOne(suite, env, options, secrets);
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    if (admin !== undefined) await restoreBaseline(options.target, admin.token, admin.baseline).catch(() => undefined);
  }
  return results;
}

async function adminAccess(target: Target, token: string | undefined): Promise<AdminAccess | undefined> {
  if (token === undefined || token === '') return undefined;
  try {
    return { token, baseline: await readBaseline(target, token) };
  } catch (error) {
    if (error instanceof AdminError) return undefined; // not a simulator, or a wrong token: no admin API
    throw error;
  }
}

function skipReason(suite: PropertySuite, env: PropertyEnv): string | undefined {
  if (suite.needs.includes('admin') && env.admin === undefined) return SKIP_ADMIN;
  if (suite.needs.includes('writes') && !env.writable) return SKIP_WRITES;
  return undefined;
}

async function runOne(suite: PropertySuite, env: PropertyEnv, options: PropsRunOptions, secrets: readonly string[]): Promise<PropertyResult> {
  const numRuns = options.runs ?? DEFAULT_RUNS;
  const base = { name: suite.name, rules: suite.rules, numRuns, seed: options.seed };
  const reason = skipReason(suite, env);
  if (reason !== undefined) return { ...base, status: 'skip', skipReason: reason, verdicts: suite.rules.map((id) => verdict(env, id, skip(reason))), exchanges: [] };
  let outcome: PropertyOutcome;
  try {
    // Each property starts from the data a fresh simulator has, so a replay of it alone sees the same.
    if (env.admin !== undefined) await restoreBaseline(env.target, env.admin.token, env.admin.baseline);
    outcome = await suite.check(env, { seed: options.seed, numRuns, ...(options.path === undefined ? {} : { path: options.path }) });
  } catch (error) {
    if (!(error instanceof TargetError || error instanceof AdminError || error instanceof PropertySetupError)) throw error;
    // A target error before any run (unreachable, a timeout past the retries): stopped, not a property that does not apply.
    const why = error instanceof TargetError ? `${STOPPED} before its runs: ${error.message} (${error.code})` : `${error.message} (${error.code})`;
    return { ...base, status: 'skip', skipReason: why, verdicts: suite.rules.map((id) => verdict(env, id, skip(why))), exchanges: [] };
  }
  return toResult(suite, env, options, secrets, outcome);
}

function toResult(suite: PropertySuite, env: PropertyEnv, options: PropsRunOptions, secrets: readonly string[], outcome: PropertyOutcome): PropertyResult {
  const numRuns = options.runs ?? DEFAULT_RUNS;
  const { failure, observations, tally, stopped } = outcome;
  const failed = new Map<FindingId, { outcome: Outcome; observedFor: RuleId | undefined }>();
  if (failure?.kind === 'rules') for (const f of failure.run.findings) failed.set(f.ruleId, { outcome: f.outcome, observedFor: f.observedFor });
  for (const [id, run] of observations) {
    // An observation made for a documented rule that failed outright in the reported run adds nothing.
    const by = run.findings[0]?.observedFor;
    if (by !== undefined && failed.has(by)) continue;
    if (!failed.has(id)) failed.set(id, { outcome: run.findings[0]?.outcome ?? skip('no outcome'), observedFor: by });
  }
  const ids: FindingId[] = [...suite.rules, ...[...failed.keys()].filter((id) => !(suite.rules as readonly string[]).includes(id))];
  const verdicts = ids.map((id): Verdict => {
    const f = failed.get(id);
    if (f !== undefined) return { ...verdict(env, id, f.outcome), ...(f.observedFor === undefined ? {} : { observedFor: f.observedFor }) };
    const t = tally.get(id);
    if (t !== undefined && t.passed > 0) return verdict(env, id, { status: 'pass' });
    if (t?.inconclusiveReason !== undefined) return verdict(env, id, inconclusive(t.inconclusiveReason));
    const why = env.ruleById(id) === undefined ? 'not in the rule catalogue' : (t?.skipReason ?? 'not judged by any run');
    return verdict(env, id, skip(why));
  });
  const shownRun: FailedRun | undefined = failure?.kind === 'rules' ? failure.run : [...observations.values()][0];
  const runSecrets = [...secrets, ...passwordsOf(shownRun?.exchanges ?? [])];
  const clean = (v: unknown): string => redactText(redactedJson(v), runSecrets);
  const base = { name: suite.name, rules: suite.rules, numRuns, seed: options.seed };
  const exchanges = kept(shownRun?.exchanges ?? []).map((e): ExchangeExcerpt => excerpt(e, { secrets: runSecrets }));
  const command = options.command ?? 'commerce-sim props --target sim';
  const replay = (path: string | undefined) => `${command}${env.strict ? ' --strict' : ''} --seed ${options.seed}${path === undefined ? '' : ` --path "${path}"`} --grep ${suite.name}`;
  const cleanVerdicts = verdicts.map((v) => ({ ...v, outcome: cleanOutcome(v.outcome, runSecrets) }));
  if (failure?.kind === 'error') {
    // Not a rule's failure: the property itself broke (or the admin API refused). Judged nothing; replayable.
    const why = `${NOT_RUN}: ${redactText(failure.message, runSecrets)}`;
    return {
      ...base,
      status: 'skip',
      skipReason: why,
      ...(failure.path === undefined ? {} : { path: failure.path }),
      counterexample: clean(failure.shown),
      replay: replay(failure.path),
      verdicts: cleanVerdicts,
      exchanges: [],
    };
  }
  if (failure !== undefined) {
    return { ...base, status: 'fail', path: failure.path, counterexample: clean(failure.run.shown), replay: replay(failure.path), verdicts: cleanVerdicts, exchanges };
  }
  // No documented rule could be judged (each verdict rested on something outside the documented surface).
  const documented = verdicts.filter((v) => env.ruleById(v.ruleId)?.level === 'documented');
  const unsure = documented.find((v) => v.outcome.status === 'inconclusive');
  const allUnsure = unsure?.outcome.status === 'inconclusive' && !documented.some((v) => v.outcome.status === 'pass' || v.outcome.status === 'fail');
  const unsureReason = unsure?.outcome.status === 'inconclusive' ? `no documented rule judged by documented means (${unsure.ruleId}: ${unsure.outcome.reason})` : '';
  if (shownRun !== undefined) {
    const strictReplay = `${command} --strict --seed ${options.seed} --grep ${suite.name}`;
    if (allUnsure) return { ...base, status: 'inconclusive', skipReason: unsureReason, counterexample: clean(shownRun.shown), replay: strictReplay, verdicts: cleanVerdicts, exchanges };
    // An assumed rule failed without --strict: the run did not shrink it; --strict replays and shrinks it.
    return { ...base, status: 'fail', counterexample: clean(shownRun.shown), replay: `${command} --strict --seed ${options.seed} --grep ${suite.name}`, verdicts: cleanVerdicts, exchanges };
  }
  if (stopped !== undefined) {
    const why = `${STOPPED} after ${outcome.runs} of ${numRuns} runs: ${stopped.message} (${stopped.code})`;
    return { ...base, status: 'skip', skipReason: why, verdicts, exchanges: [] };
  }
  // Nothing failed; a property none of whose documented rules could be judged says so.
  if (allUnsure) return { ...base, status: 'inconclusive', skipReason: unsureReason, verdicts, exchanges: [] };
  return { ...base, status: 'pass', verdicts, exchanges: [] };
}

/** A failing outcome with the run's secrets out of its message and values. */
function cleanOutcome(outcome: Outcome, secrets: readonly string[]): Outcome {
  if (outcome.status !== 'fail') return outcome;
  const value = (v: unknown): unknown => (typeof v === 'string' ? redactText(v, secrets) : redactValue(v));
  return { ...outcome, message: redactText(outcome.message, secrets), expected: value(outcome.expected), actual: value(outcome.actual) };
}

function verdict(env: PropertyEnv, ruleId: FindingId, outcome: Outcome): Verdict {
  return { ruleId, source: 'property', description: env.ruleById(ruleId)?.statement ?? ruleId, outcome };
}

/** Long walks keep their beginning and their end, where a failure shows. */
function kept(exchanges: readonly Exchange[]): readonly Exchange[] {
  if (exchanges.length <= KEEP_HEAD + KEEP_TAIL) return exchanges;
  return [...exchanges.slice(0, KEEP_HEAD), ...exchanges.slice(-KEEP_TAIL)];
}

/** Passwords the run sent (generated ones are secrets too: they never reach a report). */
function passwordsOf(exchanges: readonly Exchange[]): string[] {
  const out = new Set<string>();
  for (const ex of exchanges) {
    const pw = asString(at(requestJson(ex), 'data', 'password'));
    if (pw !== undefined && pw.length >= 8) out.add(pw);
  }
  return [...out];
}
