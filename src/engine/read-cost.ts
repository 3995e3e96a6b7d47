/**
 * What a list read costs, estimated before it runs, so that a read past the budget (`serve --max-scan`)
 * is refused instead of holding the server. Pure: the store counts the records a read would examine (by
 * index arithmetic) and this module weighs them.
 *
 * The unit is one record examined with one simple test (a scan step and an `eq`, about 80 ns on the
 * 2-core machine of docs/performance.md), so `--max-scan 100000` (the default) is about 8 ms of work. Each weight
 * below was measured there, rounded up, and written in nanoseconds so that it can be checked again.
 */
import { patternParts, type FilterClause } from './filter.js';

const UNIT_NS = 80;
const units = (ns: number): number => ns / UNIT_NS;

/** A record of a run visited and handed to its tests: the merge step, the interval tests, the loop over the clauses. */
const SCAN_LOOP_NS = 35;
/** A record visited by a walk that tests one interval only and stops once it has the page. */
const WALK_LOOP_NS = 20;
/**
 * What reaching a record costs beyond that, by the index order a read walks. Records lie in memory in
 * the order they were created (seeded in one pass, written one by one), so a walk in created_at order
 * reads memory in sequence, one in updated_at order (a little after creation, so out of step) partly,
 * and one in id or name order (unrelated to creation) misses the cache on almost every record.
 */
const REACH_NS: Readonly<Record<string, number>> = { 'created_at:asc': 0, 'created_at:desc': 25, 'updated_at:asc': 130, 'updated_at:desc': 130 };
const REACH_SCATTERED_NS = 1000;
/** A walk over a project's own records and the shared seed beneath them: a comparison and a hidden-record test per step. */
const MERGE_NS = 50;
/** The consistency window's test, which hashes the id when the window is staggered. */
const VISIBILITY_NS = 90;
/** One id of `in(id,…)` looked up: hashing text the map has never seen, a miss in a large map, reaching the record. */
const LOOKUP_ID_NS = 700;
/** One probe of a binary search in an ordered index. */
const PROBE_NS = 25;
/** One comparison of a sort, by the field sorted on (timestamps are numbers; other text compares slower). */
const COMPARE_NS: Readonly<Record<string, number>> = { created_at: 50, updated_at: 50, id: 90 };
const COMPARE_TEXT_NS = 180;
/** A pattern search reads this much of a value within its base cost; longer values pay per character. */
const FREE_CHARS = 32;
/** Per character past FREE_CHARS: V8's substring search on repetitive text (`aaaa…` searched for `aab`). */
const SEARCH_CHAR_NS = 5;
/** Per further part of a `like` pattern: one more `indexOf`. */
const PART_NS = 12;

/** How long the longest value of a field may be: what a pattern search over it can cost. */
export type Longest = (field: string) => number;

/** Units one record costs under one clause, its value at most `longest` characters. */
export function clauseCost(clause: FilterClause, longest: number): number {
  const search = (parts: number) => 45 + PART_NS * Math.max(0, parts - 1) + SEARCH_CHAR_NS * Math.max(0, longest - FREE_CHARS);
  // eq, gt, ge, lt, le: one comparison, which reads up to the common prefix.
  const compare = 30 + longest / 8;
  switch (clause.op) {
    case 'is_null':
      return units(5);
    case 'in':
      // A hash lookup: a stored value's hash is computed once and kept with it.
      return units(25);
    case 'like':
    case 'ilike': {
      const { middles } = patternParts(clause.values[0] ?? '');
      // A part found moves past at least one character: a value of n characters takes at most n + 1 searches.
      const ns = middles === undefined || middles.length === 0 ? compare : search(Math.min(middles.length, longest + 1));
      // ilike lowers each value first: a copy of it.
      return units(clause.op === 'ilike' ? ns + 30 + longest / 4 : ns);
    }
    case 'contains':
      return units(search(1));
    default:
      return units(compare);
  }
}

/**
 * Units of reaching one record in the order of `field`'s index and, when `tested`, handing it to its
 * tests; `merged` when the walk merges a project's own records with the seed's.
 */
export function visitCost(field: string, direction: 'asc' | 'desc', tested: boolean, merged = false): number {
  return units((tested ? SCAN_LOOP_NS : WALK_LOOP_NS) + (REACH_NS[`${field}:${direction}`] ?? REACH_SCATTERED_NS) + (merged ? MERGE_NS : 0));
}

/** Units of the tests of one record: every clause tested on it, and the consistency window. */
export function testCost(tested: readonly FilterClause[], longest: Longest, visibility: boolean): number {
  let total = visibility ? units(VISIBILITY_NS) : 0;
  // Only what reads the value's text asks how long it may be (the first ask of a field measures it).
  for (const clause of tested) total += clauseCost(clause, clause.op === 'in' || clause.op === 'is_null' ? 0 : longest(clause.field));
  return total;
}

/** Units of sorting `k` records by `field`: about k·log2(k) comparisons. */
export function sortCost(field: string, k: number): number {
  return k <= 1 ? 0 : units(k * Math.log2(k) * (COMPARE_NS[field] ?? COMPARE_TEXT_NS));
}

/** Units of looking up `keys` values of an `in` clause: ids in a map, timestamps by binary search in `layers` indexes of `size` records. */
export function lookupCost(field: string, keys: number, layers: number, size: number): number {
  return field === 'id' ? keys * units(LOOKUP_ID_NS) : keys * layers * 2 * Math.log2(size + 2) * units(PROBE_NS);
}

/** The least cap on a read's work, however small the collection (about 8 ms). */
const MIN_SCAN_CAP = 100_000;
/** The longest value a cap allows patterns to search through: four times the 64 characters of a long name. */
const CAP_VALUE_CHARS = 256;
/** The clauses of the costliest filter a client ordinarily sends: four patterns of four parts each. */
const CAP_PATTERNS = 4;
const CAP_PATTERN = `*${'a*'.repeat(4)}`;

/**
 * The default cap on one list read's work over a collection of `records`: a full scan of it in the
 * costliest order (scattered in memory, over two layers, under a consistency window) with four `ilike`
 * patterns of four parts on values of 256 characters. Any read a client makes over the data held costs
 * less; past it the filter itself is the cost (hundreds of clauses, patterns of hundreds of parts on
 * long values), and the read is refused before it starts.
 */
export function scanCap(records: number): number {
  const pattern = clauseCost({ field: 'name', op: 'ilike', values: [CAP_PATTERN] }, CAP_VALUE_CHARS);
  const perRecord = visitCost('name', 'asc', true, true) + units(VISIBILITY_NS) + CAP_PATTERNS * pattern;
  return Math.max(MIN_SCAN_CAP, Math.ceil(records * perRecord));
}
