/**
 * What a property runs in: the target and its variables, the rule lookup, what it may do, the admin
 * API when there is one; and what a property's own assertion finds. The bottom of src/properties:
 * it imports nothing of its folder, so the property contracts, the trial and the admin requests all
 * stand on it without importing each other.
 */
import type { RuleId } from '../rules/ids.js';
import type { Outcome, Rule } from '../rules/rule.js';
import type { Exchange, Target } from '../port.js';
import type { Usernames } from './usernames.js';

/** What every property run may use. */
export interface PropertyEnv {
  readonly target: Target;
  /** The target's variables (realm_id, user_authentication_info_id, admin_token, ...) and --var ones. */
  readonly vars: Readonly<Record<string, string>>;
  readonly ruleById: (id: string) => Rule | undefined;
  /** Whether runs may write: always on the simulator, on an HTTP target only with --allow-writes. */
  readonly writable: boolean;
  /** Assumed rules fail the property too (else a failing assumed rule is reported, not shrunk). */
  readonly strict: boolean;
  /** The simulator's admin API, when the target exposes it: its token and the data to restore. */
  readonly admin: AdminAccess | undefined;
  /** Usernames never sent twice in the run (properties/usernames.ts). */
  readonly usernames: Usernames;
}

export interface AdminAccess {
  readonly token: string;
  /** The data options the simulator had before the suites ran (see admin.ts). */
  readonly baseline: SeedBody;
}

/** Seed request of a data set: the body of POST /__sim/seed. */
export interface SeedBody {
  readonly seed?: number;
  readonly accounts?: number;
  readonly counts?: Readonly<Record<string, number>>;
  readonly profile?: 'default' | 'shared-timestamps';
  readonly burst?: number;
}

/**
 * What a property's own assertion may name: a catalogue rule, or the simulator's virtual clock (the
 * model test's check of the admin API, which no rule of the document or API-NOTES covers).
 */
export type FindingId = RuleId | 'sim.clock';

/** A failing judgement by a property's own assertion, attributed to a rule. */
export interface Finding {
  readonly ruleId: FindingId;
  readonly outcome: Extract<Outcome, { status: 'fail' }>;
  /** The exchanges the finding rests on, when not every exchange of the run. */
  readonly evidence?: readonly Exchange[];
  /** On an assumed rule's observation: the documented rule it was made for, which could not be judged. */
  readonly observedFor?: RuleId;
}
