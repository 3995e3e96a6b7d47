/**
 * Every decision of a list read (commerce-api.md §2.3, §4.2, §4.3, §8), pure: the sort, the filter, the
 * page, and where a `--deviate` bends any of them. The handler reads the plan, asks the store for the
 * records and serialises; it decides nothing itself.
 */
import { deviates, type Deviations } from './deviations.js';
import { ok, type Decision } from './api-errors.js';
import { apiError, refuse } from './api-errors.js';
import { parseFilter, storeClauses, type FilterClause, type FilterSpec } from './filter.js';
import { SAME_IDS, type IdCodec } from './ids.js';
import type { Precision } from './instants.js';
import { planPage, PUBLIC_PAGE_READINGS, skipCount, type PagePlan, type PageReadings } from './pagination.js';
import type { QueryParams } from './query.js';
import { parseSort, type SortSpec } from './sort.js';

const DEFAULT_SORT: SortSpec = { field: 'created_at', direction: 'asc' };
const TIMESTAMP_FIELDS = new Set(['created_at', 'updated_at']);

/** What the planner needs to know of the resource. */
export interface ListResource {
  readonly name: string;
  readonly sorts: readonly string[];
  readonly filter: FilterSpec;
  readonly offsetLimit: 'hard' | 'soft';
}

/** And of the project's settings. */
export interface ListLimits {
  readonly pageLength: number;
  readonly pageOffsetLimit: number;
}

/** What a deployment does where the document is silent (rules/readings.ts), as far as a list read decides. */
export interface ListReadings {
  readonly page: PageReadings;
  /** The order without `sort`. */
  readonly unsorted: 'created_at' | 'id' | 'newest';
  /** The precision timestamps are shown with, which filters compare at. */
  readonly precision: Precision;
  /** How ids are shown, which filters on id are read back through. */
  readonly ids: IdCodec;
}

export const PUBLIC_LIST_READINGS: ListReadings = { page: PUBLIC_PAGE_READINGS, unsorted: 'created_at', precision: 'ms', ids: SAME_IDS };

const UNSORTED: Readonly<Record<ListReadings['unsorted'], SortSpec>> = {
  created_at: DEFAULT_SORT,
  id: { field: 'id', direction: 'asc' },
  newest: { field: 'created_at', direction: 'desc' },
};

/** The envelope of the answer: the document's whole one, or a deviation's `{"data": [...]}` alone. */
type Envelope = 'full' | 'data-only' | 'data-only-when-empty';

export interface ListPlan {
  readonly sort: SortSpec;
  readonly clauses: readonly FilterClause[];
  readonly page: PagePlan;
  /** Records skipped and taken from the ordered, filtered collection. */
  readonly offset: number;
  readonly limit: number;
  /** `large-data.shared-timestamp`: a page whose records all share the sort value is read again from the start. */
  readonly rereadWhenUniform: boolean;
  /** `large-data.keyset.id`: the record with the highest id is left out. */
  readonly dropHighestId: boolean;
  /** `filter.results-total`: the total ignores the filter. */
  readonly totalIgnoresFilter: boolean;
  readonly envelope: Envelope;
}

export function planList(query: QueryParams, target: ListResource, limits: ListLimits, deviations: Deviations, readings: ListReadings = PUBLIC_LIST_READINGS): Decision<ListPlan> {
  const sortText = query.one('sort');
  if (!sortText.ok) return sortText;
  let sort = UNSORTED[readings.unsorted];
  if (sortText.value !== undefined) {
    const parsed = parseSort(sortText.value, target.sorts);
    if (!parsed.ok) return parsed;
    sort = parsed.value;
  }
  // Breaks a sort the document names (§4.3), read through documented requests only.
  if (deviates(deviations, 'sort.ascending') && sort.field === 'created_at') sort = { field: 'id', direction: 'asc' };

  const filterText = query.one('filter');
  if (!filterText.ok) return filterText;
  // As asked (operators bent by a deviation), then as the store reads them (ids stored, instants at the shown precision).
  let asked: readonly FilterClause[] = [];
  let clauses: readonly FilterClause[] = [];
  if (filterText.value !== undefined) {
    const parsed = parseFilter(filterText.value, target.filter);
    if (!parsed.ok) return parsed;
    const stored = storedIds(parsed.value, readings.ids);
    if (stored === undefined) return refuse(apiError('bad-request', 'Invalid id value in the filter', 'filter'));
    asked = stored.map((c) => bend(c, deviations));
    clauses = storeClauses(asked, target.filter, readings.precision);
  }
  if (deviates(deviations, 'large-data.keyset.timestamp') && TIMESTAMP_FIELDS.has(sort.field) && asked.some((c) => c.op === 'ge' && c.field === sort.field)) {
    sort = { field: 'id', direction: 'asc' };
  }

  const page = planPage(query, { pageLength: limits.pageLength, offsetLimit: { kind: target.offsetLimit, max: limits.pageOffsetLimit }, deviations, readings: readings.page });
  if (!page.ok) return page;
  const offset = skipCount(page.value, deviations);
  return ok({
    sort,
    clauses,
    page: page.value,
    offset,
    limit: page.value.take ?? page.value.limit,
    rereadWhenUniform: deviates(deviations, 'large-data.shared-timestamp') && offset > 0,
    dropHighestId: deviates(deviations, 'large-data.keyset.id') && sort.field === 'id' && asked.some((c) => c.op === 'gt' && c.field === 'id'),
    totalIgnoresFilter: deviates(deviations, 'filter.results-total') && asked.length > 0,
    // /v2/files: a list path the document shows (§4.2), so the break is judged on documented requests.
    envelope:
      deviates(deviations, 'pagination.endpoints.listed') && target.name === 'files' ? 'data-only' : deviates(deviations, 'pagination.meta.present-when-empty') ? 'data-only-when-empty' : 'full',
  });
}

/** Filter values on id read back to the stored ids; undefined when one is not an id of the shown form. */
function storedIds(clauses: readonly FilterClause[], ids: IdCodec): readonly FilterClause[] | undefined {
  if (ids === SAME_IDS) return clauses;
  const out: FilterClause[] = [];
  for (const c of clauses) {
    if (c.field !== 'id' || !['eq', 'in', 'gt', 'ge', 'lt', 'le'].includes(c.op)) {
      out.push(c);
      continue;
    }
    const values: string[] = [];
    for (const v of c.values) {
      const stored = ids.stored(v);
      if (stored === undefined) return undefined;
      values.push(stored);
    }
    out.push({ op: c.op, field: c.field, values });
  }
  return out;
}

/** Deviations of the comparison operators themselves. */
function bend(clause: FilterClause, deviations: Deviations): FilterClause {
  if (clause.op === 'gt' && deviates(deviations, 'filter.gt')) return { ...clause, op: 'ge' };
  if (clause.op === 'ge' && deviates(deviations, 'filter.ge')) return { ...clause, op: 'gt' };
  return clause;
}
