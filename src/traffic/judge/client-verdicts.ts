/**
 * The client rules' verdicts, as the judge hears them: each rule's listeners asked at their moment (a
 * request, a walk's next page, a walk's end), each verdict tallied, and a failure (or a documented rule's
 * inconclusive) recorded in the book with the exchanges it rests on.
 */
import { clientRules } from '../client-rules/catalogue.js';
import type { ClientRuleId } from '../../rules/ids.js';
import type { ClientOutcome, EndContext, NextContext, RequestContext } from '../client-rules/rule.js';
import type { TrafficEntry } from '../entry.js';
import { walkName, type Walk } from '../sessions/session.js';
import type { Book } from './book.js';
import { isDeliberate } from './deliberate.js';

const onRequest = clientRules.filter((r) => r.onRequest !== undefined);
const onNext = clientRules.filter((r) => r.onNext !== undefined);
const onEnd = clientRules.filter((r) => r.onEnd !== undefined);

export interface ClientVerdicts {
  request(ctx: RequestContext, entry: TrafficEntry): void;
  next(ctx: NextContext, evidence: readonly TrafficEntry[], walk: Walk): void;
  /**
   * The rules at a walk's end; true when a documented one failed (the client ended the walk taking it for done:
   * what it left is lost). `otherwise`: the walk's end had a later read of the client continued it (a read another
   * walk took): a verdict must hold under both readings, so a rule that passes under either does not fail.
   */
  end(ctx: EndContext, walk: Walk, otherwise?: EndContext): boolean;
}

/** Whether continuing a walk as `ctx` says would fail a documented client rule (the judge picks a walk that does not, where one may). */
export const breaksARule = (ctx: NextContext): boolean => onNext.some((r) => r.level === 'documented' && r.onNext?.(ctx)?.status === 'fail');

/** `expected`: the rules `--expect` names, whose every finding is deliberate. */
export function clientVerdicts(book: Book, expected: ReadonlySet<string> = new Set()): ClientVerdicts {
  const record = (ruleId: ClientRuleId, o: ClientOutcome, evidence: readonly TrafficEntry[], walk?: Walk) => {
    // A request that named the rule it breaks (x-commerce-sim-expect, --expect) is a test of the server, not a client's mistake.
    if (o.status !== 'pass' && isDeliberate(ruleId, evidence, expected)) {
      book.deliberate(ruleId, o.status === 'fail' ? o.message : o.reason, evidence);
      return;
    }
    const recorded = book.verdict({ ruleId, party: 'client', outcome: o, walk: walk === undefined ? undefined : walkName(walk), evidence: () => evidence });
    if (recorded && walk !== undefined) {
      walk.findings++;
      if (o.status === 'fail') walk.cause ??= `the client: ${o.message}`;
    }
  };
  return {
    request(ctx, entry) {
      for (const r of onRequest) {
        const o = r.onRequest?.(ctx);
        if (o !== undefined) record(r.id, o, [entry]);
      }
    },
    next(ctx, evidence, walk) {
      for (const r of onNext) {
        const o = r.onNext?.(ctx);
        if (o !== undefined) record(r.id, o, evidence, walk);
      }
    },
    end(ctx, walk, otherwise) {
      let failed = false;
      for (const r of onEnd) {
        const first = r.onEnd?.(ctx);
        const o = first?.status === 'fail' && otherwise !== undefined ? r.onEnd?.(otherwise) : first;
        if (o === undefined) continue;
        record(r.id, o, [walk.lastEntry], walk);
        failed ||= o.status === 'fail' && r.level === 'documented';
      }
      return failed;
    },
  };
}
