/**
 * One observed exchange of real traffic, as the traffic judge receives it: from the proxy as it relays,
 * from a HAR file, or from the kit's recordings. The exchange is the one the rules judge everywhere else.
 */
import type { Exchange } from '../port.js';

export interface TrafficEntry {
  /** `request.url` is path plus raw query (the origin is in `origin`); header names lower-cased; bodies decoded text. */
  readonly exchange: Exchange;
  /** Origin the request went to, e.g. `https://api.example.com` (`http://sim` for the embedded simulator). */
  readonly origin: string;
  /** ISO-8601 instant the request started (HAR `startedDateTime`), when known. */
  readonly startedAt?: string;
  /** Milliseconds from the request's start to the end of its answer, when known. */
  readonly durationMs?: number;
  /** Where it was observed, for evidence pointers: `traffic.har entry 12`, `proxy #12`. */
  readonly source: string;
  /**
   * A body (the request's or the answer's) was longer than the observer keeps: the exchange holds only its
   * first bytes, decoded as far as they go. The client still got every byte.
   */
  readonly truncated?: true;
  /**
   * Why a body could not be decoded (a broken gzip or br stream): such an exchange is an infrastructure
   * note of the report, never judged (its answer would read as a server that sent no JSON).
   */
  readonly undecodable?: string;
  /**
   * In front of the simulator: its clock when the request reached it, before the answer (and whatever the
   * simulator changed after it) was made. Ground truth counts a walk's records as of that moment.
   */
  readonly simClock?: number;
  /**
   * The capture may have left credential headers out: a HAR file that has shown no Authorization header on
   * any request up to this one (a browser's sanitized export removes them all). A missing header is then no evidence.
   */
  readonly headersMayBeStripped?: true;
}
