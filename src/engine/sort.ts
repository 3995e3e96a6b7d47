/**
 * The `sort` query parameter (docs/api-notes.md, "Filter and sort grammar"): `attr` ascending, `-attr`
 * descending. The store makes every order total by a tie-break on id (store/sim-record.ts recordOrder), so
 * paging by sort and filter (commerce-api.md §4.3) neither skips nor repeats records.
 */
import { apiError, ok, refuse, type Decision } from './api-errors.js';

export type Direction = 'asc' | 'desc';
export interface SortSpec {
  readonly field: string;
  readonly direction: Direction;
}

export function parseSort(text: string, allowed: readonly string[]): Decision<SortSpec> {
  // Trimmed, so that `sort=+id` (a raw `+` decoded to a space) reads as ascending id.
  const trimmed = text.trim();
  const direction: Direction = trimmed.startsWith('-') ? 'desc' : 'asc';
  const field = direction === 'desc' ? trimmed.slice(1) : trimmed;
  if (field === '') return refuse(apiError('bad-request', 'Sort attribute must not be empty'));
  if (!allowed.includes(field)) return refuse(apiError('bad-request', `Unsupported sort attribute: ${field}`));
  return ok({ field, direction });
}
