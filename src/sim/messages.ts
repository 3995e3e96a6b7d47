/** The simulator's plain request and response values: the HTTP adapter and the in-process target translate to these. */
import type { BodyParts } from './body-parts.js';
export interface SimRequest {
  readonly method: string;
  /** Path plus raw query, e.g. `/v2/accounts?page[limit]=3`. */
  readonly url: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * The body as UTF-8 bytes, when the HTTP adapter read it so (a restore, up to hundreds of megabytes:
   * decoding it to one string would hold the server for seconds); `body` is then empty.
   */
  readonly raw?: Uint8Array;
}

export interface SimResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The body as parts when it was built so (list pages): the HTTP adapter copies these, not the text. */
  readonly parts?: BodyParts;
  /**
   * What the transport does to this answer when a fault is injected (the adversity's latency, reset and
   * truncate): the HTTP adapter waits, cuts the connection, or sends half the body.
   */
  readonly transport?: { readonly delayMs: number; readonly cut?: 'reset' | 'truncate' };
  /** The HTTP adapter sends the body gzip-coded (the reading `compression`, sim/readings.ts). */
  readonly compress?: true;
  /**
   * The answer proper, once work running in slices between other requests is done (a served simulator's
   * reseed): the HTTP adapter sends that instead. Only ever set when the simulator has a slicer.
   */
  readonly deferred?: Promise<SimResponse>;
}

/** Bodies above this size answer 413 (checked by the HTTP adapter while reading, and again here). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A snapshot restore may carry far more: a snapshot of a million written accounts is about 200 MiB. It
 * stays below what one JavaScript string can hold, and the adapter grants it only to the admin token.
 */
export const RESTORE_MAX_BODY_BYTES = 500 * 1024 * 1024;
const RESTORE_PATH = '/__sim/restore';

/**
 * Bytes of snapshot per record of the record budget: a stored account is about 200 (a record of long
 * fields weighs one per 256 characters, store/record-budget.ts), so a snapshot the budget can hold fits.
 */
const RESTORE_BYTES_PER_RECORD = 512;

/** The restore body limit under a record budget: what it can hold, at most 500 MiB, at least 1 MiB. */
export function restoreBodyLimit(maxRecords: number): number {
  return Math.max(MAX_BODY_BYTES, Math.min(RESTORE_MAX_BODY_BYTES, maxRecords * RESTORE_BYTES_PER_RECORD));
}

/** The body limit of a request: the restore route's own (`restoreLimit`, default 500 MiB), every other route 1 MiB. */
export function bodyLimit(method: string, path: string, restoreLimit = RESTORE_MAX_BODY_BYTES): number {
  return method.toUpperCase() === 'POST' && (path === RESTORE_PATH || path === `${RESTORE_PATH}/`) ? restoreLimit : MAX_BODY_BYTES;
}
