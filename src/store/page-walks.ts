/**
 * The walks a list read makes over a collection's ordered runs, as steps (steps.ts): merged in order
 * over a base, to the first matches, led by another field's index, or looked up key by key; each yields
 * every VISITS_PER_STEP records, so a long read runs in slices. Pure over the runs and layers given.
 */
import type { PageQuery, PageResult } from './page-query.js';
import type { Lookup } from './record-filter.js';
import type { SimRecord } from './sim-record.js';
import { sortSteps, type Steps } from './steps.js';
import type { Run } from './ordered-runs.js';

/** Records a read's loops visit between two yields: well under a millisecond of work. */
const VISITS_PER_STEP = 2048;

/**
 * How a read that index arithmetic alone does not answer finds its records, and what that is estimated
 * to cost before it starts (engine/read-cost.ts). The cheapest is taken; past the budget, none is.
 *
 * - `scan`: every record of the sort field's run, tested one by one.
 * - `first-matches`: one interval off the sort field and nothing else, so the total is counted from that
 *   field's index; the run is walked in sort order until the page is full. At worst it meets every
 *   record of the run outside the interval before the page's.
 * - `driver`: the records in another range field's interval, read from its index, tested and sorted.
 * - `lookup`: the records an `in` clause on a range field names, looked up one by one, tested and sorted.
 */
export type Plan =
  | { readonly kind: 'scan'; readonly cost: number }
  | { readonly kind: 'first-matches'; readonly cost: number }
  | { readonly kind: 'driver'; readonly cost: number; readonly run: Run }
  | { readonly kind: 'lookup'; readonly cost: number; readonly lookup: Lookup; readonly runs: readonly LookupRun[] };

/**
 * A read with one interval off the sort field and nothing else: its total is index arithmetic, and its
 * page the first matching records in sort order. `visit`: what each record its walk meets costs.
 */
export interface Walkable {
  readonly total: number;
  readonly visit: number;
}

/** Records of one lookup key in one layer's index; those of the base may be hidden by this layer. */
export interface LookupRun {
  readonly run: Run;
  readonly fromBase: boolean;
}

/** What the walks need of the collection they read: whether it lies over a base, the base records it hides, its records by id. */
export interface WalkedLayers {
  readonly overBase: boolean;
  readonly hidden: ReadonlySet<SimRecord>;
  get(id: string): SimRecord | undefined;
}

/** One read's walk: the layers read, the sort field's run in each, their order, a record's test and the page asked. */
export interface Walk {
  readonly layers: WalkedLayers;
  readonly own: Run;
  readonly base: Run | undefined;
  readonly order: (a: SimRecord, b: SimRecord) => number;
  readonly check: (r: SimRecord) => boolean;
  readonly query: PageQuery;
}

/** A walk whose worst case is over the cap: it may meet `budget` records, and is refused if its page is not full by then. */
export function* budgetWalk(walk: Walk, walkable: Walkable, budget: number, cost: number): Steps<PageResult> {
  const records = yield* firstMatches(walk, budget);
  return records === undefined ? { total: 0, records: [], cost, refused: { cost } } : { total: walkable.total, records, cost };
}

/** The work of a plan, as steps: yields between slices of records, returns the page. */
export function* planSteps(walk: Walk, plan: Plan, walkable: Walkable | undefined): Steps<PageResult> {
  const { layers, own, base, order, check, query } = walk;
  const { cost } = plan;
  switch (plan.kind) {
    case 'driver': {
      const found = yield* collectDriven(layers, plan.run, own, check);
      const sorted = yield* sortSteps(found, order);
      return { total: walkable?.total ?? sorted.length, records: sorted.slice(query.offset, query.offset + query.limit), cost };
    }
    case 'lookup': {
      const found = yield* collectLookedUp(layers, plan.lookup, plan.runs, check);
      const sorted = yield* sortSteps(found, order);
      return { total: sorted.length, records: sorted.slice(query.offset, query.offset + query.limit), cost };
    }
    case 'first-matches':
      return { total: (walkable as Walkable).total, records: (yield* firstMatches(walk, Infinity)) as SimRecord[], cost };
    case 'scan': {
      const records: SimRecord[] = [];
      let total = 0;
      yield* mergeSteps(layers, own, base, order, (r) => {
        if (!check(r)) return true;
        if (total >= query.offset && records.length < query.limit) records.push(r);
        total++;
        return true;
      });
      return { total, records, cost };
    }
  }
}

