/** One stored record, its sort keys, and the total orders the indexes keep. */
import type { Direction } from '../engine/sort.js';
import { iso } from './clock.js';

export interface SimRecord {
  readonly id: string;
  createdMs: number;
  updatedMs: number;
  readonly attrs: Record<string, string | null>;
  /** Salted password hash of profile-info records; never serialised, never snapshotted in clear. */
  credential?: string;
  /** Cached JSON of the whole list item, as text and as UTF-8 bytes (each made on first use), and the self-link prefix they were built with. */
  itemText?: string | undefined;
  itemBytes?: Buffer | undefined;
  itemPrefix?: string | undefined;
}

type SortKey = string | number | null;

export function keyOf(record: SimRecord, field: string): SortKey {
  switch (field) {
    case 'id':
      return record.id;
    case 'created_at':
      return record.createdMs;
    case 'updated_at':
      return record.updatedMs;
    default:
      return record.attrs[field] ?? null;
  }
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

export const compareIds = (a: SimRecord, b: SimRecord): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** How records that share the sort value are ordered: by ascending id (docs/api-notes.md, Accounts), or descending (the reading `order.ties`). */
export type Ties = 'asc' | 'desc';

const compareIdsDesc = (a: SimRecord, b: SimRecord): number => compareIds(b, a);

/** Total order: by the field in the given direction, ties by id (ascending unless `ties` says otherwise). */
export function recordOrder(field: string, direction: Direction, ties: Ties = 'asc'): (a: SimRecord, b: SimRecord) => number {
  // Specialised comparators for the hot indexes: sorting a million records is start-up time.
  if (field === 'id') return direction === 'asc' ? compareIds : compareIdsDesc;
  const tie = ties === 'asc' ? compareIds : compareIdsDesc;
  if (field === 'created_at') return direction === 'asc' ? (a, b) => a.createdMs - b.createdMs || tie(a, b) : (a, b) => b.createdMs - a.createdMs || tie(a, b);
  if (field === 'updated_at') return direction === 'asc' ? (a, b) => a.updatedMs - b.updatedMs || tie(a, b) : (a, b) => b.updatedMs - a.updatedMs || tie(a, b);
  const sign = direction === 'asc' ? 1 : -1;
  return (a, b) => sign * compareKeys(keyOf(a, field), keyOf(b, field)) || tie(a, b);
}

/** A record's value for filter matching, as text (timestamps in canonical ISO form). */
export function fieldText(record: SimRecord, field: string): string | null | undefined {
  switch (field) {
    case 'id':
      return record.id;
    case 'created_at':
      return iso(record.createdMs);
    case 'updated_at':
      return iso(record.updatedMs);
    default:
      return record.attrs[field];
  }
}

/** A private copy to change: the shared original (and its cached JSON) stays as it was. */
export function copyRecord(r: SimRecord): SimRecord {
  return { id: r.id, createdMs: r.createdMs, updatedMs: r.updatedMs, attrs: { ...r.attrs }, ...(r.credential === undefined ? {} : { credential: r.credential }) };
}
