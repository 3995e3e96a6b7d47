/**
 * Page arithmetic (commerce-api.md §2.3, §4.2, §8; docs/api-notes.md "Page limits", "Response envelope"):
 * for any page[limit] and page[offset] (zero, negative, above 100, huge, fractional, text, repeated),
 * a list answers 400 with the error array, or a page whose meta and links follow from the request.
 * One request per run, so it is also the suite's speed benchmark.
 */
import * as fc from 'fast-check';
import type { RuleId } from '../rules/ids.js';
import { SHOWN_LIST_PATHS, SORTABLE_ATTRIBUTES } from '../rules/surface.js';
import { asList, at, isAsideStatus, isHardOffsetPath, MAX_PAGE_LENGTH, OFFSET_LIMIT, pageMeta, varNumber, wholeNumber } from '../rules/inspect.js';
import { parseJsonOrUndefined, type Exchange } from '../port.js';
import { conflictingLimits, LIST_PATHS, pageParams, pageQuery, queryString, type PageParams } from './arbitraries.js';
import { defineProperty } from './define.js';
import type { Trial } from './trial.js';
import type { PropertyEnv } from './env.js';

const PAGE_ARITHMETIC = 'page-arithmetic';

export interface PageInput {
  readonly path: string;
  readonly params: PageParams;
  /** A sort kept alongside (accounts only: the sorts docs/api-notes.md lists), so links must carry it. */
  readonly sort: string | undefined;
  /** A filter kept alongside (accounts only): the edges use one that leaves no record, for a total of 0. */
  readonly filter?: string;
}

/** A filter no record passes: a result of 0 records, through a documented read (§4.2). */
const EMPTY_FILTER = 'gt(created_at,9999-12-31T23:59:59.999Z)';

/**
 * Limits and offsets at page arithmetic's edges for `total` records: limits that divide the total, equal
 * it or miss it by one; the last page's offset, one either side, the total itself. A bug in links.next
 * or page.total at an exact multiple of the limit is met every run, not by chance.
 */
export function edgeReads(total: number): { readonly limit: number; readonly offset: number }[] {
  const limits = new Set<number>([1, 99, 100, total - 1, total, total + 1]);
  for (let l = MAX_PAGE_LENGTH; l >= 2 && limits.size < 12; l--) if (total % l === 0) limits.add(l);
  const out: { limit: number; offset: number }[] = [];
  for (const limit of [...limits].filter((l) => l >= 1 && l <= MAX_PAGE_LENGTH)) {
    const last = Math.floor(Math.max(0, total - 1) / limit) * limit;
    for (const offset of new Set([0, limit, last - limit, last, total - limit - 1, total - limit, total - limit + 1, total - 1, total, total + 1]))
      if (offset >= 0 && offset <= OFFSET_LIMIT) out.push({ limit, offset });
  }
  return out;
}

/** Reads at the edges of the totals the target has: a shown path and its total, or accounts filtered to nothing. */
function edgeInput(totals: ReadonlyMap<string, number>): fc.Arbitrary<PageInput> {
  const paths = [...totals.keys()];
  return fc.constantFrom(...paths, EMPTY_FILTER).chain((pick) => {
    const empty = pick === EMPTY_FILTER;
    const path = empty ? '/v2/accounts' : pick;
    return fc.constantFrom(...edgeReads(empty ? 0 : (totals.get(path) ?? 0))).map(({ limit, offset }): PageInput => ({
      path,
      params: { limit: String(limit), offset: offset === 0 ? undefined : String(offset), repeatLimit: undefined, encodeNames: false },
      sort: undefined,
      ...(empty ? { filter: EMPTY_FILTER } : {}),
    }));
  });
}

/** Offsets of a documented read: small, around the offset limit, and (on the hard-limit paths, where §8 speaks to them) past it. */
const documentedOffsets = (path: string): fc.Arbitrary<number> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 0, max: 150 }) },
    // Within the soft limit far from the start, where §8 says offsets are accepted.
    { weight: isHardOffsetPath(path) ? 0 : 2, arbitrary: fc.integer({ min: 150, max: OFFSET_LIMIT - 1 }) },
    { weight: 2, arbitrary: fc.integer({ min: OFFSET_LIMIT - 5, max: OFFSET_LIMIT + 5 }) },
    { weight: isHardOffsetPath(path) ? 4 : 1, arbitrary: fc.integer({ min: 150, max: 3 * OFFSET_LIMIT }) },
  );