/** The page's records, the first matching ones in sort order; undefined when `cap` records were met first. */
function* firstMatches(walk: Walk, cap: number): Steps<SimRecord[] | undefined> {
  const { layers, own, base, order, check, query } = walk;
  const want = query.offset + query.limit;
  const records: SimRecord[] = [];
  let seen = 0;
  let met = 0;
  yield* mergeSteps(layers, own, base, order, (r) => {
    if (met++ >= cap) return false;
    if (!check(r)) return true;
    if (seen++ >= query.offset) records.push(r);
    return seen < want;
  });
  return seen >= want || met <= cap ? records : undefined;
}

/** A driver's matches, unsorted: its run's records (less hidden base ones) and, over a base, the own run's. */
function* collectDriven(layers: WalkedLayers, run: Run, own: Run, check: (r: SimRecord) => boolean): Steps<SimRecord[]> {
  const fromBase = layers.overBase;
  const found: SimRecord[] = [];
  for (let i = run.lo; i < run.hi; i++) {
    const r = run.ordered.at(i);
    if ((!fromBase || !layers.hidden.has(r)) && check(r)) found.push(r);
    if ((i - run.lo) % VISITS_PER_STEP === VISITS_PER_STEP - 1) yield;
  }
  if (fromBase)
    for (let i = own.lo; i < own.hi; i++) {
      if (check(own.ordered.at(i))) found.push(own.ordered.at(i));
      if ((i - own.lo) % VISITS_PER_STEP === VISITS_PER_STEP - 1) yield;
    }
  return found;
}

/** A lookup's matches, unsorted: the keys are distinct, so no record comes twice. */
function* collectLookedUp(layers: WalkedLayers, lookup: Lookup, runs: readonly LookupRun[], check: (r: SimRecord) => boolean): Steps<SimRecord[]> {
  const found: SimRecord[] = [];
  let visited = 0;
  if (lookup.field === 'id') {
    for (const id of lookup.keys) {
      const r = layers.get(id as string);
      if (r !== undefined && check(r)) found.push(r);
      if (++visited % VISITS_PER_STEP === 0) yield;
    }
    return found;
  }
  for (const { run, fromBase } of runs) {
    for (let i = run.lo; i < run.hi; i++) {
      const r = run.ordered.at(i);
      if ((!fromBase || !layers.hidden.has(r)) && check(r)) found.push(r);
      if (++visited % VISITS_PER_STEP === 0) yield;
    }
  }
  return found;
}

/**
 * Walk the own run and the base run in order (skipping hidden base records), calling `visit` until it
 * answers false; a step every VISITS_PER_STEP records met.
 */
export function* mergeSteps(layers: WalkedLayers, own: Run, base: Run | undefined, order: (a: SimRecord, b: SimRecord) => number, visit: (r: SimRecord) => boolean): Steps<void> {
  let o = own.lo;
  let b = base?.lo ?? 0;
  const bhi = base?.hi ?? 0;
  let met = 0;
  for (;;) {
    if (++met % VISITS_PER_STEP === 0) yield;
    while (base !== undefined && b < bhi && layers.hidden.has(base.ordered.at(b))) b++;
    const fromOwn = o < own.hi ? own.ordered.at(o) : undefined;
    const fromBase = base !== undefined && b < bhi ? base.ordered.at(b) : undefined;
    let next: SimRecord;
    if (fromOwn === undefined && fromBase === undefined) return;
    if (fromBase === undefined || (fromOwn !== undefined && order(fromOwn, fromBase) < 0)) {
      next = fromOwn as SimRecord;
      o++;
    } else {
      next = fromBase;
      b++;
    }
    if (!visit(next)) return;
  }
}
