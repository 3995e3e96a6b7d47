/**
 * One run of a property: it sends requests through the target, keeps the exchanges for the oracle,
 * and collects the property's own findings. Judging a run is the same for every property: the
 * oracle checks of its rules over the exchanges, plus the findings, all through rules/judge.ts. A
 * finding names a rule by what the request asked (`finding`), never by a guess at which documented
 * rule a refusal of a mixed request breaks.
 */
import type { RuleId } from '../rules/ids.js';
import { judgeRule, reviewFailure, type RuleJudgement } from '../rules/judge.js';
import { classifyRequest, describeGaps, gapsFor, insideFor, type SurfaceGap } from '../rules/surface.js';
import type { Outcome, Rule } from '../rules/rule.js';
import { inconclusive } from '../rules/rule.js';
import { TargetError, toExchange, type Exchange, type TargetRequest } from '../port.js';
import type { Finding, FindingId, PropertyEnv } from './env.js';

/** Thrown by a run to stop early after a finding; the run is judged with what it has. */
export class StopRun extends Error {
  override readonly name = 'StopRun';
  readonly code = 'PROPS_RUN_STOPPED';
}

export class Trial {
  /** Exchanges the oracle judges and a failure report shows. */
  readonly exchanges: Exchange[] = [];
  readonly findings: Finding[] = [];
  /**
   * Preconditions the run checked succeeded (a settings change answered 200): what they prepared is a
   * fact the run's reads then judge, so a documented verdict resting on them is not reviewed against
   * the documented surface. Only `precondition` adds to it: a probe is never verified by its own status.
   */
  readonly verified = new Set<Exchange>();
  /** Rules not judged in this run (the input makes their check inapplicable). */
  readonly excluded = new Set<RuleId>();
  /** Rules this run wanted to judge but the target's data could not serve, with why (inconclusive unless judged otherwise). */
  readonly unsure = new Map<RuleId, string>();
  /** Variables the oracle checks read (`base_url`, `page_length`, ids). */
  readonly vars: Record<string, unknown>;
  /**
   * Exchanges some rules judge before the run's own (a shared sample read that filter.results-total
   * compares with), never reported; every other rule sees only the run's own exchanges.
   */
  context: { readonly exchanges: readonly Exchange[]; readonly rules: ReadonlySet<RuleId> } | undefined;

  constructor(readonly env: PropertyEnv) {
    this.vars = { ...env.vars, base_url: env.target.baseUrl };
  }

  /** Sends a request and keeps the exchange. A simulator that throws is recorded as a server error. */
  async send(request: TargetRequest): Promise<Exchange> {
    const exchange = await this.sendAside(request);
    this.exchanges.push(exchange);
    return exchange;
  }

  /** Sends a set-up request the run needs; when it answers 2xx what it did is a verified fact (see `verified`). */
  async precondition(request: TargetRequest): Promise<Exchange> {
    const exchange = await this.send(request);
    if (exchange.response.status >= 200 && exchange.response.status < 300) this.verified.add(exchange);
    return exchange;
  }

  /** Sends a request the oracle does not judge (setting up a run's data through the admin API). */
  async sendAside(request: TargetRequest): Promise<Exchange> {
    let response;
    try {
      response = await this.env.target.send(request);
    } catch (error) {
      if (error instanceof TargetError) throw error;
      // In process, a throwing handler is what a 5xx is over HTTP: the property found a crash.
      const message = error instanceof Error ? error.message : String(error);
      this.fail('errors.no-5xx', `${request.method} ${request.url.slice(0, 200)} made the simulator throw: ${message}`, 'an answer', 'an exception');
      throw new StopRun(message);
    }
    return toExchange(request, response);
  }

  /**
   * Records a failing assertion attributed to `ruleId`, resting on `evidence` (default: every exchange
   * of the run). A finding on a documented rule is reviewed against the documented surface (judge()).
   */
  fail(ruleId: FindingId, message: string, expected: unknown, actual: unknown, evidence?: readonly Exchange[]): void {
    this.findings.push({ ruleId, outcome: { status: 'fail', message, expected, actual }, ...(evidence === undefined ? {} : { evidence }) });
  }

  /** `fail` when `ok` is false; returns `ok`. */
  expect(ok: boolean, ruleId: FindingId, message: string, expected: unknown, actual: unknown, evidence?: readonly Exchange[]): boolean {
    if (!ok) this.fail(ruleId, message, expected, actual, evidence);
    return ok;
  }

  /**
   * What one answer shows against what a request should get, attributed by the request alone: inside
   * the documented surface to the documented `rules` (each feature the request uses), outside it to the
   * assumed rules covering its undocumented parts (descending sort, other operators, attributes or
   * paths, ...), never to a documented rule picked by guess. Parts no rule covers record nothing.
   */
  finding(ex: Exchange, rules: readonly RuleId[], message: string, expected: unknown, actual: unknown): void {
    const c = classifyRequest(ex.request);
    const covering = new Set<RuleId>();
    const outside: SurfaceGap[] = [];
    for (const id of rules) {
      const gaps = gapsFor(c, id, ex.response.status);
      if (gaps.length === 0) this.fail(id, message, expected, actual, [ex]);
      else outside.push(...gaps);
    }
    if (rules.length === 0) outside.push(...c.gaps);
    for (const g of outside) if (g.coveredBy !== undefined && this.env.ruleById(g.coveredBy)?.level === 'assumed') covering.add(g.coveredBy);
    const unique = [...new Set(outside)];
    for (const id of covering) this.fail(id, `${message} (outside the documented surface: ${describeGaps(unique)})`, expected, actual, [ex]);
  }
}

