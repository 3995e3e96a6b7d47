/**
 * Every paginated list (commerce-api.md §2.3, §4.2, §4.3, §8): sort and filter, the page plan, the
 * adversarial behaviours, and the envelope `{data, meta, links}` joined from cached record JSON.
 */
import { deviates } from '../../engine/deviations.js';
import { parseFilter, type FilterClause } from '../../engine/filter.js';
import { pageLinks, pageMeta, planPage, skipCount } from '../../engine/pagination.js';
import { parseSort, type SortSpec } from '../../engine/sort.js';
import type { Collection, SimRecord } from '../../store/collection.js';
import { keyOf } from '../../store/collection.js';
import type { ResourceDef } from '../../store/resources.js';
import type { RequestContext } from '../context.js';
import { errors, jsonText } from '../respond.js';
import type { SimResponse } from '../types.js';
import { listItemJson } from '../serialize.js';

const DEFAULT_SORT: SortSpec = { field: 'created_at', direction: 'asc' };
const TIMESTAMP_FIELDS = new Set(['created_at', 'updated_at']);

export interface ListSource {
  readonly resource: ResourceDef;
  readonly collection: Collection;
  /** Absolute self link of an item, less its id (self = prefix + id). */
  readonly selfPrefix: string;
}

export function servePage(ctx: RequestContext, source: ListSource): SimResponse {
  const { resource, collection } = source;
  const { query, deviations, project } = ctx;

  const sortText = query.one('sort');
  if (!sortText.ok) return errors([sortText.error]);
  let sort = DEFAULT_SORT;
  if (sortText.value !== undefined) {
    const parsed = parseSort(sortText.value, resource.sorts);
    if (!parsed.ok) return errors([parsed.error]);
    sort = parsed.value;
  }
  // Breaks a sort the document names (§4.3), read through documented requests only.
  if (deviates(deviations, 'sort.ascending') && sort.field === 'created_at') sort = { field: 'id', direction: 'asc' };

  const filterText = query.one('filter');
  if (!filterText.ok) return errors([filterText.error]);
  let clauses: readonly FilterClause[] = [];
  if (filterText.value !== undefined) {
    const parsed = parseFilter(filterText.value, resource.filter);
    if (!parsed.ok) return errors([parsed.error]);
    clauses = parsed.value.map((c) => bend(c, ctx));
  }
  if (deviates(deviations, 'large-data.keyset.timestamp') && TIMESTAMP_FIELDS.has(sort.field) && clauses.some((c) => c.op === 'ge' && c.field === sort.field)) {
    sort = { field: 'id', direction: 'asc' };
  }

  const plan = planPage(query, {
    pageLength: project.settings.page_length,
    offsetLimit: { kind: resource.offsetLimit, max: project.settings.page_offset_limit },
    deviations,
  });
  if (!plan.ok) return errors([plan.error]);

  const visible = project.visibility();
  const pageQuery = { clauses, sort, offset: skipCount(plan.value, deviations), limit: plan.value.limit, ...(visible ? { visible } : {}) };
  let result = collection.page(pageQuery);

  if (deviates(deviations, 'large-data.shared-timestamp') && pageQuery.offset > 0 && uniform(result.records, sort.field)) {
    result = collection.page({ ...pageQuery, offset: 0 });
  }
  let records = result.records;
  let total = result.total;
  if (deviates(deviations, 'large-data.keyset.id') && sort.field === 'id' && clauses.some((c) => c.op === 'gt' && c.field === 'id')) {
    const highest = collection.page({ clauses: [], sort: { field: 'id', direction: 'desc' }, offset: 0, limit: 1 }).records[0];
    records = records.filter((r) => r !== highest);
  }
  if (deviates(deviations, 'filter.results-total') && clauses.length > 0) total = collection.size;

  // join, not +=: one flat string, where += would leave a tree of fragments to flatten at write time.
  const items: string[] = new Array<string>(records.length);
  for (let i = 0; i < records.length; i++) items[i] = listItemJson(records[i] as SimRecord, resource, source.selfPrefix);
  const data = items.join(',');

  // §4.3's caveats between reads (updates, inserts, deletes), when the project's adversity asks for them.
  project.afterListRead(resource, collection);

  // /v2/files: a list path the document shows (§4.2), so the break is judged on documented requests.
  if (deviates(deviations, 'pagination.endpoints.listed') && resource.name === 'files') return jsonText(200, `{"data":[${data}]}`);
  if (deviates(deviations, 'pagination.meta.present-when-empty') && records.length === 0) return jsonText(200, `{"data":[]}`);
  const meta = pageMeta(plan.value, total, records.length, deviations);
  const links = pageLinks(ctx.baseUrl, ctx.path, query, plan.value, total);
  return jsonText(200, `{"data":[${data}],"meta":${JSON.stringify(meta)},"links":${JSON.stringify(links)}}`);
}

/** Deviations of the comparison operators themselves. */
function bend(clause: FilterClause, ctx: RequestContext): FilterClause {
  if (clause.op === 'gt' && deviates(ctx.deviations, 'filter.gt')) return { ...clause, op: 'ge' };
  if (clause.op === 'ge' && deviates(ctx.deviations, 'filter.ge')) return { ...clause, op: 'gt' };
  return clause;
}

function uniform(records: readonly SimRecord[], field: string): boolean {
  const first = records[0];
  const last = records[records.length - 1];
  return records.length > 1 && first !== undefined && last !== undefined && keyOf(first, field) === keyOf(last, field);
}
