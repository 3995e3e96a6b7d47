/**
 * Every paginated list (commerce-api.md §2.3, §4.2, §4.3, §8): the engine plans (engine/list-plan.ts),
 * the store reads, and this joins the envelope `{data, meta, links}` from cached record JSON.
 */
import { apiError } from '../../engine/api-errors.js';
import { planList, type ListPlan } from '../../engine/list-plan.js';
import { scanCap } from '../../engine/read-cost.js';
import { drain, type Steps } from '../../store/steps.js';
import { pageLinks, pageLinksJson, pageMeta, pageMetaJson } from '../../engine/pagination.js';
import type { Collection, PageRead, PageResult, SimRecord } from '../../store/collection.js';
import { keyOf } from '../../store/collection.js';
import type { ResourceDef } from '../../store/resources.js';
import type { RequestContext } from '../context.js';
import { error, errors, jsonParts, jsonText } from '../respond.js';
import { bodyParts } from '../body-parts.js';
import type { SimResponse } from '../messages.js';
import { listItemBytes, listItemJson } from '../serialize.js';

export interface ListSource {
  readonly resource: ResourceDef;
  readonly collection: Collection;
  /** Absolute self link of an item, less its id (self = prefix + id). */
  readonly selfPrefix: string;
}

export function servePage(ctx: RequestContext, source: ListSource): SimResponse {
  const { resource, collection } = source;
  const { query, deviations, project, play } = ctx;
  // The resource itself, not a spread copy of it: copying a ResourceDef costs more than the whole plan.
  const limits = { pageLength: project.settings.page_length, pageOffsetLimit: project.settings.page_offset_limit };
  const planned = planList(query, resource, limits, deviations, play.list(resource));
  if (!planned.ok) return errors([planned.error]);
  const plan = planned.value;

  const visible = project.visibility();
  const maxScan = ctx.maxScan ?? scanCap(collection.size);
  // Past an offset limit read as `empty`: no records, the true total.
  const read = { clauses: plan.clauses, sort: plan.sort, offset: plan.offset, limit: plan.page.pastLimit === true ? 0 : plan.limit, visible, maxScan };
  const { longReads } = ctx;
  const first = collection.read(read, longReads?.sliceAbove);
  const answer = (result: PageResult): SimResponse => {
    if (result.refused === undefined) return pageAnswer(ctx, source, plan, result);
    return errors([
      apiError(
        'bad-request',
        `This filter would cost about ${Math.ceil(result.refused.cost)} units of work (records examined, each weighted by what its tests cost), more than the ${maxScan} one read of this collection may spend (${ctx.maxScan === undefined ? 'a full scan of it with four long patterns' : 'serve --max-scan'}); narrow it with a range on id, created_at or updated_at, sort by the field you range on, or use fewer and simpler patterns`,
        'filter',
      ),
    ]);
  };
  // `large-data.shared-timestamp`: a page whose records all share the sort value is read again from the
  // start, as a read of its own: in slices too when it is long, within the first's when that one is.
  const reread = (result: PageResult, sliceAbove: number | undefined): PageRead | undefined =>
    plan.rereadWhenUniform && uniform(result.records, plan.sort.field) ? collection.read({ ...read, offset: 0 }, sliceAbove) : undefined;
  let steps: Steps<PageResult>;
  if (first.kind === 'now') {
    const second = reread(first.result, longReads?.sliceAbove);
    if (second === undefined) return answer(first.result);
    if (second.kind === 'now') return answer(second.result);
    steps = second.steps;
  } else steps = rereadSteps(first.steps, (result) => reread(result, 0));
  // A long read: in slices between other requests, on this version of the project's data (sim/long-reads.ts).
  if (longReads === undefined) return answer(drain(steps));
  // A change of this project came first and waits for the long reads running: this one waits behind it.
  if (longReads.changeWaiting(project)) return longReads.whenStill(project, () => servePage(ctx, source));
  return longReads.run(project, steps, answer, () => error('unavailable', 'The simulator is shutting down; this read was not finished'));
}

/** A long read's steps, then the second read its result asks for (if any), in steps too. */
function* rereadSteps(first: Steps<PageResult>, again: (result: PageResult) => PageRead | undefined): Steps<PageResult> {
  const result = yield* first;
  const second = again(result);
  if (second === undefined) return result;
  return second.kind === 'now' ? second.result : yield* second.steps;
}

/** The page's answer from the read's result (the second read's, where the plan asked for one): the envelope. */
function pageAnswer(ctx: RequestContext, source: ListSource, plan: ListPlan, result: PageResult): SimResponse {
  const { resource, collection } = source;
  const { query, deviations, project, play } = ctx;
  let records = result.records;
  if (plan.dropHighestId) {
    const highest = collection.page({ clauses: [], sort: { field: 'id', direction: 'desc' }, offset: 0, limit: 1 }).records[0];
    records = records.filter((r) => r !== highest);
  }
  const total = plan.totalIgnoresFilter ? collection.size : result.total;

  // Each record's cached item, taken now (the caveats below may change records): served as bytes copied
  // into the answer (sim/body-parts.ts), in process as text joined into it.
  const shape = play.shape(resource);
  const prefix = source.selfPrefix;
  const bytes = ctx.wire && play.plain ? records.map((r) => listItemBytes(r, resource, prefix, shape)) : undefined;
  const data = bytes === undefined ? records.map((r) => listItemJson(r, resource, prefix, shape)).join(',') : '';

  // §4.3's caveats between reads (updates, inserts, deletes), when the project's adversity asks for them.
  project.afterListRead(resource, collection);

  const page = (tail: string) => (bytes === undefined ? jsonText(200, `{"data":[${data}${tail}`) : jsonParts(200, bodyParts('{"data":[', bytes, tail)));
  if (plan.envelope === 'data-only' || (plan.envelope === 'data-only-when-empty' && records.length === 0)) return page(']}');
  const meta = pageMeta(plan.page, total, records.length, deviations, play.counting);
  if (!play.plain) return jsonText(200, play.envelope(data, meta, pageLinks(ctx.baseUrl, ctx.path, query, plan.page, total)));
  // The same text as JSON.stringify of meta and links, written directly (1 µs of a served page's 7).
  return page(`],"meta":${pageMetaJson(meta)},"links":${pageLinksJson(ctx.baseUrl, ctx.path, query, plan.page, total)}}`);
}

function uniform(records: readonly SimRecord[], field: string): boolean {
  const first = records[0];
  const last = records[records.length - 1];
  return records.length > 1 && first !== undefined && last !== undefined && keyOf(first, field) === keyOf(last, field);
}