/** A documented read (§4.2, §8): a shown list path, plain page parameters given once, an ascending sort on /v2/accounts. */
const documentedPageInput: fc.Arbitrary<PageInput> = fc.constantFrom(...SHOWN_LIST_PATHS).chain((path) =>
  fc.record({
    path: fc.constant(path),
    params: fc.record({
      limit: fc.option(
        fc
          .oneof(
            { weight: 6, arbitrary: fc.integer({ min: 1, max: 100 }) },
            // §8's edges: the largest page, one either side of it, and the smallest.
            { weight: 2, arbitrary: fc.constantFrom(1, 99, 100, 101) },
            { weight: 1, arbitrary: fc.integer({ min: 101, max: 1000 }) },
          )
          .map(String),
        { freq: 4, nil: undefined },
      ),
      offset: fc.option(documentedOffsets(path).map(String), { freq: 3, nil: undefined }),
      repeatLimit: fc.constant(undefined),
      encodeNames: fc.boolean(),
    }),
    sort: fc.option(fc.constantFrom(...SORTABLE_ATTRIBUTES), { freq: 2, nil: undefined }),
  }),
);

/** Anything a client might send (junk, repeated parameters, other list paths and sorts): feeds assumed rules. */
const exploringPageInput: fc.Arbitrary<PageInput> = fc.record({
  path: fc.constantFrom(...LIST_PATHS),
  params: pageParams,
  sort: fc.option(fc.constantFrom('created_at', 'id', '-created_at', 'name'), { freq: 5, nil: undefined }),
});

const pageInput: fc.Arbitrary<PageInput> = fc.oneof({ weight: 3, arbitrary: documentedPageInput }, { weight: 2, arbitrary: exploringPageInput });

/** Every kind of read, the edges of the target's own totals among them. */
const pageInputFor = (totals: ReadonlyMap<string, number>): fc.Arbitrary<PageInput> =>
  totals.size === 0 ? pageInput : fc.oneof({ weight: 3, arbitrary: documentedPageInput }, { weight: 2, arbitrary: exploringPageInput }, { weight: 2, arbitrary: edgeInput(totals) });

/** The request URL of an input. */
function pageUrl(input: PageInput): string {
  const sort = input.sort !== undefined && input.path === '/v2/accounts' ? [{ name: 'sort', value: input.sort }] : [];
  const filter = input.filter !== undefined && input.path === '/v2/accounts' ? [{ name: 'filter', value: input.filter }] : [];
  return `${input.path}${queryString([...pageQuery(input.params), ...sort, ...filter])}`;
}

/** Why a server may refuse the request with 400, or undefined when it must answer a page. */
function refusalReason(input: PageInput, offsetLimit: number): string | undefined {
  const { limit, offset } = input.params;
  if (conflictingLimits(input.params)) return 'page[limit] given twice with different values';
  if (limit !== undefined && (wholeNumber(limit) ?? 0) === 0) return `page[limit]=${limit}`;
  const o = offset === undefined ? 0 : wholeNumber(offset);
  if (o === undefined) return `page[offset]=${offset}`;
  const max = isHardOffsetPath(input.path) ? OFFSET_LIMIT : offsetLimit;
  return o > max ? `page[offset] ${o} past the offset limit ${max}` : undefined;
}

/**
 * The documented rules a refused read breaks, by what the request asks (`finding` gives them a verdict
 * only when the request is inside the documented surface): an offset within the soft limit, a
 * page[limit], an ascending sort, or else the list itself on its path.
 */
function featureRules(input: PageInput, limit: number | undefined): RuleId[] {
  const rules: RuleId[] = [];
  const offset = wholeNumber(input.params.offset) ?? 0;
  if (offset > 0 && !isHardOffsetPath(input.path)) rules.push('pagination.offset-limit.soft');
  if (limit !== undefined) rules.push('pagination.limit.per-call');
  if (input.sort !== undefined && input.path === '/v2/accounts') rules.push('sort.ascending');
  if (input.filter !== undefined && input.path === '/v2/accounts') rules.push('filter.gt');
  return rules.length > 0 ? rules : ['pagination.endpoints.listed'];
}

