/**
 * The one result shape of the house: a value, or a failure carrying what the caller needs to report it
 * (a path and a message, API errors, a ready response). Failure members sit beside `ok` so a caller reads
 * `r.message`, not `r.error.message`.
 */
export type Result<T, E extends object = Problem> = { readonly ok: true; readonly value: T } | ({ readonly ok: false } & E);

/** Where in the input and what is wrong. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}
