/**
 * A Target that counts its requests and remembers the first error after which every further request
 * is pointless, aborting its signal so a runner stops instead of failing each remaining step the same way.
 */
import { TargetError, type Target, type TargetErrorCode } from '../port.js';

const FATAL_CODES: ReadonlySet<TargetErrorCode> = new Set(['TARGET_UNREACHABLE', 'TARGET_BUDGET_EXHAUSTED', 'TARGET_AUTH_FAILED']);

export interface GuardedTarget {
  readonly target: Target;
  /** Aborted, with the error as reason, at the first fatal error. */
  readonly signal: AbortSignal;
  requests(): number;
  fatal(): TargetError | undefined;
  /** The first target error of any kind (a timeout, a reset past the retries): the run is incomplete. */
  firstError(): TargetError | undefined;
}

export function guardTarget(target: Target): GuardedTarget {
  let requests = 0;
  let fatal: TargetError | undefined;
  let first: TargetError | undefined;
  const controller = new AbortController();
  const guarded: Target = {
    kind: target.kind,
    baseUrl: target.baseUrl,
    vars: target.vars,
    async send(request) {
      requests += 1;
      try {
        return await target.send(request);
      } catch (error) {
        if (error instanceof TargetError) first ??= error;
        if (error instanceof TargetError && FATAL_CODES.has(error.code) && fatal === undefined) {
          fatal = error;
          controller.abort(error);
        }
        throw error;
      }
    },
    close: () => target.close(),
  };
  return { target: guarded, signal: controller.signal, requests: () => requests, fatal: () => fatal, firstError: () => first };
}