/** The property's own reading of one answer; the oracle's rules judge the rest. */
function judgePage(input: PageInput, ex: Exchange, trial: Trial, offsetLimit: number): void {
  const { status } = ex.response;
  if (isAsideStatus(status) || status >= 500) return; // credentials and rate limits: not this property's; 5xx: errors.no-5xx
  const reason = refusalReason(input, offsetLimit);
  const limit = wholeNumber(input.params.limit);
  if (status !== 200) {
    if (reason !== undefined) return;
    // §8 caps a page at 100 records; whether a larger page[limit] is clamped or refused is API-NOTES' (assumed).
    if (limit !== undefined && limit > MAX_PAGE_LENGTH)
      return trial.fail('pagination.limit.clamp', `${ex.request.method} ${ex.request.url}: page[limit] ${limit} refused`, 'a page of at most 100 records (200)', status, [ex]);
    trial.finding(ex, featureRules(input, limit), `${ex.request.method} ${ex.request.url}: valid page parameters answered ${status}`, 'a page (200)', status);
    return;
  }
  const list = asList(ex.json);
  if (list === undefined) {
    trial.finding(ex, ['pagination.endpoints.listed'], `${ex.request.url}: a list answer without a data array`, 'data array', typeof at(ex.json, 'data'));
    return;
  }
  const n = list.data.length;
  const m = pageMeta(ex.json);
  if (limit !== undefined && !conflictingLimits(input.params) && n > Math.min(limit, MAX_PAGE_LENGTH)) {
    const rule: RuleId = limit > MAX_PAGE_LENGTH ? 'pagination.limit.max' : 'pagination.limit.per-call';
    trial.finding(ex, [rule], `${ex.request.url}: more records than page[limit]=${limit} allows`, `at most ${Math.min(limit, MAX_PAGE_LENGTH)}`, n);
  }
  if (m.limit !== undefined && n > m.limit) trial.finding(ex, ['pagination.results.total'], `${ex.request.url}: more records than the page's limit`, `at most ${m.limit}`, n);
}

export const pageArithmetic = defineProperty<{ offsetLimit: number; totals: ReadonlyMap<string, number> }, PageInput>({
  name: PAGE_ARITHMETIC,
  summary: 'any page[limit]/page[offset]: a 400 with the error array, or a page whose meta and links follow from the request',
  rules: [
    'pagination.limit.max',
    'pagination.limit.per-call',
    'pagination.offset.echo',
    'pagination.page.total',
    'pagination.page.current',
    'pagination.results.total',
    'pagination.meta.present',
    'pagination.meta.present-when-empty',
    'pagination.limit.clamp',
    'pagination.params.invalid-400',
    'pagination.links.present',
    'pagination.links.consistent',
    'pagination.offset-limit.hard',
    'pagination.offset-limit.soft',
    'pagination.endpoints.listed',
    'versioning.v2-prefix',
    'errors.format',
    'errors.no-5xx',
  ],
  needs: [],
  prepare: async (env) => ({ offsetLimit: await readOffsetLimit(env), totals: await readTotals(env) }),
  arbitrary: (ctx) => pageInputFor(ctx.totals),
  show: (input) => ({ request: `GET ${pageUrl(input)}` }),
  async run(input, trial, ctx) {
    // What a server does with page[limit] given twice is not documented: only the generic answer is judged.
    if (conflictingLimits(input.params)) {
      trial.excluded.add('pagination.limit.clamp');
      trial.excluded.add('pagination.offset-limit.soft');
    }
    trial.vars['page_offset_limit'] = ctx.offsetLimit;
    const ex = await trial.send({ method: 'GET', url: pageUrl(input) });
    judgePage(input, ex, trial, ctx.offsetLimit);
  },
});

/** results.total of each shown list path, as one read of a record shows it (a path that does not answer one is left out). */
async function readTotals(env: PropertyEnv): Promise<ReadonlyMap<string, number>> {
  const totals = new Map<string, number>();
  for (const path of SHOWN_LIST_PATHS) {
    const res = await env.target.send({ method: 'GET', url: `${path}?page[limit]=1` });
    const total = res.status === 200 ? pageMeta(parseJsonOrUndefined(res.body)).resultsTotal : undefined;
    if (total !== undefined && total <= OFFSET_LIMIT) totals.set(path, total);
  }
  return totals;
}

/** The project's soft offset limit as GET /v2/settings shows it (10,000 when it does not). */
export async function readOffsetLimit(env: PropertyEnv): Promise<number> {
  const fromVars = varNumber(env.vars, 'page_offset_limit');
  if (fromVars !== undefined) return fromVars;
  const res = await env.target.send({ method: 'GET', url: '/v2/settings' });
  if (res.status !== 200) return OFFSET_LIMIT;
  const v = at(parseJsonOrUndefined(res.body), 'data', 'page_offset_limit');
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : OFFSET_LIMIT;
}
