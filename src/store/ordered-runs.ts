/**
 * Ordered indexes and runs of them: binary searches, the interval test of a read, the descending index
 * from the ascending one, and the id sort of a million records. Pure.
 */
import type { Direction } from '../engine/sort.js';
import { compareKeys, inInterval, rangeKey, type CompiledFilter, type Interval, type Key, type RangeField } from './record-filter.js';
import { ChunkedArray } from './chunked-array.js';
import { compareIds, keyOf, type SimRecord } from './sim-record.js';
import { drain, RECORDS_PER_STEP, type Steps } from './steps.js';

/** An ordered index of records: chunked, so that a million-record one is never made in one step. */
export type RecordIndex = ChunkedArray<SimRecord>;

/** First index in [lo, hi) where `before(items.at(i))` is false; `before` must be true-then-false. */
export function partitionPoint<T>(items: { readonly length: number; at(i: number): T | undefined }, before: (item: T) => boolean, lo = 0, hi = items.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(items.at(mid) as T)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A run [lo, hi) of an ordered index. */
export interface Run {
  readonly ordered: RecordIndex;
  readonly lo: number;
  readonly hi: number;
}

/** The intervals as one test, built per read: no Map iteration per record (a scan makes a million calls). */
export function intervalTest(filter: CompiledFilter): (r: SimRecord) => boolean {
  const tests = [...filter.intervals].map(
    ([field, iv]) =>
      (r: SimRecord) =>
        inInterval(rangeKey(r, field), iv),
  );
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0] as (r: SimRecord) => boolean;
  return (r) => {
    for (let i = 0; i < tests.length; i++) if (!(tests[i] as (r: SimRecord) => boolean)(r)) return false;
    return true;
  };
}

/** The run of an index ordered by `field` that lies in the interval: two binary searches. */
export function cut(ordered: RecordIndex, field: RangeField, direction: Direction, iv: Interval): Run {
  const k = (r: SimRecord, v: Key) => compareKeys(rangeKey(r, field), v);
  const below = (r: SimRecord) => iv.lo !== undefined && (iv.loIncl ? k(r, iv.lo) < 0 : k(r, iv.lo) <= 0);
  const above = (r: SimRecord) => iv.hi !== undefined && (iv.hiIncl ? k(r, iv.hi) > 0 : k(r, iv.hi) >= 0);
  // A missing bound is the index's end: no search for it.
  const first = direction === 'asc' ? iv.lo : iv.hi;
  const last = direction === 'asc' ? iv.hi : iv.lo;
  const lo = first === undefined ? 0 : partitionPoint(ordered, direction === 'asc' ? below : above);
  const hi = last === undefined ? ordered.length : partitionPoint(ordered, (r) => !(direction === 'asc' ? above(r) : below(r)), lo);
  return { ordered, lo, hi };
}

/**
 * The descending index from the ascending one in one pass: runs of equal values in reverse order, each
 * run kept in its own order, since ties are ordered by id the same way in both directions.
 */
export function descendingOf(ascending: RecordIndex, field: string): RecordIndex {
  return drain(descendingSteps(ascending, field));
}

/** The same as steps (a reseed builds it in slices). */
export function* descendingSteps(ascending: RecordIndex, field: string): Steps<RecordIndex> {
  const n = ascending.length;
  const out = new ChunkedArray<SimRecord>();
  let next = RECORDS_PER_STEP;
  for (let end = n; end > 0;) {
    let start = end - 1;
    const key = keyOf(ascending.at(start), field);
    while (start > 0 && keyOf(ascending.at(start - 1), field) === key) start--;
    for (let k = start; k < end; k++) out.push(ascending.at(k));
    end = start;
    if (out.length >= next) {
      next += RECORDS_PER_STEP;
      yield;
    }
  }
  return out;
}

const HEX8 = /^[0-9a-f]{8}/;
const POSITION_BITS = 2 ** 21;

/**
 * Records in ascending id order. UUID-shaped ids sort natively: the first 32 bits of each id and its
 * position are packed into one double, a comparator-free Float64Array sort orders them, and the rare
 * runs that share those 32 bits are finished by string comparison. A million ids take a tenth of what
 * a comparator sort takes; other ids (or too many records) fall back to that sort.
 */
export function sortById(records: SimRecord[]): SimRecord[] {
  const n = records.length;
  if (n >= POSITION_BITS || !records.every((r) => HEX8.test(r.id))) return records.sort(compareIds);
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = parseInt((records[i] as SimRecord).id.slice(0, 8), 16) * POSITION_BITS + i;
  packed.sort();
  const out = new Array<SimRecord>(n);
  for (let i = 0; i < n; i++) out[i] = records[(packed[i] as number) % POSITION_BITS] as SimRecord;
  for (let i = 0; i < n;) {
    let j = i + 1;
    const prefix = (out[i] as SimRecord).id.slice(0, 8);
    while (j < n && (out[j] as SimRecord).id.startsWith(prefix)) j++;
    if (j - i > 1) {
      const run = out.slice(i, j).sort(compareIds);
      for (let k = 0; k < run.length; k++) out[i + k] = run[k] as SimRecord;
    }
    i = j;
  }
  return out;
}
