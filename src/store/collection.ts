/**
 * One collection of records with ordered indexes, built lazily per (attribute, direction) and kept up
 * to date on writes, so `sort=id&filter=gt(id,x)` is a binary search: O(log n + limit).
 *
 * A collection may lie over a shared, never-written `base` (the seeded records every project of a seed
 * starts from): then it stores only its own inserts, changed copies and the ids of base records it
 * deleted or replaced (copy-on-write), and reads merge the two layers in order.
 */
import type { FilterSpec } from '../engine/filter.js';
import { lookupCost, sortCost, testCost, visitCost } from '../engine/read-cost.js';
import type { Direction, SortSpec } from '../engine/sort.js';
import { compareIds, copyRecord, recordOrder, type SimRecord, type Ties } from './sim-record.js';
import { drain, RECORDS_PER_STEP, sortSteps, type Steps } from './steps.js';
import { compileFilter, inInterval, rangeKey, type CompiledFilter, type Interval, type Lookup, type RangeField } from './record-filter.js';
import { recordWeight, type RecordTally } from './record-budget.js';
import { IdMap, IdSet } from './id-map.js';
import { LongestText } from './longest-text.js';
import { ChunkedArray } from './chunked-array.js';
import { cut, descendingOf, descendingSteps, intervalTest, partitionPoint, sortById, type RecordIndex, type Run } from './ordered-runs.js';
import { budgetWalk, mergeSteps, planSteps, type LookupRun, type Plan, type Walk, type Walkable, type WalkedLayers } from './page-walks.js';

export { fieldText, keyOf, recordOrder, type SimRecord, type Ties } from './sim-record.js';
export type { PageQuery, PageRead, PageResult } from './page-query.js';
import type { PageQuery, PageRead, PageResult } from './page-query.js';

/** A read answered at once. */
const now = (result: PageResult): PageRead => ({ kind: 'now', result });

export class Collection {
  private readonly byId = new IdMap<SimRecord>();
  private readonly indexes = new Map<string, RecordIndex>();
  /** Base ids deleted here or replaced by a copy in `byId`. */
  private readonly hidden = new IdSet();
  /**
   * The same base records, as objects: a walk over the base asks of every record whether it is hidden,
   * and a record's identity is at hand where its id would be one more read from memory.
   */
  private readonly hiddenRecords = new Set<SimRecord>();
  /** Positions of the hidden base records in each base index, cached until `hidden` changes. */
  private hiddenAt = new Map<string, Float64Array>();
  /** The longest value of each field asked about so far, by this layer's records (longest-text.ts). */
  private readonly longestText = new LongestText(() => this.records());
  /** What the walks of a read (page-walks.ts) need of this collection. */
  private readonly layers: WalkedLayers;
  /**
   * The records as the last bulk load gave them, while they are exactly this layer's (no record added or
   * dropped since): indexes are sorted from this order, not the shards' (id-map.ts), so records loaded in the
   * order of a field (a snapshot's by id, a seed's by created_at) sort in one pass per merge level.
   */
  private loaded: readonly SimRecord[] | undefined;

  /**
   * `base`: shared records this collection starts from and never writes (its ties are this one's).
   * `tally`: where what this collection holds beyond its base is counted (a project's, for the record budget).
   */
  constructor(
    readonly filterSpec: FilterSpec,
    private readonly base?: Collection,
    private readonly ties: Ties = base?.ties ?? 'asc',
    private readonly tally?: RecordTally,
  ) {
    this.layers = { overBase: base !== undefined, hidden: this.hiddenRecords, get: (id) => this.get(id) };
  }

  get size(): number {
    return (this.base === undefined ? 0 : this.base.size - this.hidden.size) + this.byId.size;
  }

  get(id: string): SimRecord | undefined {
    const own = this.byId.get(id);
    if (own !== undefined || this.base === undefined || this.hidden.has(id)) return own;
    return this.base.get(id);
  }

