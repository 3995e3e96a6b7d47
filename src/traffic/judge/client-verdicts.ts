/**
 * The client rules' verdicts, as the judge hears them: each rule created once for each client (its state
 * is that client's), its listeners asked at their moment (a request, a walk's next page, a walk's end),
 * each verdict tallied, and a failure (or a documented rule's inconclusive) recorded in the book with the
 * exchanges it rests on.
 */
import { clientRules } from '../client-rules/catalogue.js';
import type { ClientRuleMeta, ClientOutcome, EndContext, NextContext, RequestContext } from '../client-rules/rule.js';
import type { TrafficEntry } from '../entry.js';
import { walkName, type Session, type Walk } from '../sessions/session.js';
import type { Book } from './book.js';
import { isDeliberate } from './deliberate.js';

export interface ClientVerdicts {
  request(client: Session, ctx: RequestContext, entry: TrafficEntry): void;
  next(ctx: NextContext, evidence: readonly TrafficEntry[], walk: Walk): void;
  /**
   * The rules at a walk's end; true when a documented one failed (the client ended the walk taking it for done:
   * what it left is lost). `otherwise`: the walk's end had a later read of the client continued it (a read another
   * walk took): a verdict must hold under both readings, so a rule that passes under either does not fail.
   */
  end(ctx: EndContext, walk: Walk, otherwise?: EndContext): boolean;
  /** Whether continuing a walk of `client` as `ctx` says would fail a documented rule (the judge picks a walk that does not, where one may). */
  breaks(client: Session, ctx: NextContext): boolean;
}

/** One listener of one rule, created for one client. */
interface Listening<C> {
  readonly meta: ClientRuleMeta;
  readonly listen: (ctx: C) => void;
}

/** A client's rules, created for it, by the moment they listen to. */
interface Created {
  readonly request: readonly Listening<RequestContext>[];
  readonly next: readonly Listening<NextContext>[];
  readonly end: readonly Listening<EndContext>[];
}

/** `expected`: the rules `--expect` names, whose every finding is deliberate. */
export function clientVerdicts(book: Book, expected: ReadonlySet<string> = new Set()): ClientVerdicts {
  // What the listener being asked reported; listeners run one at a time, so one slot serves them all.
  let said: ClientOutcome | undefined;
  const ask = <C>(l: Listening<C>, ctx: C): ClientOutcome | undefined => {
    said = undefined;
    l.listen(ctx);
    const o = said;
    said = undefined;
    return o;
  };

  // Each client's rules, created on its first moment and let go with it.
  const created = new WeakMap<Session, Created>();
  const rulesOf = (client: Session): Created => {
    let c = created.get(client);
    if (c !== undefined) return c;
    const request: Listening<RequestContext>[] = [];
    const next: Listening<NextContext>[] = [];
    const end: Listening<EndContext>[] = [];
    const context = {
      report(outcome: ClientOutcome) {
        said ??= outcome;
      },
    };
    for (const rule of clientRules) {
      const l = rule.create(context);
      if (l.request !== undefined) request.push({ meta: rule.meta, listen: l.request });
      if (l.next !== undefined) next.push({ meta: rule.meta, listen: l.next });
      if (l.end !== undefined) end.push({ meta: rule.meta, listen: l.end });
    }
    created.set(client, (c = { request, next, end }));
    return c;
  };

  const record = (meta: ClientRuleMeta, o: ClientOutcome, evidence: readonly TrafficEntry[], walk?: Walk) => {
    // A request that named the rule it breaks (x-commerce-sim-expect, --expect) is a test of the server, not a client's mistake.
    if (o.status !== 'pass' && isDeliberate(meta.id, evidence, expected)) {
      book.deliberate(meta.id, o.status === 'fail' ? o.message : o.reason, evidence);
      return;
    }
    const recorded = book.verdict({ ruleId: meta.id, party: 'client', outcome: o, walk: walk === undefined ? undefined : walkName(walk), evidence: () => evidence });
    if (recorded && walk !== undefined) {
      walk.findings++;
      if (o.status === 'fail') walk.cause ??= `the client: ${o.message}`;
    }
  };
  return {
    request(client, ctx, entry) {
      for (const l of rulesOf(client).request) {
        const o = ask(l, ctx);
        if (o !== undefined) record(l.meta, o, [entry]);
      }
    },
    next(ctx, evidence, walk) {
      for (const l of rulesOf(walk.session).next) {
        const o = ask(l, ctx);
        if (o !== undefined) record(l.meta, o, evidence, walk);
      }
    },
    end(ctx, walk, otherwise) {
      let failed = false;
      for (const l of rulesOf(walk.session).end) {
        const first = ask(l, ctx);
        const o = first?.status === 'fail' && otherwise !== undefined ? ask(l, otherwise) : first;
        if (o === undefined) continue;
        record(l.meta, o, [walk.lastHeld], walk);
        failed ||= o.status === 'fail' && l.meta.level === 'documented';
      }
      return failed;
    },
    breaks(client, ctx) {
      return rulesOf(client).next.some((l) => l.meta.level === 'documented' && ask(l, ctx)?.status === 'fail');
    },
  };
}
