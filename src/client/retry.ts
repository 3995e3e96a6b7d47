/**
 * The reference client's requests: a bounded budget, retries on 429 and 5xx (and on a target that
 * could not be reached or timed out) honouring Retry-After, else exponential backoff with seeded
 * jitter. Sleep and the clock are injected, so tests never wait and replay exactly.
 */
import { CodedKitError, type KitErrorOptions } from '../kit-errors.js';
import { backoffMs, realSleep, retryAfterMs, seededRandom, type Sleep } from '../adapters/http-pacing.js';
import { TargetError, type Target, type TargetResponse } from '../port.js';

export type { Sleep };

export type ClientErrorCode =
  /** The request budget ran out before the traversal ended; resume from the last position. */
  | 'CLIENT_BUDGET_EXHAUSTED'
  /** 429/5xx (or no answer) after every retry. */
  | 'CLIENT_RETRIES_EXHAUSTED'
  /** The target asked to wait longer than `maxRetryAfterMs`. */
  | 'CLIENT_RETRY_AFTER_TOO_LONG'
  /** An answer that is not retried: 4xx other than 429. */
  | 'CLIENT_HTTP_STATUS'
  /** A 200 whose body is not a list (`{"data": [...]}` of records with a string id and the attribute). */
  | 'CLIENT_BAD_RESPONSE'
  /** The target answered the same page again: it ignores the filter (large-data.keyset.*). */
  | 'CLIENT_NO_PROGRESS';

export interface ClientErrorOptions extends KitErrorOptions {
  /** The HTTP status of the last answer, when there was one. */
  readonly status?: number;
}

export class ClientError extends CodedKitError<ClientErrorCode> {
  override readonly name = 'ClientError';
  /** The HTTP status of the last answer, when there was one. */
  readonly status: number | undefined;
  constructor(code: ClientErrorCode, message: string, options?: ClientErrorOptions) {
    super(code, message, options);
    this.status = options?.status;
  }
}

export interface RetryOptions {
  /** Retries of one request after a 429, a 5xx or no answer (default 5). */
  readonly retries?: number;
  /** First backoff step when there is no Retry-After (default 250 ms), doubled per attempt. */
  readonly baseDelayMs?: number;
  /** Longest backoff without Retry-After (default 30 s). */
  readonly maxDelayMs?: number;
  /** A Retry-After longer than this fails with CLIENT_RETRY_AFTER_TOO_LONG instead of waiting (default 120 s). */
  readonly maxRetryAfterMs?: number;
  /** Requests in all, retries included (default 100,000). */
  readonly budget?: number;
  /** Seeds the backoff jitter (default 0). */
  readonly seed?: number;
  readonly sleep?: Sleep;
  /** The clock an HTTP-date Retry-After is read against (default Date.now). */
  readonly now?: () => number;
}

export const DEFAULT_RETRIES = 5;
export const DEFAULT_CLIENT_BUDGET = 100_000;

export interface RequestStats {
  /** Requests sent, retries included. */
  requests: number;
  retries: number;
  /** 429 answers met. */
  throttled: number;
  /** Time asked of `sleep`, in ms. */
  waitedMs: number;
}

export interface Requester {
  /** GET a path (with query); the answer is a non-retryable one, or an error with a code. */
  get(url: string): Promise<TargetResponse>;
  readonly stats: Readonly<RequestStats>;
}

const RETRYABLE_TARGET_ERRORS: ReadonlySet<string> = new Set(['TARGET_UNREACHABLE', 'TARGET_TIMEOUT']);

export function createRequester(target: Target, options: RetryOptions = {}): Requester {
  const retries = options.retries ?? DEFAULT_RETRIES;
  const budget = options.budget ?? DEFAULT_CLIENT_BUDGET;
  const base = options.baseDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const maxRetryAfter = options.maxRetryAfterMs ?? 120_000;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const random = seededRandom(options.seed ?? 0);
  const stats: RequestStats = { requests: 0, retries: 0, throttled: 0, waitedMs: 0 };

  const wait = async (ms: number) => {
    stats.retries += 1;
    stats.waitedMs += ms;
    await sleep(ms);
  };

  const get = async (url: string): Promise<TargetResponse> => {
    for (let attempt = 0; ; attempt += 1) {
      if (stats.requests >= budget) {
        throw new ClientError('CLIENT_BUDGET_EXHAUSTED', `request budget of ${budget} exhausted at GET ${url}`);
      }
      stats.requests += 1;
      let response: TargetResponse;
      try {
        response = await target.send({ method: 'GET', url });
      } catch (error) {
        if (!(error instanceof TargetError) || !RETRYABLE_TARGET_ERRORS.has(error.code)) throw error;
        // The transport's code stays on `cause`: the line a user reads carries one code, this one.
        const why = error.code === 'TARGET_TIMEOUT' ? 'timed out' : 'did not answer';
        if (attempt >= retries) throw new ClientError('CLIENT_RETRIES_EXHAUSTED', `GET ${url}: no answer after ${retries} retries (the target ${why})`, { cause: error });
        await wait(Math.min(maxDelay, backoffMs(attempt, base, random)));
        continue;
      }
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable) return response;
      if (response.status === 429) stats.throttled += 1;
      if (attempt >= retries) {
        throw new ClientError('CLIENT_RETRIES_EXHAUSTED', `GET ${url} answered ${response.status} after ${retries} retries`, { status: response.status });
      }
      const asked = retryAfterMs(response.headers['retry-after'], now());
      if (asked !== undefined && asked > maxRetryAfter) {
        throw new ClientError('CLIENT_RETRY_AFTER_TOO_LONG', `GET ${url} answered ${response.status} with Retry-After of ${Math.ceil(asked / 1000)} s (more than ${maxRetryAfter / 1000} s)`, {
          status: response.status,
        });
      }
      // Honour Retry-After exactly when given (never sooner); otherwise back off with jitter.
      await wait(asked ?? Math.min(maxDelay, backoffMs(attempt, base, random)));
    }
  };

  return { get, stats };
}
