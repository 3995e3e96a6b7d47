/**
 * The one judging path: the scenario runner and the property trials both call `judgeRule`.
 *
 * A documented rule's failure stands only when every exchange it rests on is inside the documented
 * surface (rules/surface.ts) and none was refused for a precondition (credentials, rate). Otherwise the
 * documented rule is `inconclusive`, with the reason and the requests it depended on, and the
 * observation goes to the assumed rules that cover the undocumented parts.
 */
import type { Exchange } from '../port.js';
import { ruleById } from './catalogue.js';
import type { RuleId } from './ids.js';
import { describe } from './inspect.js';
import { classifyRequest, describeGaps, gapsFor } from './surface.js';
import { fail, inconclusive, type CheckContext, type Outcome, type Rule } from './rule.js';

export interface RuleJudgement {
  readonly ruleId: RuleId;
  readonly outcome: Outcome;
  /** For an observation handed on to an assumed rule: the documented rule it was judging. */
  readonly observedFor?: RuleId;
}

/** Statuses that say the request was not judged on its merits: credentials, scope, rate. */
const PRECONDITION_STATUSES = new Set([401, 403, 407, 429]);

/**
 * The rule's own outcome first, then any observations handed on to assumed rules. `verified` holds
 * exchanges of preconditions the caller checked succeeded (a setup write answered 2xx): what they
 * prepared is a fact, not something the verdict assumes, so they are not reviewed against the surface.
 */
export function judgeRule(rule: Rule, ctx: CheckContext, verified: ReadonlySet<Exchange> = NONE): RuleJudgement[] {
  const outcome = runCheck(rule, ctx);
  if (outcome.status !== 'fail' || rule.level !== 'documented') return [{ ruleId: rule.id, outcome }];
  // Reviewed: the exchanges the failure rests on (those the check fails on alone, else all of them).
  const evidence = failingAlone(rule, ctx);
  const judged = reviewFailure(rule, outcome, evidence.length > 0 ? evidence.map((i) => ctx.exchanges[i]).filter((e): e is Exchange => e !== undefined) : ctx.exchanges, verified);
  if (judged[0]?.outcome.status === 'fail') return judged;
  // Each exchange on its own merits: a failure the check already finds in the documented history before
  // the first request outside the surface stands, whatever came after it.
  const prefix = documentedPrefix(rule, ctx, verified);
  if (prefix === undefined) return judged;
  const early = runCheck(rule, { exchanges: prefix, vars: ctx.vars });
  return early.status === 'fail' ? [{ ruleId: rule.id, outcome: early }] : judged;
}

/** The exchanges before the first one outside the surface for this rule, when there is such an exchange and something before it. */
function documentedPrefix(rule: Rule, ctx: CheckContext, verified: ReadonlySet<Exchange>): readonly Exchange[] | undefined {
  const first = ctx.exchanges.findIndex((ex) => !verified.has(ex) && (outsideFor(rule, ex) || PRECONDITION_STATUSES.has(ex.response.status)));
  return first > 0 ? ctx.exchanges.slice(0, first) : undefined;
}

const outsideFor = (rule: Rule, ex: Exchange): boolean => gapsFor(classifyRequest(ex.request), rule.id, ex.response.status).length > 0;

function failingAlone(rule: Rule, ctx: CheckContext): number[] {
  if (ctx.exchanges.length < 2) return [];
  return ctx.exchanges.flatMap((ex, i) => (runCheck(rule, { exchanges: [ex], vars: ctx.vars }).status === 'fail' ? [i] : []));
}

const NONE: ReadonlySet<Exchange> = new Set();

function runCheck(rule: Rule, ctx: CheckContext): Outcome {
  try {
    return rule.check(ctx);
  } catch (error) {
    return fail(`the check threw: ${error instanceof Error ? error.message : String(error)}`, 'a verdict', 'an exception');
  }
}

/**
 * A documented failure resting on a request outside the surface, or on a refused precondition, is
 * inconclusive; undocumented parts get the observation under their covering assumed rule.
 */
export function reviewFailure(rule: Rule, outcome: Extract<Outcome, { status: 'fail' }>, exchanges: readonly Exchange[], verified: ReadonlySet<Exchange> = NONE): RuleJudgement[] {
  const outside: string[] = [];
  const covering = new Set<RuleId>();
  const reasons: string[] = [];
  for (const ex of exchanges) {
    if (verified.has(ex)) continue;
    const gaps = gapsFor(classifyRequest(ex.request), rule.id, ex.response.status);
    if (gaps.length > 0) {
      outside.push(describe(ex));
      reasons.push(`${describe(ex)} is outside the documented surface: ${describeGaps(gaps)}`);
      // Only rules this catalogue has: an observation must land on a rule a report can show.
      for (const g of gaps) if (g.coveredBy !== undefined && ruleById(g.coveredBy) !== undefined) covering.add(g.coveredBy);
    } else if (PRECONDITION_STATUSES.has(ex.response.status)) {
      outside.push(describe(ex));
      reasons.push(`${describe(ex)} answered ${ex.response.status} (credentials or rate, not the rule)`);
    }
  }
  if (outside.length === 0) return [{ ruleId: rule.id, outcome }];
  const own: RuleJudgement = {
    ruleId: rule.id,
    outcome: inconclusive(`${rule.id} could not be judged by documented means: ${reasons[0] ?? ''}${reasons.length > 1 ? ` (+${reasons.length - 1} more)` : ''}`, outside),
  };
  const observations = [...covering].map((id): RuleJudgement => ({
    ruleId: id,
    observedFor: rule.id,
    outcome: fail(`observed while judging ${rule.id}: ${outcome.message}`, outcome.expected, outcome.actual),
  }));
  return [own, ...observations];
}

/** Indexes of the exchanges a failing verdict rests on: those the check fails on alone, else all of them. */
export function evidenceFor(rule: Rule, ctx: CheckContext): number[] {
  const alone = ctx.exchanges.length === 1 && runCheck(rule, ctx).status === 'fail' ? [0] : failingAlone(rule, ctx);
  if (alone.length > 0) return alone;
  const outside = ctx.exchanges.flatMap((ex, i) => (outsideFor(rule, ex) ? [i] : []));
  return outside.length > 0 ? outside : ctx.exchanges.map((_e, i) => i);
}
