/**
 * A filter compiled once per read: the range clauses on id, created_at and updated_at become one
 * interval per field (ten clauses on one field are one interval), answered from the ordered indexes;
 * the rest becomes one predicate. Timestamps compare as numbers, never as text parsed per record.
 */
import { matchesAll, type FilterClause, type FilterSpec } from '../engine/filter.js';
import type { SimRecord } from './record.js';

export type RangeField = 'id' | 'created_at' | 'updated_at';
export type Key = string | number;

const RANGE_OPS = new Set(['gt', 'ge', 'lt', 'le', 'eq']);

export const isRangeField = (field: string): field is RangeField => field === 'id' || field === 'created_at' || field === 'updated_at';

/** Values of one field between two optional bounds. */
export interface Interval {
  readonly lo?: Key;
  readonly loIncl: boolean;
  readonly hi?: Key;
  readonly hiIncl: boolean;
}

export interface CompiledFilter {
  /** Intervals by range field; a record matches when it lies in each. */
  readonly intervals: ReadonlyMap<RangeField, Interval>;
  /** The clauses no interval holds (patterns, `in`, other attributes); undefined when none. */
  readonly residual: ((record: SimRecord) => boolean) | undefined;
  /** Some interval is empty: nothing matches, nothing needs reading. */
  readonly empty: boolean;
}

export function rangeKey(record: SimRecord, field: RangeField): Key {
  return field === 'id' ? record.id : field === 'created_at' ? record.createdMs : record.updatedMs;
}

const cmp = (a: Key, b: Key): number => (a < b ? -1 : a > b ? 1 : 0);

/** Tighter of two lower (or upper) bounds: the further one, exclusive on a tie. */
function tighten(iv: Interval, op: string, v: Key): Interval {
  const lower = (at: Key, incl: boolean): Interval => {
    if (iv.lo === undefined) return { ...iv, lo: at, loIncl: incl };
    const c = cmp(at, iv.lo);
    return c > 0 || (c === 0 && !incl) ? { ...iv, lo: at, loIncl: incl } : iv;
  };
  const upper = (at: Key, incl: boolean, base: Interval): Interval => {
    if (base.hi === undefined) return { ...base, hi: at, hiIncl: incl };
    const c = cmp(at, base.hi);
    return c < 0 || (c === 0 && !incl) ? { ...base, hi: at, hiIncl: incl } : base;
  };
  switch (op) {
    case 'gt':
      return lower(v, false);
    case 'ge':
      return lower(v, true);
    case 'lt':
      return upper(v, false, iv);
    case 'le':
      return upper(v, true, iv);
    default: // eq
      return upper(v, true, lower(v, true));
  }
}

export function inInterval(key: Key, iv: Interval): boolean {
  if (iv.lo !== undefined) {
    const c = cmp(key, iv.lo);
    if (c < 0 || (c === 0 && !iv.loIncl)) return false;
  }
  if (iv.hi !== undefined) {
    const c = cmp(key, iv.hi);
    if (c > 0 || (c === 0 && !iv.hiIncl)) return false;
  }
  return true;
}

function isEmpty(iv: Interval): boolean {
  if (iv.lo === undefined || iv.hi === undefined) return false;
  const c = cmp(iv.lo, iv.hi);
  return c > 0 || (c === 0 && !(iv.loIncl && iv.hiIncl));
}

const attrText = (r: SimRecord, field: string): string | null | undefined => (field === 'id' ? r.id : r.attrs[field]);

/** Clauses are already parsed: timestamp values are canonical ISO text (engine/filter.ts normaliseValue). */
export function compileFilter(clauses: readonly FilterClause[], spec: FilterSpec): CompiledFilter {
  const intervals = new Map<RangeField, Interval>();
  const rest: FilterClause[] = [];
  for (const clause of clauses) {
    const raw = clause.values[0];
    if (!isRangeField(clause.field) || !RANGE_OPS.has(clause.op) || raw === undefined) {
      rest.push(clause);
      continue;
    }
    const v: Key = clause.field === 'id' ? raw : Date.parse(raw);
    if (typeof v === 'number' && Number.isNaN(v)) {
      rest.push(clause);
      continue;
    }
    intervals.set(clause.field, tighten(intervals.get(clause.field) ?? { loIncl: true, hiIncl: true }, clause.op, v));
  }
  const empty = [...intervals.values()].some(isEmpty);
  // What is left never names a timestamp instant (those are all intervals), so text compares are exact.
  const residual = rest.length === 0 ? undefined : (r: SimRecord) => matchesAll(r, rest, spec, attrText);
  return { intervals, residual, empty };
}
