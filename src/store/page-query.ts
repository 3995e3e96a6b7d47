/** What a list read asks of a collection, and what it gets: a page now, or its work as steps. */
import type { FilterClause } from '../engine/filter.js';
import type { SortSpec } from '../engine/sort.js';
import type { SimRecord } from './sim-record.js';
import type { Steps } from './steps.js';

export interface PageQuery {
  readonly clauses: readonly FilterClause[];
  readonly sort: SortSpec;
  readonly offset: number;
  readonly limit: number;
  /** Records hidden from reads (eventual consistency); undefined when all are visible. */
  readonly visible?: ((record: SimRecord) => boolean) | undefined;
  /** The most a read may cost, in the units of engine/read-cost.ts (`serve --max-scan`); past it the read is refused. */
  readonly maxScan?: number | undefined;
}

export interface PageResult {
  readonly total: number;
  readonly records: readonly SimRecord[];
  /** What the read was estimated to cost before it ran (units of engine/read-cost.ts); 0 for index arithmetic. */
  readonly cost: number;
  /** Set when that cost is over `maxScan`: nothing was read. */
  readonly refused?: { readonly cost: number };
}

/**
 * A read answered at once, or one whose plan costs more than the caller wants to spend in one go: its
 * work as steps (store/steps.ts) a driver runs in slices between other requests. The steps read the
 * collection as it is while they run: the caller keeps it unchanged until they are done.
 */
export type PageRead = { readonly kind: 'now'; readonly result: PageResult } | { readonly kind: 'steps'; readonly cost: number; readonly steps: Steps<PageResult> };
