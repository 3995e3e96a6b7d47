/**
 * A filter compiled once per read: the range clauses on id, created_at and updated_at become one
 * interval per field (ten clauses on one field are one interval), answered from the ordered indexes;
 * the rest becomes one predicate. Timestamps compare as numbers, never as text parsed per record.
 */
import { compileClause, parseInstant, type FilterClause, type FilterSpec } from '../engine/filter.js';
import type { SimRecord } from './sim-record.js';

export type RangeField = 'id' | 'created_at' | 'updated_at';
export type Key = string | number;

const RANGE_OPS = new Set(['gt', 'ge', 'lt', 'le', 'eq']);

const isRangeField = (field: string): field is RangeField => field === 'id' || field === 'created_at' || field === 'updated_at';

/** Values of one field between two optional bounds. */
export interface Interval {
  readonly lo: Key | undefined;
  readonly loIncl: boolean;
  readonly hi: Key | undefined;
  readonly hiIncl: boolean;
}

export interface CompiledFilter {
  /** Intervals by range field; a record matches when it lies in each. */
  readonly intervals: ReadonlyMap<RangeField, Interval>;
  /** The clauses no interval holds (patterns, `in`, other attributes); undefined when none. */
  readonly residual: ((record: SimRecord) => boolean) | undefined;
  /** The clauses `residual` tests on each record it is given: what a record costs (engine/read-cost.ts). */
  readonly tested: readonly FilterClause[];
  /** `in` clauses on a range field, as the distinct keys they accept: each can be answered by lookups. */
  readonly lookups: readonly Lookup[];
  /** Some interval is empty: nothing matches, nothing needs reading. */
  readonly empty: boolean;
}

/** The records of one `in` clause on a range field: those whose key is one of `keys` (distinct). */
export interface Lookup {
  readonly field: RangeField;
  readonly keys: readonly Key[];
}

export function rangeKey(record: SimRecord, field: RangeField): Key {
  return field === 'id' ? record.id : field === 'created_at' ? record.createdMs : record.updatedMs;
}

export const compareKeys = (a: Key, b: Key): number => (a < b ? -1 : a > b ? 1 : 0);

/** Tighter of two lower (or upper) bounds: the further one, exclusive on a tie. Built field by field: no spread on this path. */
function tighten(iv: Interval, op: string, v: Key): Interval {
  const raiseLo = (at: Key, incl: boolean, base: Interval): Interval => {
    if (base.lo !== undefined) {
      const c = compareKeys(at, base.lo);
      if (!(c > 0 || (c === 0 && !incl))) return base;
    }
    return { lo: at, loIncl: incl, hi: base.hi, hiIncl: base.hiIncl };
  };
  const lowerHi = (at: Key, incl: boolean, base: Interval): Interval => {
    if (base.hi !== undefined) {
      const c = compareKeys(at, base.hi);
      if (!(c < 0 || (c === 0 && !incl))) return base;
    }
    return { lo: base.lo, loIncl: base.loIncl, hi: at, hiIncl: incl };
  };
  switch (op) {
    case 'gt':
      return raiseLo(v, false, iv);
    case 'ge':
      return raiseLo(v, true, iv);
    case 'lt':
      return lowerHi(v, false, iv);
    case 'le':
      return lowerHi(v, true, iv);
    default: // eq
      return lowerHi(v, true, raiseLo(v, true, iv));
  }
}

export function inInterval(key: Key, iv: Interval): boolean {
  if (iv.lo !== undefined) {
    const c = compareKeys(key, iv.lo);
    if (c < 0 || (c === 0 && !iv.loIncl)) return false;
  }
  if (iv.hi !== undefined) {
    const c = compareKeys(key, iv.hi);
    if (c > 0 || (c === 0 && !iv.hiIncl)) return false;
  }
  return true;
}

function isEmpty(iv: Interval): boolean {
  if (iv.lo === undefined || iv.hi === undefined) return false;
  const c = compareKeys(iv.lo, iv.hi);
  return c > 0 || (c === 0 && !(iv.loIncl && iv.hiIncl));
}

const attrText = (r: SimRecord, field: string): string | null | undefined => (field === 'id' ? r.id : r.attrs[field]);

const OPEN: Interval = { lo: undefined, loIncl: true, hi: undefined, hiIncl: true };
const NO_FILTER: CompiledFilter = { intervals: new Map(), residual: undefined, tested: [], lookups: [], empty: false };

/**
 * The keys an `in` clause on a range field accepts. Ids by text; timestamps by instant, as the engine
 * compares them (a stored instant never equals text that is not one, so such values match nothing).
 */
function lookupOf(clause: FilterClause & { field: RangeField }): Lookup {
  const keys = new Set<Key>();
  for (const v of clause.values) {
    const key = clause.field === 'id' ? v : parseInstant(v);
    if (key !== undefined) keys.add(key);
  }
  return { field: clause.field, keys: [...keys] };
}

/** Clauses are already parsed: timestamp values are canonical ISO text (engine/filter.ts normaliseValue). */
export function compileFilter(clauses: readonly FilterClause[], spec: FilterSpec): CompiledFilter {
  if (clauses.length === 0) return NO_FILTER;
  const intervals = new Map<RangeField, Interval>();
  const rest: FilterClause[] = [];
  const lookups: Lookup[] = [];
  for (const clause of clauses) {
    const raw = clause.values[0];
    if (isRangeField(clause.field) && clause.op === 'in') {
      lookups.push(lookupOf(clause as FilterClause & { field: RangeField }));
      continue;
    }
    if (!isRangeField(clause.field) || !RANGE_OPS.has(clause.op) || raw === undefined) {
      rest.push(clause);
      continue;
    }
    const v: Key = clause.field === 'id' ? raw : Date.parse(raw);
    if (typeof v === 'number' && Number.isNaN(v)) {
      rest.push(clause);
      continue;
    }
    intervals.set(clause.field, tighten(intervals.get(clause.field) ?? OPEN, clause.op, v));
  }
  let empty = false;
  for (const iv of intervals.values()) if (isEmpty(iv)) empty = true;
  // What is left never names a timestamp instant (those are all intervals), so text compares are exact.
  // Each clause prepared once (patterns split, values parsed), then tested per record.
  const tests: ((r: SimRecord) => boolean)[] = rest.map((c) => {
    const test = compileClause(c, spec);
    return (r: SimRecord) => test(attrText(r, c.field));
  });
  for (const { field, keys } of lookups) {
    const accepted = new Set(keys);
    tests.push((r) => accepted.has(rangeKey(r, field)));
  }
  const residual = tests.length === 0 ? undefined : (r: SimRecord) => tests.every((t) => t(r));
  const tested = [...rest, ...clauses.filter((c) => c.op === 'in' && isRangeField(c.field))];
  return { intervals, residual, tested, lookups, empty };
}
