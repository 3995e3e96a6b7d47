/**
 * Guards for parsed JSON (request bodies, snapshots, dataset files, list answers): `unknown` is narrowed
 * here, never cast. One home for them, below every layer that reads JSON (engine, store, sim, client).
 */

/** An object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Names that would reach an object's prototype if used as keys: never a key, never an id. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A non-negative whole number. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