  /**
   * Every record, in no promised order. Each layer's in the order it was loaded while that holds: a pass over
   * a million records (ground truth's) reads them where they lie in memory, about three times faster than in
   * the order of the id map's shards, which scatters them (200,000 accounts, alternating runs: 56-64 ms a pass, against 147-160).
   */
  *values(): IterableIterator<SimRecord> {
    if (this.base !== undefined) for (const r of this.base.values()) if (!this.hidden.has(r.id)) yield r;
    yield* this.records();
  }

  /** This layer's records: in the order they were loaded while that holds, else as the map keeps them. */
  private records(): Iterable<SimRecord> {
    return this.loaded ?? this.byId.values();
  }

  /** This collection's own records (inserted or changed here), by id. */
  ownRecords(): readonly SimRecord[] {
    return this.ownIndex('id', 'asc').toArray();
  }

  /** Base ids deleted here (not replaced by a changed copy), in id order. */
  deletedBaseIds(): readonly string[] {
    return [...this.hidden.values()].filter((id) => !this.byId.has(id)).sort();
  }

  /** Bulk load for seeding and restores: indexes are dropped and rebuilt on demand. */
  load(records: readonly SimRecord[]): void {
    drain(this.loadSteps(records));
  }

  /** The same load as steps (a reseed of a million records runs it in slices). */
  *loadSteps(records: readonly SimRecord[]): Steps<void> {
    for (let i = 0; i < records.length; i++) {
      const r = records[i] as SimRecord;
      // Seeding a shared base counts nothing: no closure per record for the million it may load.
      if (this.tally === undefined) this.put(r);
      else this.counted(r.id, () => this.put(r));
      if ((i & (RECORDS_PER_STEP - 1)) === RECORDS_PER_STEP - 1) yield;
    }
    this.indexes.clear();
    // The layer holds exactly these records when it holds as many (it held none, and no id came twice).
    this.loaded = this.byId.size === records.length ? records : undefined;
  }

  /**
   * The ascending and descending index of each field built now, as steps, instead of on the first read
   * that needs it (a second at a million records for an ascending one, a pass for a descending one).
   */
  *warmSteps(fields: readonly string[]): Steps<void> {
    for (const field of fields) {
      const key = `${field}:asc`;
      if (this.indexes.has(key)) continue;
      // Gathered as steps too: a million records spread into an array at once held the loop tens of ms.
      let all: readonly SimRecord[] | ChunkedArray<SimRecord> | undefined = this.loaded;
      if (all === undefined) {
        const gathered = new ChunkedArray<SimRecord>();
        for (const r of this.byId.values()) {
          gathered.push(r);
          if ((gathered.length & (RECORDS_PER_STEP - 1)) === 0) yield;
        }
        all = gathered;
      }
      const index = field === 'id' ? yield* sortSteps(all, compareIds) : yield* sortSteps(all, recordOrder(field, 'asc', this.ties));
      this.indexes.set(key, index);
    }
    // Then each descending one, derived in one pass: a first `sort=-name` would otherwise pay that pass.
    for (const field of fields) {
      const key = `${field}:desc`;
      const ascending = this.indexes.get(`${field}:asc`);
      if (this.indexes.has(key) || ascending === undefined) continue;
      this.indexes.set(key, yield* descendingSteps(ascending, field));
    }
    // And the longest value of each filterable field, which the work budget weighs a filter by (read-cost.ts).
    yield* this.longestText.measureSteps(Object.keys(this.filterSpec));
  }

  insert(record: SimRecord): void {
    this.counted(record.id, () => this.place(record));
  }

  private place(record: SimRecord): void {
    this.put(record);
    for (const [key, index] of this.indexes) index.insertAt(this.position(key, index, record), record);
  }

  /** Forget a base record without storing anything (restoring a delete). */
  hide(id: string): void {
    if (this.base?.get(id) !== undefined && !this.hidden.has(id)) this.counted(id, () => this.hideBase(id));
  }

