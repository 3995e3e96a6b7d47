/**
 * A Target whose every exchange is also handed to an observer (a traffic judge): for in-process
 * targets (the simulator without a port) where no proxy can stand in between. What the target answers
 * is passed on unchanged.
 */
import { toExchange, type Target } from '../port.js';
import type { TrafficEntry } from './entry.js';
import { CREDENTIAL_PLACEHOLDER } from '../redacted.js';

export interface ObservedTargetOptions {
  /** The clock of `startedAt` (default the wall clock): a test with a virtual sleep passes its own. */
  readonly now?: () => number;
  /** Read before each request is sent; its value goes on the entry as `simClock` (pass ground truth's `clock` in front of the simulator). */
  readonly stamp?: () => number;
}

export function observedTarget(target: Target, observe: (entry: TrafficEntry) => void, options: ObservedTargetOptions = {}): Target {
  const now = options.now ?? Date.now;
  let n = 0;
  return {
    kind: target.kind,
    baseUrl: target.baseUrl,
    vars: target.vars,
    close: () => target.close(),
    async send(request) {
      const startedAt = new Date(now()).toISOString();
      const simClock = options.stamp?.();
      const response = await target.send(request);
      n += 1;
      // The target adds its own credentials: recorded as sent with them, as a proxy would see them, never as their text.
      const headers = { ...(request.headers ?? {}) };
      const hasAuth = Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');
      if (request.auth !== 'none' && !hasAuth) headers['authorization'] = TARGET_CREDENTIALS;
      const exchange = toExchange({ ...request, headers, auth: request.auth ?? 'default' }, response);
      observe({ exchange, origin: target.baseUrl, startedAt, source: `request #${n}`, ...(simClock === undefined ? {} : { simClock }) });
      return response;
    },
  };
}

/** What an observed request carries where the target added its own token. */
const TARGET_CREDENTIALS = `Bearer ${CREDENTIAL_PLACEHOLDER}`;
