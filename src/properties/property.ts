/**
 * Contracts of the property suites: what a property needs from its caller (a Target, the rule
 * catalogue's lookup, what it may do), and what one property declares (the rules it judges, what
 * it needs, how to generate an input and run it). The fast-check plumbing lives in define.ts.
 */
import type * as fc from 'fast-check';
import type { RuleId } from '../rules/ids.js';
import type { Exchange, TargetError } from '../port.js';
import type { Finding, FindingId, PropertyEnv } from './env.js';
import type { Trial } from './trial.js';

/**
 * `writes`: creates or changes data (skipped on an HTTP target without --allow-writes).
 * `admin`: needs the simulator's admin API (seeded or adversarial data, the virtual clock): the
 * in-process simulator always has it; an HTTP target when `admin_token` is among its variables.
 */
export type Requirement = 'writes' | 'admin';

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