  /** Whether a change to this record would make a private copy of a shared one (it costs a record). */
  shares(id: string): boolean {
    return this.base !== undefined && !this.byId.has(id) && !this.hidden.has(id) && this.base.get(id) !== undefined;
  }

  remove(id: string): SimRecord | undefined {
    return this.counted(id, () => this.drop(id));
  }

  private drop(id: string): SimRecord | undefined {
    const own = this.byId.get(id);
    if (own !== undefined) {
      this.byId.delete(id);
      this.loaded = undefined;
      for (const [key, index] of this.indexes) this.detach(key, index, own);
      return own;
    }
    const shared = this.base !== undefined && !this.hidden.has(id) ? this.base.get(id) : undefined;
    if (shared !== undefined) this.hideBase(id);
    return shared;
  }

  /**
   * Apply a change to a record, keeping every index ordered. A base record is never changed: the change
   * lands on a private copy, which is returned (and is what the caller should answer with).
   */
  update(record: SimRecord, change: (r: SimRecord) => void): SimRecord {
    return this.counted(record.id, () => this.change(record, change));
  }

  private change(record: SimRecord, change: (r: SimRecord) => void): SimRecord {
    if (this.byId.get(record.id) !== record) {
      const copy = copyRecord(record);
      change(copy);
      this.place(copy);
      return copy;
    }
    for (const [key, index] of this.indexes) this.detach(key, index, record);
    change(record);
    this.longestText.note(record);
    // Assign rather than delete: deleting would turn every record into a slow dictionary object.
    record.itemText = undefined;
    record.itemBytes = undefined;
    for (const [key, index] of this.indexes) index.insertAt(this.position(key, index, record), record);
    return record;
  }

