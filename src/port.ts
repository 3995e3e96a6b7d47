/**
 * The one seam to the outside: the scenario runner, the property suites and the reference client
 * know only this. Two implementations: the in-process simulator and an HTTP base URL (undici).
 */
import { CodedKitError } from './kit-errors.js';

export interface TargetRequest {
  readonly method: string;
  /** Path plus raw query, relative to the target's origin, e.g. `/v2/accounts?page[limit]=3`. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /**
   * `default`: the target adds its bearer token unless `headers` carries `authorization` already.
   * `none`: send no Authorization header at all (to observe 401s).
   */
  readonly auth?: 'default' | 'none';
}

export interface TargetResponse {
  readonly status: number;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One observed request/response pair, with the body parsed when it is JSON. */
export interface Exchange {
  readonly request: TargetRequest;
  readonly response: TargetResponse;
  /** `JSON.parse(response.body)`, or `undefined` when the body is empty or not JSON. */
  readonly json: unknown;
}

export type TargetKind = 'sim' | 'http';

export interface Target {
  readonly kind: TargetKind;
  /** Origin the target's absolute links are built on, e.g. `http://127.0.0.1:4747`. */
  readonly baseUrl: string;
  /**
   * Variables the target knows by itself (the simulator fills `realm_id`,
   * `user_authentication_info_id`, `password_profile_id`, `admin_token`, ...).
   */
  readonly vars: Readonly<Record<string, string>>;
  send(request: TargetRequest): Promise<TargetResponse>;
  close(): Promise<void>;
}

/** Stable error codes of the tool itself (not of the API it simulates). */
export type TargetErrorCode = 'TARGET_UNREACHABLE' | 'TARGET_TIMEOUT' | 'TARGET_AUTH_FAILED' | 'TARGET_NOT_API' | 'TARGET_BUDGET_EXHAUSTED' | 'TARGET_BAD_URL';

export class TargetError extends CodedKitError<TargetErrorCode> {
  override readonly name = 'TargetError';
}

export function toExchange(request: TargetRequest, response: TargetResponse): Exchange {
  return { request, response, json: parseJsonOrUndefined(response.body) };
}

/** The same exchange with its body parsed on the first read of `json`: for one that may never be read (a HAR writer's redacted copy). */
export function lazyExchange(request: TargetRequest, response: TargetResponse): Exchange {
  let parsed: { readonly json: unknown } | undefined;
  return {
    request,
    response,
    get json() {
      parsed ??= { json: parseJsonOrUndefined(response.body) };
      return parsed.json;
    },
  };
}

export function parseJsonOrUndefined(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