/** Whether the exchange is documented evidence for `rule` (a documented verdict may rest on it). */
const documented = (ex: Exchange, rule: RuleId): boolean => insideFor(ex.request, rule, ex.response.status);

/** The verdict of one run: every judged rule's outcome, and the failing ones. */
export interface Judgement {
  readonly outcomes: ReadonlyMap<FindingId, Outcome>;
  readonly failing: readonly Finding[];
}

/**
 * Oracle checks of `rules` over the run's exchanges, then the run's own findings (a finding wins), all
 * through the one judging path (rules/judge.ts): a documented failure resting on a request outside the
 * documented surface is inconclusive, and the observation goes to the assumed rule covering that part.
 */
export function judge(rules: readonly RuleId[], trial: Trial): Judgement {
  const outcomes = new Map<FindingId, Outcome>();
  // Observations handed to assumed rules, by the documented rule they were made for.
  const observations: { readonly ruleId: RuleId; readonly observedFor: RuleId; readonly outcome: Outcome }[] = [];
  const own = { exchanges: trial.exchanges, vars: trial.vars };
  const { context } = trial;
  const withContext = context === undefined ? own : { exchanges: [...context.exchanges, ...trial.exchanges], vars: trial.vars };
  for (const id of rules) {
    if (trial.excluded.has(id)) continue;
    const rule = trial.env.ruleById(id);
    if (rule === undefined) continue;
    const ctx = context?.rules.has(id) === true ? withContext : own;
    // The shared sample reads are reads the run did not make: they are not reviewed.
    const verified = context?.rules.has(id) === true ? new Set([...context.exchanges, ...trial.verified]) : trial.verified;
    for (const j of judgeRule(rule, ctx, verified)) {
      if (j.observedFor === undefined) outcomes.set(id, passOnDocumented(rule, j.outcome, trial.exchanges, trial.verified));
      else observations.push({ ruleId: j.ruleId, observedFor: j.observedFor, outcome: j.outcome });
    }
  }
  for (const f of trial.findings) {
    const rule = trial.env.ruleById(f.ruleId);
    const reviewed: readonly ({ ruleId: FindingId; outcome: Outcome; observedFor?: undefined } | RuleJudgement)[] =
      // Only a documented rule's finding is reviewed: an assumed rule's finding is already where an observation lands.
      rule?.level === 'documented' ? reviewFailure(rule, f.outcome, f.evidence ?? trial.exchanges, trial.verified) : [{ ruleId: f.ruleId, outcome: f.outcome }];
    for (const j of reviewed) {
      if (j.observedFor !== undefined) {
        observations.push({ ruleId: j.ruleId as RuleId, observedFor: j.observedFor, outcome: j.outcome });
        continue;
      }
      // A finding wins over the checks' verdict, but an inconclusive review never hides a standing failure.
      if (outcomes.get(j.ruleId)?.status === 'fail' && j.outcome.status !== 'fail') continue;
      outcomes.set(j.ruleId, j.outcome);
    }
  }
  for (const [id, reason] of trial.unsure) {
    const o = outcomes.get(id);
    if (o === undefined || o.status === 'skip') outcomes.set(id, inconclusive(reason));
  }
  // An observation made while a documented rule could not be judged is moot once that rule failed outright.
  const observedFor = new Map<FindingId, RuleId>();
  for (const o of observations) {
    if (outcomes.get(o.observedFor)?.status === 'fail' || outcomes.get(o.ruleId)?.status === 'fail') continue;
    outcomes.set(o.ruleId, o.outcome);
    observedFor.set(o.ruleId, o.observedFor);
  }
  const failing: Finding[] = [];
  for (const [ruleId, outcome] of outcomes) {
    const by = observedFor.get(ruleId);
    if (outcome.status === 'fail') failing.push({ ruleId, outcome, ...(by === undefined ? {} : { observedFor: by }) });
  }
  return { outcomes, failing };
}

/**
 * A documented rule's pass stands only when some exchange it judged is inside the documented surface
 * (or a verified precondition): a run made only of undocumented requests judges no documented rule.
 */
function passOnDocumented(rule: Rule, outcome: Outcome, exchanges: readonly Exchange[], verified: ReadonlySet<Exchange>): Outcome {
  if (outcome.status !== 'pass' || rule.level !== 'documented' || exchanges.length === 0) return outcome;
  if (exchanges.some((ex) => verified.has(ex) || documented(ex, rule.id))) return outcome;
  const first = exchanges[0];
  const c = first === undefined ? undefined : classifyRequest(first.request);
  const dependsOn = exchanges.slice(0, 5).map((ex) => `${ex.request.method} ${ex.request.url}`.slice(0, 200));
  return inconclusive(`judged only on requests outside the documented surface${c === undefined ? '' : `: ${describeGaps(c.gaps)}`}`, dependsOn);
}

/** Whether a failing rule fails the property: documented (or unknown) rules always, assumed ones under --strict. */
export function blocks(env: PropertyEnv, ruleId: FindingId): boolean {
  return env.strict || env.ruleById(ruleId)?.level !== 'assumed';
}

/** What fast-check sees thrown from a failing run; the runner reads it back from `errorInstance`. */
export class PropertyFailure extends Error {
  override readonly name = 'PropertyFailure';
  readonly code = 'PROPS_RULE_FAILED';
  constructor(
    readonly findings: readonly Finding[],
    readonly exchanges: readonly Exchange[],
  ) {
    super(findings.map((f) => `${f.ruleId}: ${f.outcome.message}`).join('\n'));
  }
}
