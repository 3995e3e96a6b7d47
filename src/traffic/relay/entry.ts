/**
 * A relayed exchange as the traffic judge receives it, built off the request path (after the answer is
 * finished, or for `annotate` once the upstream's answer is in): bodies decoded from the captured bytes,
 * the answer's JSON parsed when first read. Pure, given what the flight captured.
 */
import { decodeBody, decodeBodyChecked } from '../../adapters/http.js';
import { parseJsonOrUndefined, type Exchange, type TargetRequest, type TargetResponse } from '../../port.js';
import type { TrafficEntry } from '../entry.js';
import { headerRecord } from './headers.js';

/** What a flight kept of one exchange. */
export interface Captured {
  /** 1-based number of the request among those the relay received. */
  readonly n: number;
  readonly method: string;
  /** Path plus raw query as sent upstream (the base URL's path, if any, in front). */
  readonly path: string;
  /** `Date.now()` when the request came. */
  readonly arrivedAt: number;
  /** Flat request header list as sent upstream (no `host`: the upstream's is added). */
  readonly requestHeaders: readonly string[];
  /** The request body's first bytes, or undefined when it announced none. */
  readonly requestChunks: readonly Buffer[] | undefined;
  readonly status: number;
  /** Flat answer header list as sent to the client. */
  readonly responseHeaders: readonly string[];
  /** The answer's bytes as they came (content coding kept); with `annotate` all of them, else the first ones. */
  readonly responseChunks: readonly Buffer[];
  /** The request body went on past the bytes kept. */
  readonly requestTruncated: boolean;
  /** The answer went on past the bytes kept. */
  readonly responseTruncated: boolean;
  readonly simClock?: number | undefined;
}

export interface EntryContext {
  readonly origin: string;
  /** The `host` header the upstream got. */
  readonly host: string;
  readonly maxCaptureBytes: number;
}

/** The first `max` bytes of the chunks as one buffer, and whether there were more. */
export function firstBytes(chunks: readonly Buffer[], max: number): { readonly bytes: Buffer; readonly cut: boolean } {
  let total = 0;
  for (const c of chunks) total += c.length;
  if (total <= max) return { bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total), cut: false };
  return { bytes: Buffer.concat(chunks, total).subarray(0, max), cut: true };
}

/**
 * `json` parsed on first read and kept: by whoever reads it, after the answer is finished (the judge, in
 * `onExchange` or later), never on the request path unless `annotate` reads it. One descriptor shared by
 * every exchange: a getter written in each object literal would cost a closure and an accessor pair per
 * exchange, kept in the old generation with the body they reach (a full GC every few hundred answers).
 */
const LAZY_JSON: PropertyDescriptor & ThisType<{ readonly response: TargetResponse }> = {
  get(): unknown {
    const value = parseJsonOrUndefined(this.response.body);
    Object.defineProperty(this, 'json', { value, enumerable: true, configurable: false, writable: false });
    return value;
  },
  enumerable: true,
  configurable: true,
};

/** The exchange with `json` as an own enumerable property, so spreading, cloning and comparing it see the parsed value. */
function withLazyJson(request: TargetRequest, response: TargetResponse): Exchange {
  // `json` is defined on the line below: the one place the type is asserted.
  return Object.defineProperty({ request, response }, 'json', LAZY_JSON) as Exchange;
}

export function entryOf(c: Captured, context: EntryContext, durationMs: number): TrafficEntry {
  const requestRecord = headerRecord(c.requestHeaders);
  requestRecord['host'] = context.host;
  const responseRecord = headerRecord(c.responseHeaders);
  const answer = firstBytes(c.responseChunks, context.maxCaptureBytes);
  const answerCut = answer.cut || c.responseTruncated;
  const decoded = decodeBodyChecked(answer.bytes, responseRecord['content-encoding'], { partial: answerCut });
  const body = decoded.text;
  let request: TargetRequest = { method: c.method, url: c.path, headers: requestRecord };
  let truncated = answerCut;
  if (c.requestChunks !== undefined) {
    const sent = firstBytes(c.requestChunks, context.maxCaptureBytes);
    const sentCut = sent.cut || c.requestTruncated;
    truncated ||= sentCut;
    request = { ...request, body: decodeBody(sent.bytes, requestRecord['content-encoding'], { partial: sentCut }) };
  }
  return {
    exchange: withLazyJson(request, { status: c.status, headers: responseRecord, body }),
    origin: context.origin,
    startedAt: new Date(c.arrivedAt).toISOString(),
    durationMs: Math.round(durationMs * 1000) / 1000,
    source: `proxy #${c.n}`,
    ...(truncated ? { truncated: true as const } : {}),
    ...(c.simClock === undefined ? {} : { simClock: c.simClock }),
    ...(decoded.failed === undefined ? {} : { undecodable: `the answer's ${decoded.failed} body could not be decoded` }),
  };
}
