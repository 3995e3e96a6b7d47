/**
 * The speed figure of the property suites, for `npm run bench`: page-arithmetic runs per second
 * against a target (the in-process simulator for the published figure). Timing lives here and in
 * the bench harness only; no test asserts on it.
 */
import { performance } from 'node:perf_hooks';
import { ruleById } from '../rules/catalogue.js';
import type { Target } from '../port.js';
import { pageArithmetic } from '../properties/page-arithmetic.js';
import { usernames } from '../properties/usernames.js';
import type { PropertyEnv } from '../properties/env.js';

export interface PropertyBench {
  readonly property: string;
  readonly runs: number;
  readonly ms: number;
  readonly runsPerSecond: number;
  /** Whether every run passed (a failing property stops early and would flatter the figure). */
  readonly passed: boolean;
}

/**
 * Checks page-arithmetic `runs` times (after a warm-up of a tenth as many) on one reused target,
 * strict, with the same oracle as every other run, and reports runs per second.
 */
export async function pageArithmeticRunsPerSecond(target: Target, runs = 5_000, seed = 1): Promise<PropertyBench> {
  const env: PropertyEnv = { target, vars: target.vars, ruleById, writable: target.kind === 'sim', strict: true, admin: undefined, usernames: usernames('') };
  await pageArithmetic.check(env, { seed: seed + 1, numRuns: Math.max(1, Math.floor(runs / 10)) });
  const start = performance.now();
  const outcome = await pageArithmetic.check(env, { seed, numRuns: runs });
  const ms = performance.now() - start;
  return { property: pageArithmetic.name, runs: outcome.runs, ms, runsPerSecond: ms > 0 ? (outcome.runs * 1000) / ms : Number.POSITIVE_INFINITY, passed: outcome.failure === undefined };
}
