/**
 * Contracts of the property suites: what a property needs from its caller (a Target, the rule
 * catalogue's lookup, what it may do), and what one property declares (the rules it judges, what
 * it needs, how to generate an input and run it). The fast-check plumbing lives in define.ts.
 */
import type * as fc from 'fast-check';
import type { RuleId } from '../rules/ids.js';
import type { Outcome, Rule } from '../rules/rule.js';
import type { Exchange, Target, TargetError } from '../port.js';
import type { SeedBody } from './admin-requests.js';
import type { Trial } from './trial.js';

/**
 * `writes`: creates or changes data (skipped on an HTTP target without --allow-writes).
 * `admin`: needs the simulator's admin API (seeded or adversarial data, the virtual clock): the
 * in-process simulator always has it; an HTTP target when `admin_token` is among its variables.
 */
export type Requirement = 'writes' | 'admin';

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
}

export interface AdminAccess {
  readonly token: string;
  /** The data options the simulator had before the suites ran (see admin.ts). */
  readonly baseline: SeedBody;
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

/** One property: prepared once per run of the suite, then checked over generated inputs. */
export interface PropertyDef<C, T> {
  /** Stable name: `--grep` matches it, replay commands name it. */
  readonly name: string;
  readonly summary: string;
  /**
   * The rules whose oracle checks judge every run's exchanges, most specific first. Own assertions
   * may name other rules too; those are reported but are not part of the coverage promise.
   */
  readonly rules: readonly RuleId[];
  readonly needs: readonly Requirement[];
  /**
   * Each run starts from a reset simulator when the admin API is there (POST /__sim/reset, not
   * judged), so runs that write do not see each other and a replay meets the same ids.
   */
  readonly isolated?: boolean;
  /** Reads or sets up what the runs share (a sample of records, seeded data). */
  prepare(env: PropertyEnv): Promise<C>;
  /** `replay`: what `replayOf` gave for a failure, when replaying it (command sequences need it). */
  arbitrary(ctx: C, env: PropertyEnv, replay: string | undefined): fc.Arbitrary<T>;
  /**
   * Extra replay state of a failing input beyond fast-check's path (fc.commands' replayPath); the
   * reported path becomes `<path>@<replay>` and a replay hands it back to `arbitrary`.
   */
  replayOf?(input: T): string | undefined;
  /** Sends one run's requests through `trial` and records own findings there. */
  run(input: T, trial: Trial, ctx: C): Promise<void>;
  /** The input as reports show it (secrets replaced); the input itself when absent. */
  show?(input: T): unknown;
}

export interface CheckParams {
  readonly seed: number;
  readonly numRuns: number;
  /** fast-check's path, optionally followed by `@` and the property's own replay state. */
  readonly path?: string;
}

/** Per-rule tally over every run (shrinking included). */
export interface RuleTally {
  passed: number;
  skipReason: string | undefined;
  /** Why a run could not judge it (its failure rested on something outside the documented surface). */
  inconclusiveReason?: string | undefined;
}

/** A failing run: the rules it broke and what it exchanged. */
export interface FailedRun {
  readonly findings: readonly Finding[];
  readonly exchanges: readonly Exchange[];
  /** The input as shown in reports (not yet redacted). */
  readonly shown: unknown;
}

export type PropertyFailureInfo =
  | { readonly kind: 'rules'; readonly path: string; readonly numShrinks: number; readonly run: FailedRun }
  | { readonly kind: 'error'; readonly path: string | undefined; readonly message: string; readonly shown: unknown };

/** What checking one property produced, before it becomes a report's PropertyResult. */
export interface PropertyOutcome {
  /** Runs completed (shrinking aside). */
  readonly runs: number;
  readonly failure: PropertyFailureInfo | undefined;
  /** Failing assumed rules seen without --strict: reported, not shrunk (first run each). */
  readonly observations: ReadonlyMap<FindingId, FailedRun>;
  readonly tally: ReadonlyMap<FindingId, RuleTally>;
  /** A target error that stopped the property (budget, unreachable, ...). */
  readonly stopped: TargetError | undefined;
}

/** A property with its input type erased, as the registry lists it. */
export interface PropertySuite {
  readonly name: string;
  readonly summary: string;
  readonly rules: readonly RuleId[];
  readonly needs: readonly Requirement[];
  check(env: PropertyEnv, params: CheckParams): Promise<PropertyOutcome>;
}
