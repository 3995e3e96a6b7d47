/**
 * Turns a PropertyDef into a checkable suite: a fast-check async property whose predicate runs one
 * trial, judges it with the oracle, and throws a PropertyFailure on a blocking failure, so fast-check
 * shrinks it and reports the seed and path that replay it.
 */
import { CodedKitError } from '../kit-errors.js';
import * as fc from 'fast-check';
import { TargetError } from '../port.js';
import { AdminError, adminRequest } from './admin-requests.js';
import { blocks, judge, PropertyFailure, StopRun, Trial } from './trial.js';
import type { CheckParams, FailedRun, PropertyDef, PropertyFailureInfo, PropertyOutcome, PropertySuite, RuleTally } from './property.js';
import type { FindingId, PropertyEnv } from './env.js';

/** A property cannot run against this target (a variable it needs is missing): reported as a skip. */
export class PropertySetupError extends CodedKitError<'PROPS_SETUP'> {
  override readonly name = 'PropertySetupError';
}

export function defineProperty<C, T>(def: PropertyDef<C, T>): PropertySuite {
  return {
    name: def.name,
    summary: def.summary,
    rules: def.rules,
    needs: def.needs,
    check: (env, params) => checkProperty(def, env, params),
  };
}

async function checkProperty<C, T>(def: PropertyDef<C, T>, env: PropertyEnv, params: CheckParams): Promise<PropertyOutcome> {
  const ctx = await def.prepare(env);
  const tally = new Map<FindingId, RuleTally>(def.rules.map((id) => [id, { passed: 0, skipReason: undefined }]));
  const observations = new Map<FindingId, FailedRun>();
  const show = (input: T): unknown => (def.show === undefined ? input : def.show(input));
  let stopped: TargetError | undefined;
  let runs = 0;
  let shrinking = false;

  const predicate = async (input: T): Promise<boolean> => {
    // After a target error (budget, unreachable) every further run passes without a request, so
    // fast-check ends quickly and a failure found earlier keeps its smallest counterexample.
    if (stopped !== undefined) return true;
    const trial = new Trial(env);
    try {
      if (def.isolated === true && env.admin !== undefined) await resetSimulator(env, env.admin.token);
      await def.run(input, trial, ctx);
    } catch (error) {
      if (error instanceof TargetError) {
        stopped = error;
        return true;
      }
      if (!(error instanceof StopRun)) throw error;
    }
    const { outcomes, failing } = judge(def.rules, trial);
    for (const [id, outcome] of outcomes) {
      const t = tally.get(id) ?? { passed: 0, skipReason: undefined };
      if (outcome.status === 'pass') t.passed += 1;
      else if (outcome.status === 'skip') t.skipReason ??= outcome.reason;
      else if (outcome.status === 'inconclusive') t.inconclusiveReason ??= outcome.reason;
      tally.set(id, t);
    }
    const blocking = failing.filter((f) => blocks(env, f.ruleId));
    if (blocking.length > 0) {
      shrinking = true;
      throw new PropertyFailure(failing, trial.exchanges);
    }
    if (!shrinking) runs += 1;
    for (const f of failing) {
      if (!observations.has(f.ruleId)) observations.set(f.ruleId, { findings: [f], exchanges: trial.exchanges, shown: show(input) });
    }
    return true;
  };

  const at = params.path?.indexOf('@') ?? -1;
  const fcPath = at < 0 ? params.path : params.path?.slice(0, at);
  const replay = at < 0 ? undefined : params.path?.slice(at + 1);
  const details = await fc.check(fc.asyncProperty(def.arbitrary(ctx, env, replay), predicate), {
    seed: params.seed,
    numRuns: params.numRuns,
    // A replay goes straight to the shrunk counterexample and stops there.
    ...(fcPath === undefined ? {} : { path: fcPath, endOnFailure: true }),
  });
  const extra = (input: T): string | undefined => def.replayOf?.(input);
  return { runs, failure: failureOf(details, show, extra), observations, tally, stopped };
}

async function resetSimulator(env: PropertyEnv, token: string): Promise<void> {
  const res = await env.target.send(adminRequest(token, 'POST', '/__sim/reset'));
  if (res.status !== 200) throw new AdminError('PROPS_ADMIN_FAILED', `POST /__sim/reset answered ${res.status}`);
}

function failureOf<T>(details: fc.RunDetails<[T]>, show: (input: T) => unknown, extra: (input: T) => string | undefined): PropertyFailureInfo | undefined {
  if (!details.failed) return undefined;
  const shown = details.counterexample === null ? undefined : show(details.counterexample[0]);
  const error = details.errorInstance;
  if (error instanceof PropertyFailure && details.counterexamplePath !== null) {
    const replay = details.counterexample === null ? undefined : extra(details.counterexample[0]);
    const path = replay === undefined ? details.counterexamplePath : `${details.counterexamplePath}@${replay}`;
    return { kind: 'rules', path, numShrinks: details.numShrinks, run: { findings: error.findings, exchanges: error.exchanges, shown } };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : details.counterexample === null ? 'fast-check gave up (too many skipped runs or interrupted)' : String(error);
  return { kind: 'error', path: details.counterexamplePath ?? undefined, message, shown };
}
