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
  /** What judging traffic nobody scripted needs beyond the exchanges; the traffic judge applies it, whatever the rule. */
  readonly onTraffic?: TrafficNeeds;
}

/**
 * Facts a verdict on recorded or proxied traffic rests on that the exchanges alone may not show: the traffic
 * judge keeps them as variables (`CheckContext.vars`) from what it has seen of the client.
 */
export interface TrafficNeeds {
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
