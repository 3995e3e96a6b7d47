/**
 * The `sort` query parameter (docs/api-notes.md, "Filter and sort grammar"): `attr` ascending, `-attr`
 * descending. Every order is made total by an ascending id tie-break, so paging by sort and filter
 * (commerce-api.md §4.3) neither skips nor repeats records.
 */
import { apiError, ok, refuse, type Decision } from './api-errors.js';
import { compareValues, type FieldGetter, type FieldKind } from './filter.js';

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

/** null/undefined before any value; otherwise compareValues of the kind. */
function compareNullable(kind: FieldKind, a: string | null | undefined, b: string | null | undefined): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? -1 : 1;
  return compareValues(kind, a, b);
}

export function compareBy<R>(sort: SortSpec, kind: FieldKind, get: FieldGetter<R>): (a: R, b: R) => number {
  return (a, b) => {
    const va = get(a, sort.field);
    const vb = get(b, sort.field);
    // Swap the operands rather than negate, so that a tie is 0 and never -0.
    const primary = sort.direction === 'desc' ? compareNullable(kind, vb, va) : compareNullable(kind, va, vb);
    if (primary !== 0) return primary;
    return compareNullable('string', get(a, 'id'), get(b, 'id'));
  };
}
