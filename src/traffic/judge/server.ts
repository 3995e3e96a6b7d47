/**
 * The server's answers judged by the catalogue's rules, through the kit's one judging path (`judgeRule`):
 * a documented failure outside the documented surface is inconclusive, and on traffic that is not
 * complete a failure resting on several exchanges is too (another client's write between them would
 * explain it). Findings go to the book with the exchanges they rest on.
 */
import type { Exchange } from '../../port.js';
import { evidenceFor, judgeRule, type RuleJudgement } from '../../rules/judge.js';
import { changesState } from '../../rules/inspect.js';
import { inconclusive, type Rule } from '../../rules/rule.js';
import { classifyRequest, gapsFor } from '../../rules/surface.js';
import type { TrafficEntry } from '../entry.js';
import type { Book } from './book.js';

/** Statuses that say a request was refused before it was judged on its merits (as rules/judge.ts reads them). */
const REFUSED: ReadonlySet<number> = new Set([401, 403, 407, 429]);

export interface ServerJudging {
  /** Judges `rule` on `all` (one exchange, a walk's pages, a session's chunk); `walk` names the walk a finding is about. */
  judge(rule: Rule, all: readonly TrafficEntry[], vars: Readonly<Record<string, unknown>>, walk?: { readonly name: string; found(): void }): void;
}

export function serverJudging(book: Book, complete: () => boolean): ServerJudging {
  /** A documented failure that rests on several exchanges: only complete traffic rules out another client's writes. */
  const review = (rule: Rule, j: RuleJudgement, exchanges: readonly Exchange[], vars: Readonly<Record<string, unknown>>): RuleJudgement => {
    if (j.outcome.status !== 'fail' || rule.level !== 'documented' || j.ruleId !== rule.id) return j;
    const needs = rule.onTraffic.failsOnlyWhen;
    if (needs !== undefined && vars[needs.variable] !== true) return { ruleId: rule.id, outcome: inconclusive(needs.reason) };
    if (exchanges.length < 2 || complete()) return j;
    const ctx = { exchanges, vars };
    const alone = evidenceFor(rule, ctx).some((i) => {
      const ex = exchanges[i];
      return ex !== undefined && judgeRule(rule, { exchanges: [ex], vars })[0]?.outcome.status === 'fail';
    });
    if (alone) return j;
    return {
      ruleId: rule.id,
      outcome: inconclusive(
        `${j.outcome.message}; but this verdict rests on several exchanges, and the traffic is not known to hold every write the server received (another client's write between them would explain it, or a server that changes its own data; pass --complete when neither can be)`,
      ),
    };
  };

  /** The rule's verdicts on `held`, each reviewed for traffic. */
  const verdictsOn = (rule: Rule, held: readonly TrafficEntry[], vars: Readonly<Record<string, unknown>>): RuleJudgement[] => {
    const exchanges = held.map((h) => h.exchange);
    // A write the server accepted (2xx) is a fact the verdict rests on, not a reading it assumes.
    const verified = new Set(exchanges.filter((ex) => changesState(ex)));
    return judgeRule(rule, { exchanges, vars }, verified).map((raw) => review(rule, raw, exchanges, vars));
  };

  /** A verdict to the book; the exchanges a failure rests on are the rule's evidence, an inconclusive's all it saw. */
  const record = (rule: Rule, j: RuleJudgement, held: readonly TrafficEntry[], vars: Readonly<Record<string, unknown>>, walk?: { readonly name: string; found(): void }) => {
    const evidence = () => {
      const idx = j.outcome.status === 'fail' ? evidenceFor(rule, { exchanges: held.map((h) => h.exchange), vars }) : held.map((_e, i) => i);
      return idx.slice(0, 5).flatMap((i) => (held[i] === undefined ? [] : [held[i]]));
    };
    if (book.verdict({ ruleId: j.ruleId, party: 'server', outcome: j.outcome, walk: walk?.name, evidence })) walk?.found();
  };

  return {
    judge(rule, all, vars, walk) {
      // A read outside the documented surface can support no documented verdict: over several exchanges it
      // is left out first, so it does not make the rest inconclusive. Writes stay. So is a request refused
      // for credentials or rate (401, 403, 407, 429): it observed nothing.
      const documented =
        all.length > 1 && rule.level === 'documented' ? all.filter((h) => changesState(h.exchange) || !(outsideFor(rule, h.exchange) || REFUSED.has(h.exchange.response.status))) : all;
      const judged = verdictsOn(rule, documented, vars);
      // What holds on the documented reads may still break on the others (a descending sort, an operator the
      // document does not list): judged on them too, such a failure is inconclusive with the reason, and
      // the assumed rule that covers the undocumented part gets the observation.
      const whole = documented.length < all.length && !judged.some((j) => j.outcome.status === 'fail') ? verdictsOn(rule, all, vars) : undefined;
      const chosen =
        whole !== undefined && whole.some((j) => j.outcome.status === 'fail' || j.outcome.status === 'inconclusive') ? { held: all, verdicts: whole } : { held: documented, verdicts: judged };
      for (const j of chosen.verdicts) record(rule, j, chosen.held, vars, walk);
    },
  };
}

/** Each request classified once, whatever number of rules ask. */
const classified = new WeakMap<object, ReturnType<typeof classifyRequest>>();
const classificationOf = (ex: Exchange): ReturnType<typeof classifyRequest> => {
  let c = classified.get(ex.request);
  if (c === undefined) classified.set(ex.request, (c = classifyRequest(ex.request)));
  return c;
};
const outsideFor = (rule: Rule, ex: Exchange): boolean => gapsFor(classificationOf(ex), rule.id, ex.response.status).length > 0;