  /** Every record ordered by (field, direction), ties by id. Over a base this merges the layers: O(n). */
  index(field: string, direction: Direction): readonly SimRecord[] {
    if (this.base === undefined) return this.ownIndex(field, direction).toArray();
    if (this.byId.size === 0 && this.hidden.size === 0) return this.base.ownIndex(field, direction).toArray();
    const all = this.page({ clauses: [], sort: { field, direction }, offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return all.records;
  }

  page(query: PageQuery): PageResult {
    const read = this.read(query);
    return read.kind === 'now' ? read.result : drain(read.steps);
  }

  /**
   * The page `query` asks for: answered now when its plan costs at most `sliceAbove` units (or is index
   * arithmetic, or refused), else as steps that give exactly what `page` gives.
   */
  read(query: PageQuery, sliceAbove = Infinity): PageRead {
    // A collection that changed nothing of its base reads the base as it is (the common case: readers).
    if (this.base !== undefined && this.byId.size === 0 && this.hidden.size === 0) return this.base.read(query, sliceAbove);
    const filter = compileFilter(query.clauses, this.filterSpec);
    if (filter.empty) return now({ total: 0, records: [], cost: 0 });
    const { field, direction } = query.sort;
    const order = recordOrder(field, direction, this.ties);
    const own = this.run(this, filter, field, direction);
    const base = this.base === undefined ? undefined : this.run(this.base, filter, field, direction);
    let sortOnly = filter.residual === undefined && query.visible === undefined;
    for (const f of filter.intervals.keys()) if (f !== field) sortOnly = false;
    if (sortOnly) return now(this.pageByArithmetic(own, base, order, query));

    const walkable = this.walkable(filter, query);
    if (walkable !== undefined && (walkable.total <= query.offset || query.limit <= 0)) return now({ total: walkable.total, records: [], cost: 0 });
    const plan = this.plan(filter, query, own, base, walkable);
    const { cost } = plan;
    const inIntervals = intervalTest(filter);
    const { residual } = filter;
    const { visible } = query;
    const check = (r: SimRecord) => inIntervals(r) && (residual === undefined || residual(r)) && (visible === undefined || visible(r));
    const walk: Walk = { layers: this.layers, own, base, order, check, query };
    if (query.maxScan !== undefined && cost > query.maxScan) {
      // Its worst case is over the budget, but a walk usually meets its page early: it may walk the
      // budget's worth of records, and the read is refused only if the page is not full by then.
      if (walkable === undefined) return now({ total: 0, records: [], cost, refused: { cost } });
      const budget = Math.floor(query.maxScan / walkable.visit);
      const walked = budgetWalk(walk, walkable, budget, cost);
      return query.maxScan > sliceAbove ? { kind: 'steps', cost: query.maxScan, steps: walked } : now(drain(walked));
    }
    const steps = planSteps(walk, plan, walkable);
    return cost > sliceAbove ? { kind: 'steps', cost, steps } : now(drain(steps));
  }

  /** Whether the read is one interval off the sort field and nothing else, and if so its total (index arithmetic). */
  private walkable(filter: CompiledFilter, query: PageQuery): Walkable | undefined {
    const { field, direction } = query.sort;
    const others = [...filter.intervals.keys()].filter((f) => f !== field);
    if (filter.residual !== undefined || query.visible !== undefined || others.length !== 1 || filter.intervals.has(field as RangeField)) return undefined;
    const other = others[0] as RangeField;
    return { total: this.countIn(other, filter.intervals.get(other) as Interval), visit: visitCost(field, direction, false, this.base !== undefined) };
  }

  /**
   * The cheapest way to answer a read that index arithmetic alone does not, with its estimated cost: the
   * records each way would examine are counted from the indexes (binary searches), before any is read.
   */
  private plan(filter: CompiledFilter, query: PageQuery, own: Run, base: Run | undefined, walkable: Walkable | undefined): Plan {
    const { field: sortField, direction } = query.sort;
    const length = (run: Run | undefined) => (run === undefined ? 0 : run.hi - run.lo);
    const runSize = length(own) + length(base);
    // Each layer's records are tested by the longest values of that layer: a project's long writes make
    // its own records dear to search, not the seed's.
    const visible = query.visible !== undefined;
    const ownTests = testCost(filter.tested, (f) => this.longestText.of(f), visible);
    const baseTests = this.base === undefined ? ownTests : testCost(filter.tested, (f) => (this.base as Collection).longestText.of(f), visible);
    const sortVisit = visitCost(sortField, direction, true, base !== undefined);
    const plans: Plan[] = [];
    if (walkable === undefined) plans.push({ kind: 'scan', cost: length(own) * (sortVisit + ownTests) + length(base) * (sortVisit + baseTests) });
    else {
      // Every record outside the interval may come before the page's: the worst such a walk can meet.
      const walked = Math.min(runSize, runSize - walkable.total + query.offset + query.limit);
      plans.push({ kind: 'first-matches', cost: walked * walkable.visit });
    }
    const driver = this.driverRun(filter, sortField);
    if (driver !== undefined) {
      // Over a base, the driver's candidates are the base's in its interval and every own record of the sort field's run.
      const ownToo = this.base === undefined ? 0 : length(own);
      const found = walkable?.total ?? length(driver.run) + ownToo;
      const cost = length(driver.run) * (visitCost(driver.field, 'asc', true) + baseTests) + ownToo * (sortVisit + ownTests) + sortCost(sortField, found);
      plans.push({ kind: 'driver', cost, run: driver.run });
    }
    for (const lookup of filter.lookups) {
      const runs = this.lookupRuns(lookup);
      const layers = this.base === undefined ? 1 : 2;
      let found = lookup.keys.length;
      // An id may name a record of either layer.
      let reach = found * Math.max(ownTests, baseTests);
      if (lookup.field !== 'id') {
        found = runs.reduce((n, r) => n + length(r.run), 0);
        reach = runs.reduce((n, r) => n + length(r.run) * (visitCost(lookup.field, 'asc', true) + (r.fromBase ? baseTests : ownTests)), 0);
      }
      plans.push({ kind: 'lookup', cost: lookupCost(lookup.field, lookup.keys.length, layers, this.size) + reach + sortCost(sortField, found), lookup, runs });
    }
    return plans.reduce((best, p) => (p.cost < best.cost ? p : best));
  }

  /** The run of the interval (off the sort field) holding the fewest records, in the index a driver reads. */
  private driverRun(filter: CompiledFilter, sortField: string): { readonly field: RangeField; readonly run: Run } | undefined {
    const source = this.base ?? this;
    let best: { field: RangeField; run: Run } | undefined;
    for (const [field, iv] of filter.intervals) {
      if (field === sortField) continue;
      const run = cut(source.ownIndex(field, 'asc'), field, 'asc', iv);
      if (best === undefined || run.hi - run.lo < best.run.hi - best.run.lo) best = { field, run };
    }
    return best;
  }

  /** For a timestamp lookup, each key's run in each layer's index (binary searches); ids need none. */
  private lookupRuns(lookup: Lookup): LookupRun[] {
    if (lookup.field === 'id') return [];
    const runs: LookupRun[] = [];
    for (const key of lookup.keys) {
      const point: Interval = { lo: key, loIncl: true, hi: key, hiIncl: true };
      runs.push({ run: cut(this.ownIndex(lookup.field, 'asc'), lookup.field, 'asc', point), fromBase: false });
      if (this.base !== undefined) runs.push({ run: cut(this.base.ownIndex(lookup.field, 'asc'), lookup.field, 'asc', point), fromBase: true });
    }
    return runs;
  }

  /** Records whose `field` lies in the interval: binary searches, less the hidden base records in it. */
  private countIn(field: RangeField, iv: Interval): number {
    const mine = cut(this.ownIndex(field, 'asc'), field, 'asc', iv);
    let n = mine.hi - mine.lo;
    if (this.base !== undefined) {
      const theirs = cut(this.base.ownIndex(field, 'asc'), field, 'asc', iv);
      n += theirs.hi - theirs.lo;
      for (const id of this.hidden.values()) {
        const r = this.base.get(id);
        if (r !== undefined && inInterval(rangeKey(r, field), iv)) n--;
      }
    }
    return n;
  }

  /** Only intervals on the sort field: counts by index arithmetic, the first record by binary search. */
  private pageByArithmetic(own: Run, base: Run | undefined, order: (a: SimRecord, b: SimRecord) => number, query: PageQuery): PageResult {
    if (base === undefined) {
      const start = own.lo + query.offset;
      return { total: own.hi - own.lo, records: start < own.hi ? own.ordered.slice(start, Math.min(own.hi, start + query.limit)) : [], cost: 0 };
    }
    const hiddenAt = this.hiddenPositions(base.ordered, order, query.sort);
    const hiddenBefore = (b: number) => partitionPoint(hiddenAt, (p) => p < b);
    const hiddenIn = hiddenBefore(base.hi) - hiddenBefore(base.lo);
    const total = base.hi - base.lo - hiddenIn + (own.hi - own.lo);
    if (query.offset >= total || query.limit <= 0) return { total, records: [], cost: 0 };
    // How many merged records come before base position b: a non-decreasing function of b.
    const ownBefore = (b: number) => (b >= base.hi ? own.hi : partitionPoint(own.ordered, (r) => order(r, base.ordered.at(b)) < 0, own.lo, own.hi));
    const before = (b: number) => b - base.lo - (hiddenBefore(b) - hiddenBefore(base.lo)) + (ownBefore(b) - own.lo);
    let lo = base.lo;
    let hi = base.hi;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (before(mid) <= query.offset) lo = mid;
      else hi = mid - 1;
    }
    const skipped = before(lo);
    const [b0, o0, skip] = skipped <= query.offset ? [lo, ownBefore(lo), query.offset - skipped] : [base.lo, own.lo, query.offset];
    const records: SimRecord[] = [];
    let toSkip = skip;
    drain(
      mergeSteps(this.layers, { ...own, lo: o0 }, { ...base, lo: b0 }, order, (r) => {
        if (toSkip > 0) {
          toSkip--;
          return true;
        }
        records.push(r);
        return records.length < query.limit;
      }),
    );
    return { total, records, cost: 0 };
  }

  /** The run of `source`'s index on the sort field that the sort field's interval allows. */
  private run(source: Collection, filter: CompiledFilter, field: string, direction: Direction): Run {
    const ordered = source.ownIndex(field, direction);
    const iv = filter.intervals.get(field as RangeField);
    return iv === undefined ? { ordered, lo: 0, hi: ordered.length } : cut(ordered, field as RangeField, direction, iv);
  }

  /** Sorted positions of hidden base records in the base's index for this sort. */
  private hiddenPositions(ordered: RecordIndex, order: (a: SimRecord, b: SimRecord) => number, sort: SortSpec): Float64Array {
    const key = `${sort.field}:${sort.direction}`;
    let at = this.hiddenAt.get(key);
    if (at === undefined) {
      at = new Float64Array(this.hidden.size);
      let i = 0;
      for (const id of this.hidden.values()) {
        const r = this.base?.get(id);
        if (r !== undefined) at[i++] = partitionPoint(ordered, (x) => order(x, r) < 0);
      }
      at = at.subarray(0, i).sort();
      this.hiddenAt.set(key, at);
    }
    return at;
  }

  /**
   * Run one write to the record `id` and count what it changed of this collection's holding: an own
   * record its weight, a deleted base record one (a changed copy stands in for the base id it hides).
   */
  private counted<T>(id: string, write: () => T): T {
    if (this.tally === undefined) return write();
    const before = this.holding(id);
    const result = write();
    const delta = this.holding(id) - before;
    if (delta !== 0) this.tally.add(delta);
    return result;
  }

  private holding(id: string): number {
    const own = this.byId.get(id);
    return own !== undefined ? recordWeight(own) : this.hidden.has(id) ? 1 : 0;
  }

  private hideBase(id: string): void {
    this.hidden.add(id);
    const record = this.base?.get(id);
    if (record !== undefined) this.hiddenRecords.add(record);
    this.hiddenAt = new Map();
  }

  private put(record: SimRecord): void {
    if (this.base !== undefined && !this.hidden.has(record.id) && this.base.get(record.id) !== undefined) this.hideBase(record.id);
    if (this.loaded !== undefined && this.byId.get(record.id) !== record) this.loaded = undefined;
    this.byId.set(record.id, record);
    this.longestText.note(record);
  }

  /** This collection's own records ordered by (field, direction), ties by id; a base's are all of it. */
  private ownIndex(field: string, direction: Direction): RecordIndex {
    const key = `${field}:${direction}`;
    let index = this.indexes.get(key);
    if (index === undefined) {
      const ascending = direction === 'desc' ? this.indexes.get(`${field}:asc`) : undefined;
      if (ascending !== undefined) index = descendingOf(ascending, field);
      else {
        const records = [...this.records()];
        const sorted = field === 'id' ? sortById(records) : records.sort(recordOrder(field, direction, this.ties));
        if (field === 'id' && direction === 'desc') sorted.reverse();
        index = ChunkedArray.of(sorted);
      }
      this.indexes.set(key, index);
    }
    return index;
  }

  private position(indexKey: string, index: RecordIndex, record: SimRecord): number {
    const [field = 'id', direction = 'asc'] = indexKey.split(':');
    const order = recordOrder(field, direction === 'desc' ? 'desc' : 'asc', this.ties);
    return partitionPoint(index, (r) => order(r, record) < 0);
  }

  private detach(indexKey: string, index: RecordIndex, record: SimRecord): void {
    const at = this.position(indexKey, index, record);
    if (at < index.length && index.at(at) === record) index.removeAt(at);
    else {
      const found = index.indexOf(record); // the key changed outside update(): fall back to a scan
      if (found >= 0) index.removeAt(found);
    }
  }
}
