/**
 * What the relay says itself, never the upstream: the answers it gives when there is no answer to relay
 * (502, 503, 504, in the API's own error shape, from one table) and the infrastructure notes that go with
 * them. Pure: the flight (relay-flight.ts) writes them.
 */
import { errorCode } from '../../adapters/http.js';

/** A relay event that is no answer of the server's: told to `onInfra`, never judged. */
export interface InfraNote {
  readonly kind: 'unreachable' | 'timeout' | 'aborted';
  readonly method: string;
  /** Path plus raw query, as the client sent it. */
  readonly url: string;
  readonly message: string;
  /** ISO-8601 instant it happened. */
  readonly at: string;
}

export type InfraKind = InfraNote['kind'];

const TEMPLATES = {
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
} as const;

export type RelayStatus = keyof typeof TEMPLATES;

export interface RelayAnswer {
  readonly status: RelayStatus;
  /** Flat header list for `writeHead`. */
  readonly headers: string[];
  readonly body: Buffer;
}

/** `{"errors":[{"status":502,"title":"Bad Gateway","detail":"..."}]}` as application/json. */
export function relayAnswer(status: RelayStatus, detail: string): RelayAnswer {
  const body = Buffer.from(JSON.stringify({ errors: [{ status, title: TEMPLATES[status], detail }] }), 'utf8');
  return { status, headers: ['content-type', 'application/json', 'content-length', String(body.length)], body };
}

const TIMEOUTS: ReadonlySet<string> = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export interface UpstreamFailure {
  readonly kind: 'unreachable' | 'timeout';
  readonly status: 502 | 504;
  /** One line for people: what failed and node's or undici's own words and code. */
  readonly detail: string;
}

/** An upstream error before any answer: a timeout (headers, connect) is 504, anything else (refused, DNS, TLS, reset) 502. */
export function upstreamFailure(error: unknown, upstream: string, timeoutMs: number): UpstreamFailure {
  const code = errorCode(error);
  const words = describe(error);
  const said = [words, code !== undefined && !words.includes(code) ? `(${code})` : ''].filter((s) => s !== '').join(' ');
  if (code !== undefined && TIMEOUTS.has(code)) {
    return { kind: 'timeout', status: 504, detail: `The upstream ${upstream} did not answer within ${timeoutMs} ms: ${said}` };
  }
  return { kind: 'unreachable', status: 502, detail: `The upstream ${upstream} could not be reached: ${said || 'unknown network error'}` };
}

/** An upstream error after the answer's headers went to the client: the connection is cut, and this says why. */
export function cutAnswer(error: unknown, upstream: string): { readonly kind: InfraKind; readonly message: string } {
  const code = errorCode(error);
  const kind = code !== undefined && TIMEOUTS.has(code) ? 'timeout' : 'aborted';
  return { kind, message: `The upstream ${upstream} stopped in the middle of its answer: ${describe(error)}; the client's connection was cut` };
}

export const CLIENT_GONE = 'The client closed its connection before its answer was complete';

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return error.errors.map((e) => describe(e)).join('; ');
  if (error instanceof Error) return error.message;
  return String(error);
}
