/** The simulator's plain request and response values: the HTTP adapter and the in-process target translate to these. */
export interface SimRequest {
  readonly method: string;
  /** Path plus raw query, e.g. `/v2/accounts?page[limit]=3`. */
  readonly url: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface SimResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Bodies above this size answer 413 (checked by the HTTP adapter while reading, and again here). */
export const MAX_BODY_BYTES = 1024 * 1024;
