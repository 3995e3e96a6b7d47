import type { Exchange } from '../port.js';
import type { RuleId } from './ids.js';

export type { RuleId } from './ids.js';

/** `documented`: the API document states it. `assumed`: the document is silent; docs/api-notes.md chose. */
export type Level = 'documented' | 'assumed';

export type Family = 'create' | 'password-profile' | 'pagination' | 'settings' | 'sort-filter' | 'large-data' | 'auth' | 'errors' | 'versioning';

export type Outcome =
  | { readonly status: 'pass' }
  | { readonly status: 'fail'; readonly message: string; readonly expected: unknown; readonly actual: unknown }
  | { readonly status: 'skip'; readonly reason: string }
  /**
   * Neither pass nor fail: what the verdict rests on was not inside the documented surface, a setup
   * or capture it needed did not happen, or state the kit changed is not restored. Never fails a run.
   */
  | { readonly status: 'inconclusive'; readonly reason: string; readonly dependsOn: readonly string[] };

/**
 * What a check judges: the exchanges a scenario step (or a walk of pages, or a property run)
 * observed, in order, plus the variables known at that point (e.g. `page_length` read from settings).
 */
export interface CheckContext {
  readonly exchanges: readonly Exchange[];
  readonly vars: Readonly<Record<string, unknown>>;
}

export interface RuleBase {
  /** Stable id: `family.subject.aspect`; `grep` for it finds the rule, its engine site and its deviation. */
  readonly id: RuleId;
  readonly family: Family;
  /** Section of commerce-api.md, e.g. `§2.1`; assumed rules also name the docs/api-notes.md heading. */
  readonly section: string;
  /** One line: what holds. */
  readonly statement: string;
  /** The oracle: judge observed exchanges. Must hold on any conforming deployment, not just the simulator. */
  check(ctx: CheckContext): Outcome;
  /** How the traffic judge (commerce-sim proxy, check) offers it traffic nobody scripted, and what else a verdict there needs. */
  readonly onTraffic: TrafficNeeds;
}

/**
 * What each rule needs to see to be judged on traffic nobody scripted: the checks themselves read from each
 * request when they apply (path, method, page[limit], page[offset], sort, filter, body) and skip the rest;
 * this says how much history to hand them.
 * - `exchange`: one exchange at a time is enough.
 * - `walk`: the pages of one walk (one query paged by offset or keyset), with the writes of the same
 *   client made while it was open: order across pages, ge at the boundary, totals across pages.
 * - `session`: one client's exchanges in order (a create then a read of it, a delete then a list).
 * - `scripted`: only a scenario can judge it: it needs what the kit set up (the simulator's operator
 *   API), or it takes observations handed on from a documented rule (a surface cover). Traffic reports
 *   it as not observed.
 */
export type TrafficScope = 'exchange' | 'walk' | 'session' | 'scripted';

/** What a request is, as far as choosing the rules that may apply to it goes. One request may be several. */
export type RequestKind = 'read' | 'create' | 'profile' | 'settings' | 'token' | 'write';

/**
 * The events a rule subscribes to on traffic, and facts a verdict there rests on that the exchanges alone may not
 * show: the traffic judge keeps those as variables (`CheckContext.vars`) from what it has seen of the client.
 */
export interface TrafficNeeds {
  /** How much history the rule is handed (required: a new rule does not compile until it says which). */
  readonly scope: TrafficScope;
  /**
   * For an exchange-scope rule that applies only to some requests: which. The judge calls the rule only on
   * exchanges of these kinds (the rule still skips what it does not judge; this only saves the call). Absent:
   * offered every exchange.
   */
  readonly kinds?: readonly RequestKind[];
  /** A failure stands only when this variable is `true`; otherwise it is inconclusive with the reason. */
  readonly failsOnlyWhen?: { readonly variable: string; readonly reason: string };
  /** While this variable is `true`, the rule is not offered the client's exchanges (another rule judges them). */
  readonly notOfferedWhen?: string;
}

/** A documented rule carries the document's own words (shown in reports and `commerce-sim rules`); an assumed rule has none. */
export type Rule = RuleBase & ({ readonly level: 'documented'; readonly quote: string } | { readonly level: 'assumed'; readonly quote?: undefined });

export const pass: Outcome = { status: 'pass' };
export const skip = (reason: string): Outcome => ({ status: 'skip', reason });
export const inconclusive = (reason: string, dependsOn: readonly string[] = []): Outcome => ({ status: 'inconclusive', reason, dependsOn });
export const fail = (message: string, expected: unknown, actual: unknown): Outcome => ({ status: 'fail', message, expected, actual });
