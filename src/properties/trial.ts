/**
 * One run of a property: it sends requests through the target, keeps the exchanges for the oracle,
 * and collects the property's own findings. Judging a run is the same for every property: the
 * oracle checks of its rules over the exchanges, plus the findings.
 */
import type { Outcome } from '../rules/types.js';
import { fail } from '../rules/types.js';
import { TargetError, toExchange, type Exchange, type TargetRequest } from '../target/types.js';
import type { Finding, PropertyEnv } from './types.js';

/** Thrown by a run to stop early after a finding; the run is judged with what it has. */
export class StopRun extends Error {
  override readonly name = 'StopRun';
  readonly code = 'PROPS_RUN_STOPPED';
}

export class Trial {
  /** Exchanges the oracle judges and a failure report shows. */
  readonly exchanges: Exchange[] = [];
  readonly findings: Finding[] = [];
  /** Rules not judged in this run (the input makes their check inapplicable). */
  readonly excluded = new Set<string>();
  /** Variables the oracle checks read (`base_url`, `page_length`, ids). */
  readonly vars: Record<string, unknown>;
  /**
   * Exchanges some rules judge before the run's own (a shared sample read that filter.results-total
   * compares with), never reported; every other rule sees only the run's own exchanges.
   */
  context: { readonly exchanges: readonly Exchange[]; readonly rules: ReadonlySet<string> } | undefined;

  constructor(readonly env: PropertyEnv) {
    this.vars = { ...env.vars, base_url: env.target.baseUrl };
  }

  /** Sends a request and keeps the exchange. A simulator that throws is recorded as a server error. */
  async send(request: TargetRequest): Promise<Exchange> {
    const exchange = await this.sendAside(request);
    this.exchanges.push(exchange);
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

  /** Records a failing assertion attributed to `ruleId`. */
  fail(ruleId: string, message: string, expected: unknown, actual: unknown): void {
    this.findings.push({ ruleId, outcome: { status: 'fail', message, expected, actual } });
  }

  /** `fail` when `ok` is false; returns `ok`. */
  expect(ok: boolean, ruleId: string, message: string, expected: unknown, actual: unknown): boolean {
    if (!ok) this.fail(ruleId, message, expected, actual);
    return ok;
  }
}

/** The verdict of one run: every judged rule's outcome, and the failing ones. */
export interface Judgement {
  readonly outcomes: ReadonlyMap<string, Outcome>;
  readonly failing: readonly Finding[];
}

/** Oracle checks of `rules` over the run's exchanges, then the run's own findings (a finding wins). */
export function judge(rules: readonly string[], trial: Trial): Judgement {
  const outcomes = new Map<string, Outcome>();
  const own = { exchanges: trial.exchanges, vars: trial.vars };
  const { context } = trial;
  const withContext = context === undefined ? own : { exchanges: [...context.exchanges, ...trial.exchanges], vars: trial.vars };
  for (const id of rules) {
    if (trial.excluded.has(id)) continue;
    const rule = trial.env.ruleById(id);
    if (rule === undefined) continue;
    let outcome: Outcome;
    try {
      outcome = rule.check(context?.rules.has(id) === true ? withContext : own);
    } catch (error) {
      outcome = fail(`the check threw: ${error instanceof Error ? error.message : String(error)}`, 'a verdict', 'an exception');
    }
    outcomes.set(id, outcome);
  }
  for (const f of trial.findings) if (outcomes.get(f.ruleId)?.status !== 'fail') outcomes.set(f.ruleId, f.outcome);
  const failing: Finding[] = [];
  for (const [ruleId, outcome] of outcomes) if (outcome.status === 'fail') failing.push({ ruleId, outcome });
  return { outcomes, failing };
}

/** Whether a failing rule fails the property: documented (or unknown) rules always, assumed ones under --strict. */
export function blocks(env: PropertyEnv, ruleId: string): boolean {
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
