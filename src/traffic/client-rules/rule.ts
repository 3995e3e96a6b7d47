/**
 * What a client rule is: the instruction of the document it rests on (documented: quoted), the traffic
 * that shows it broken (`evidence`), and the moments of a client's traffic it listens to. The judge owns
 * the loop (src/traffic/judge/): it reads each exchange once, rebuilds walks, and calls each rule's
 * listeners with what it needs; a listener answers a verdict, or nothing when the moment is not its.
 *
 * A documented failure rests on an instruction and traffic that breaks it; never on what a client did
 * not do next, on an operator the document does not list, or on work a client can do on its side. What
 * only suggests a mistake is an assumed rule's, with its reason.
 */
import type { Exchange } from '../../port.js';
import type { TrafficEntry } from '../entry.js';
import type { Level } from '../../rules/rule.js';
import type { PageFacts } from '../sessions/pages.js';
import type { Step, WalkKind } from '../sessions/walks.js';
import type { ClientRuleId } from '../../rules/ids.js';

export type ClientOutcome =
  | { readonly status: 'pass' }
  | { readonly status: 'fail'; readonly message: string; readonly expected: unknown; readonly actual: unknown }
  | { readonly status: 'inconclusive'; readonly reason: string };

export const pass: ClientOutcome = { status: 'pass' };
export const fail = (message: string, expected: unknown, actual: unknown): ClientOutcome => ({ status: 'fail', message, expected, actual });
export const inconclusive = (reason: string): ClientOutcome => ({ status: 'inconclusive', reason });

/** Runs of one timestamp a client read to their end (by `eq`, or by `ge` further on by page[offset]). */
export interface RunsRead {
  drained(path: string, field: string, value: string): boolean;
}

/** Any request of the client. */
export interface RequestContext {
  readonly ex: Exchange;
  /** The entry as observed: whether its body was cut, whether its capture may have dropped credential headers. */
  readonly entry: TrafficEntry;
  /** When it was sent (ms), when known. */
  readonly sentAt: number | undefined;
}

/** A list read that continues a walk. */
export interface NextContext {
  readonly ex: Exchange;
  /** The walk's previous page's exchange. */
  readonly prevEx: Exchange;
  readonly step: Step;
  readonly prev: PageFacts;
  readonly page: PageFacts;
  readonly first: PageFacts;
  readonly runs: RunsRead;
  /** The client wrote to the walk's collection since the previous page. */
  readonly wroteBetween: boolean;
}

/** A walk that ended: superseded, evicted, or the traffic ended. */
export interface EndContext {
  /** The walk's last exchange. */
  readonly ex: Exchange;
  readonly first: PageFacts;
  readonly last: PageFacts;
  readonly pages: number;
  readonly kind: WalkKind;
  /** It took a keyset step: a read carried the last value of the page before it. */
  readonly stepped: boolean;
  /** The attribute the walk moved on, when it had one. */
  readonly field: string | undefined;
  /** The client sent another request after the walk's last page: it stopped there, rather than the traffic ending. */
  readonly stopShown: boolean;
  /** The walk's last page held no record it had not read before (a re-read). */
  readonly addedNothing: boolean;
  readonly runs: RunsRead;
}

/** What a rule is, apart from how it listens: the catalogue's row of it (`commerce-sim rules --client`, reports). */
export interface ClientRuleMeta {
  readonly id: ClientRuleId;
  readonly family: 'client';
  readonly section: string;
  readonly level: Level;
  /** Documented rules: the document's own words. */
  readonly quote?: string;
  /** One line: what a client does. */
  readonly statement: string;
  /** The traffic a failure rests on. */
  readonly evidence: string;
}

/** The moments of a client's traffic a rule hears; each listener reports through its context, or says nothing. */
export interface ClientListeners {
  readonly request?: (ctx: RequestContext) => void;
  /**
   * Asked of a read for each walk it may continue, before the judge knows which it does (it picks one the
   * client broke no documented rule in): a `next` listener keeps no state of its own.
   */
  readonly next?: (ctx: NextContext) => void;
  readonly end?: (ctx: EndContext) => void;
}

/** What a rule's listeners are handed at creation: where their verdicts go. */
export interface ClientRuleContext {
  /** The verdict on the moment being heard (at most one a moment; the first stands). */
  report(outcome: ClientOutcome): void;
}

/**
 * A client rule in ESLint's shape: `meta`, and `create`, called once for each client the judge follows,
 * whose listeners hold that client's state for the rule (bounded: the client is let go with it).
 */
export interface ClientRule {
  readonly meta: ClientRuleMeta;
  create(context: ClientRuleContext): ClientListeners;
}

/** The listeners of a rule that keeps no state: each answers a verdict on its moment, or nothing. */
export interface Answers {
  readonly request?: (ctx: RequestContext) => ClientOutcome | undefined;
  readonly next?: (ctx: NextContext) => ClientOutcome | undefined;
  readonly end?: (ctx: EndContext) => ClientOutcome | undefined;
}

/** A rule with no state of its own: its answers reported as they come. */
export function answering(meta: ClientRuleMeta, answers: Answers): ClientRule {
  const { request, next, end } = answers;
  return {
    meta,
    create: (context) => {
      const said = (o: ClientOutcome | undefined) => {
        if (o !== undefined) context.report(o);
      };
      return {
        ...(request === undefined ? {} : { request: (ctx: RequestContext) => said(request(ctx)) }),
        ...(next === undefined ? {} : { next: (ctx: NextContext) => said(next(ctx)) }),
        ...(end === undefined ? {} : { end: (ctx: EndContext) => said(end(ctx)) }),
      };
    },
  };
}
