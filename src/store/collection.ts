/**
 * One collection of records with ordered indexes, built lazily per (attribute, direction) and kept
 * up to date on writes, so `sort=id&filter=gt(id,x)` is a binary search: O(log n + limit).
 */
import type { FilterClause, FilterSpec } from '../engine/filter.js';
import { matchesAll } from '../engine/filter.js';
import type { Direction, SortSpec } from '../engine/sort.js';
import { iso } from './clock.js';

export interface SimRecord {
  readonly id: string;
  createdMs: number;
  updatedMs: number;
  readonly attrs: Record<string, string | null>;
  /** Salted password hash of profile-info records; never serialised, never snapshotted in clear. */
  credential?: string;
  /** Cached JSON of the whole list item, and the self-link prefix it was built with. */
  item?: string | undefined;
  itemPrefix?: string | undefined;
}

type Key = string | number | null;

export function keyOf(record: SimRecord, field: string): Key {
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

function compareKeys(a: Key, b: Key): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

const compareIds = (a: SimRecord, b: SimRecord): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Total order: by the field in the given direction, ties always by ascending id (API-NOTES.md, Accounts). */
export function recordOrder(field: string, direction: Direction): (a: SimRecord, b: SimRecord) => number {
  // Specialised comparators for the hot indexes: sorting a million records is start-up time.
  if (field === 'id') return direction === 'asc' ? compareIds : (a, b) => compareIds(b, a);
  if (field === 'created_at') return direction === 'asc' ? (a, b) => a.createdMs - b.createdMs || compareIds(a, b) : (a, b) => b.createdMs - a.createdMs || compareIds(a, b);
  if (field === 'updated_at') return direction === 'asc' ? (a, b) => a.updatedMs - b.updatedMs || compareIds(a, b) : (a, b) => b.updatedMs - a.updatedMs || compareIds(a, b);
  const sign = direction === 'asc' ? 1 : -1;
  return (a, b) => sign * compareKeys(keyOf(a, field), keyOf(b, field)) || compareIds(a, b);
}

/** First index in [0, n) where `before(items[i])` is false; `before` must be true-then-false. */
function partitionPoint<T>(items: readonly T[], before: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(items[mid] as T)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const RANGE_FIELDS = new Set(['id', 'created_at', 'updated_at']);

export interface PageQuery {
  readonly clauses: readonly FilterClause[];
  readonly sort: SortSpec;
  readonly offset: number;
  readonly limit: number;
  /** Records hidden from reads (eventual consistency); undefined when all are visible. */
  readonly visible?: (record: SimRecord) => boolean;
}

export interface PageResult {
  readonly total: number;
  readonly records: readonly SimRecord[];
}

export class Collection {
  private readonly byId = new Map<string, SimRecord>();
  private readonly indexes = new Map<string, SimRecord[]>();

  constructor(readonly filterSpec: FilterSpec) {}

  get size(): number {
    return this.byId.size;
  }

  get(id: string): SimRecord | undefined {
    return this.byId.get(id);
  }

  values(): IterableIterator<SimRecord> {
    return this.byId.values();
  }

  /** Bulk load for seeding: indexes are dropped and rebuilt on demand. */
  load(records: readonly SimRecord[]): void {
    for (const r of records) this.byId.set(r.id, r);
    this.indexes.clear();
  }

  insert(record: SimRecord): void {
    this.byId.set(record.id, record);
    for (const [key, index] of this.indexes) index.splice(this.position(key, index, record), 0, record);
  }

  remove(id: string): SimRecord | undefined {
    const record = this.byId.get(id);
    if (record === undefined) return undefined;
    this.byId.delete(id);
    for (const [key, index] of this.indexes) this.detach(key, index, record);
    return record;
  }

  /** Apply a change to a record, keeping every index ordered. */
  update(record: SimRecord, change: (r: SimRecord) => void): void {
    for (const [key, index] of this.indexes) this.detach(key, index, record);
    change(record);
    // Assign rather than delete: deleting would turn every record into a slow dictionary object.
    record.item = undefined;
    for (const [key, index] of this.indexes) index.splice(this.position(key, index, record), 0, record);
  }

  /** The records ordered by (field, direction), ties by id. */
  index(field: string, direction: Direction): readonly SimRecord[] {
    const key = `${field}:${direction}`;
    let index = this.indexes.get(key);
    if (index === undefined) {
      const records = [...this.byId.values()];
      index = field === 'id' ? sortById(records) : records.sort(recordOrder(field, direction));
      if (field === 'id' && direction === 'desc') index.reverse();
      this.indexes.set(key, index);
    }
    return index;
  }

  page(query: PageQuery): PageResult {
    const { sort } = query;
    const ordered = this.index(sort.field, sort.direction);
    const [lo, hi, rest] = this.narrow(ordered, query);
    const end = (n: number) => Math.min(hi, n);
    if (rest.length === 0 && query.visible === undefined) {
      const start = lo + query.offset;
      return { total: hi - lo, records: start < hi ? ordered.slice(start, end(start + query.limit)) : [] };
    }
    const get = (r: SimRecord, field: string) => fieldText(r, field);
    const records: SimRecord[] = [];
    let total = 0;
    for (let i = lo; i < hi; i++) {
      const r = ordered[i] as SimRecord;
      if (query.visible !== undefined && !query.visible(r)) continue;
      if (rest.length > 0 && !matchesAll(r, rest, this.filterSpec, get)) continue;
      if (total >= query.offset && records.length < query.limit) records.push(r);
      total++;
    }
    return { total, records };
  }

  /** Use the range clauses on the sort field to cut the index by binary search; return what is left to test. */
  private narrow(ordered: readonly SimRecord[], query: PageQuery): [number, number, FilterClause[]] {
    const { field, direction } = query.sort;
    let lo = 0;
    let hi = ordered.length;
    const rest: FilterClause[] = [];
    for (const clause of query.clauses) {
      const raw = clause.values[0];
      if (clause.field !== field || !RANGE_FIELDS.has(field) || raw === undefined || !['gt', 'ge', 'lt', 'le', 'eq'].includes(clause.op)) {
        rest.push(clause);
        continue;
      }
      const v: Key = field === 'id' ? raw : Date.parse(raw);
      if (typeof v === 'number' && Number.isNaN(v)) {
        rest.push(clause);
        continue;
      }
      const k = (r: SimRecord) => compareKeys(keyOf(r, field), v);
      const asc = direction === 'asc';
      const bound = (pred: (r: SimRecord) => boolean) => partitionPoint(ordered, pred);
      const lower = (op: string): number => {
        if (op === 'gt') return asc ? bound((r) => k(r) <= 0) : 0;
        if (op === 'ge' || op === 'eq') return asc ? bound((r) => k(r) < 0) : 0;
        if (op === 'lt') return asc ? 0 : bound((r) => k(r) >= 0);
        return asc ? 0 : bound((r) => k(r) > 0); // le
      };
      const upper = (op: string): number => {
        if (op === 'lt') return asc ? bound((r) => k(r) < 0) : ordered.length;
        if (op === 'le' || op === 'eq') return asc ? bound((r) => k(r) <= 0) : ordered.length;
        if (op === 'gt') return asc ? ordered.length : bound((r) => k(r) > 0);
        return asc ? ordered.length : bound((r) => k(r) >= 0); // ge
      };
      if (clause.op === 'eq') {
        lo = Math.max(lo, asc ? lower('eq') : bound((r) => k(r) > 0));
        hi = Math.min(hi, asc ? upper('eq') : bound((r) => k(r) >= 0));
      } else {
        lo = Math.max(lo, lower(clause.op));
        hi = Math.min(hi, upper(clause.op));
      }
    }
    return [lo, Math.max(lo, hi), rest];
  }

  private position(indexKey: string, index: readonly SimRecord[], record: SimRecord): number {
    const [field = 'id', direction = 'asc'] = indexKey.split(':');
    const order = recordOrder(field, direction === 'desc' ? 'desc' : 'asc');
    return partitionPoint(index, (r) => order(r, record) < 0);
  }

  private detach(indexKey: string, index: SimRecord[], record: SimRecord): void {
    const at = this.position(indexKey, index, record);
    if (index[at] === record) index.splice(at, 1);
    else {
      const found = index.indexOf(record); // the key changed outside update(): fall back to a scan
      if (found >= 0) index.splice(found, 1);
    }
  }
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
  for (let i = 0; i < n; ) {
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
