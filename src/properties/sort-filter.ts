/**
 * Sort and filter (commerce-api.md §2.3, §4.2; docs/api-notes.md "Accounts", "Filter and sort grammar"):
 * for any allowed attribute, operator and value on /v2/accounts, every returned record satisfies the
 * filter, the page is in the requested order, and results.total counts the filtered set. Values come
 * from a sample of the target's own records, so equality boundaries are hit; when the sample is the
 * whole set, totals and pages are compared with a small reference (filter-model.ts).
 *
 * Documented rules are judged on documented reads only (rules/surface.ts: an ascending sort and one
 * gt/ge clause on id, created_at or updated_at); the exploration of API-NOTES' grammar (descending
 * sorts, other operators and attributes, combined clauses) feeds the assumed rules that cover it.
 */
import * as fc from 'fast-check';
import type { RuleId } from '../rules/ids.js';
import { COMPARISON_OPERATORS, documentedListUrl, SORT_FILTER_PATH, SORTABLE_ATTRIBUTES, type ComparisonOperator, type SortableAttribute } from '../rules/surface.js';
import { asList, idsOf, instantOf, isAsideStatus, pageMeta, recordAttr, type FilterClause } from '../rules/inspect.js';
import { toExchange, type Exchange } from '../port.js';
import { plainText, queryString, type QueryParam } from './arbitraries.js';
import { defineProperty } from './define.js';
import { bent, countRange, expectedPage, sampleOf, type SampleRecord } from './filter-model.js';
import type { Trial } from './trial.js';
import { MAX_PAGE_LENGTH } from '../limits.js';

const SORT_FILTER = 'sort-filter';

/**
 * An instant moved by one unit of its own last fraction digit (or half a minute) and written with the
 * same precision and zone `Z`, so the probe reads like the deployment's own values.
 */
function shiftInstant(text: string, step: 'unit' | 'minute', sign: bigint): string {
  const ns = instantOf(text);
  if (ns === undefined) return text;
  const digits = /[.,](\d{1,9})/.exec(text)?.[1]?.length ?? 0;
  const unit = step === 'minute' ? 30_000_000_000n : 10n ** BigInt(9 - digits);
  const moved = ns + sign * unit;
  const seconds = moved / 1_000_000_000n - (moved < 0n && moved % 1_000_000_000n !== 0n ? 1n : 0n);
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  const fraction = (moved - seconds * 1_000_000_000n).toString().padStart(9, '0').slice(0, digits);
  return digits === 0 ? `${whole}Z` : `${whole}.${fraction}Z`;
}
const PATH = SORT_FILTER_PATH;
/** Sample pages read before the runs (at 100 records a page). */
const SAMPLE_PAGES = 5;

/** docs/api-notes.md "Accounts": filterable attributes with their operators, and the sorts. */
const FIELDS: readonly { readonly field: string; readonly ops: readonly string[] }[] = [
  { field: 'id', ops: ['eq', 'in', 'gt', 'ge', 'lt', 'le'] },
  { field: 'created_at', ops: ['eq', 'gt', 'ge', 'lt', 'le'] },
  { field: 'updated_at', ops: ['eq', 'gt', 'ge', 'lt', 'le'] },
  { field: 'name', ops: ['eq', 'like'] },
  { field: 'legal_name', ops: ['eq', 'like'] },
  { field: 'registration_id', ops: ['eq', 'like'] },
  { field: 'external_ref', ops: ['eq', 'like'] },
];
const SORTS = ['created_at', 'id', 'name', 'updated_at'] as const;
/** Rules that compare a read with the unfiltered sample reads. */
const CONTEXT_RULES: ReadonlySet<RuleId> = new Set<RuleId>(['filter.results-total', 'filter.ge']);

interface Ctx {
  readonly sample: readonly SampleRecord[];
  /** The sample is every record (the reference can compute totals and pages). */
  readonly complete: boolean;
  readonly reads: readonly Exchange[];
}

export interface SortFilterInput {
  /** Built from the documented surface only (documentedListUrl); else an exploration of API-NOTES' grammar. */
  readonly documented: boolean;
  readonly clauses: readonly FilterClause[];
  readonly sort: { readonly field: string; readonly direction: 'asc' | 'desc' } | undefined;
  readonly limit: number | undefined;
  readonly offset: number | undefined;
}

/** The values of one attribute the sample shows (where the records keep it: recordAttr). */
const seenValues = (ctx: Ctx, field: string): string[] => ctx.sample.map((s) => (field === 'id' ? s.id : recordAttr(s.record, field))).filter((v): v is string => typeof v === 'string' && v !== '');

/** Values of one attribute: the sample's (so equality is hit), near them, or made up. */
function valuesOf(ctx: Ctx, field: string, op: string): fc.Arbitrary<string> {
  const seen = seenValues(ctx, field);
  const fromSample = seen.length > 0 ? fc.constantFrom(...seen) : fc.constant('x');
  if (field === 'created_at' || field === 'updated_at') {
    // One unit of the value's own last digit either way, or half a minute: written as the deployment writes them.
    const near = fc.tuple(fromSample, fc.constantFrom<'unit' | 'minute'>('unit', 'minute'), fc.constantFrom(-1n, 1n)).map(([v, step, sign]) => shiftInstant(v, step, sign));
    return fc.oneof(
      { weight: 4, arbitrary: fromSample },
      { weight: 2, arbitrary: near },
      { weight: 1, arbitrary: fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString()) },
    );
  }
  if (op === 'like') {
    const pattern = fc.tuple(fromSample, fc.nat(), fc.constantFrom('prefix', 'suffix', 'middle')).map(([v, n, how]) => {
      const cut = n % (v.length + 1);
      return how === 'prefix' ? `${v.slice(0, cut)}*` : how === 'suffix' ? `*${v.slice(cut)}` : `*${v.slice(cut, cut + 3)}*`;
    });
    return fc.oneof({ weight: 3, arbitrary: pattern }, { weight: 1, arbitrary: fromSample }, { weight: 1, arbitrary: plainText(6).map((t) => `${t}*`) });
  }
  const made = field === 'id' ? fc.oneof(fc.uuid(), fc.constantFrom('0', '8', 'f', '')) : plainText(12);
  return fc.oneof({ weight: 4, arbitrary: fromSample }, { weight: 1, arbitrary: made.filter((v) => v !== '') });
}

function clauseArb(ctx: Ctx): fc.Arbitrary<FilterClause> {
  return fc
    .constantFrom(...FIELDS.flatMap((f) => f.ops.map((op) => ({ field: f.field, op }))))
    .chain(({ field, op }) =>
      op === 'in' ? fc.array(valuesOf(ctx, field, op), { minLength: 1, maxLength: 3 }).map((values) => ({ op, field, values })) : valuesOf(ctx, field, op).map((v) => ({ op, field, values: [v] })),
    );
}

/** A value as the grammar takes it: quoted when it holds a character the grammar reads. */
function grammarValue(v: string): string | undefined {
  if (!/[,()"']/.test(v) && v.trim() === v) return v;
  if (!v.includes('"')) return `"${v}"`;
  return v.includes("'") ? undefined : `'${v}'`;
}

const filterText = (clauses: readonly FilterClause[]): string => clauses.map((c) => `${c.op}(${c.field},${c.values.map((v) => grammarValue(v) ?? v).join(',')})`).join(':');

function urlOf(i: SortFilterInput): string {
  const [c] = i.clauses;
  if (i.documented) {
    const filter = c === undefined ? undefined : { op: c.op as ComparisonOperator, attribute: c.field as SortableAttribute, value: c.values[0] ?? '' };
    const sort = i.sort?.field as SortableAttribute | undefined;
    return documentedListUrl(SORT_FILTER_PATH, {
      ...(i.limit === undefined ? {} : { limit: i.limit }),
      ...(i.offset === undefined ? {} : { offset: i.offset }),
      ...(sort === undefined ? {} : { sort }),
      ...(filter === undefined ? {} : { filter }),
    });
  }
  const q: QueryParam[] = [];
  if (i.clauses.length > 0) q.push({ name: 'filter', value: filterText(i.clauses) });
  if (i.sort !== undefined) q.push({ name: 'sort', value: `${i.sort.direction === 'desc' ? '-' : ''}${i.sort.field}` });
  if (i.limit !== undefined) q.push({ name: 'page[limit]', value: String(i.limit) });
  if (i.offset !== undefined) q.push({ name: 'page[offset]', value: String(i.offset) });
  return `${PATH}${queryString(q)}`;
}

/** The documented rules a list read exercises: each clause's operator, and the ascending sort. */
/** Whether a clause on id carries a value the sample never showed (§4.3 filters past a value read, not a made-up one). */
function inventsId(i: SortFilterInput, sample: readonly SampleRecord[]): boolean {
  const clauses = i.clauses.filter((c) => c.field === 'id');
  if (clauses.length === 0) return false;
  const ids = new Set(sample.map((s) => s.id));
  return clauses.some((c) => c.values.some((v) => !ids.has(v)));
}

function featureRules(i: SortFilterInput): RuleId[] {
  const rules = new Set<RuleId>();
  for (const c of i.clauses) if (c.op === 'gt' || c.op === 'ge') rules.add(c.op === 'gt' ? 'filter.gt' : 'filter.ge');
  if (i.sort !== undefined) rules.add('sort.ascending');
  return [...rules];
}

/**
 * Totals against the reference. On a documented read the miscount is filter.results-total's, and
 * also the clause operator's when the total is exactly the other operator's count (gt read as ge);
 * on any other read `finding` hands it to the assumed rules of its undocumented parts.
 */
function judgeTotal(i: SortFilterInput, ex: Exchange, trial: Trial, sample: readonly SampleRecord[]): void {
  const total = pageMeta(ex.json).resultsTotal;
  if (total === undefined || i.clauses.length === 0) return;
  const { lo, hi } = countRange(sample, i.clauses);
  if (total >= lo && total <= hi) return;
  const rules: RuleId[] = ['filter.results-total'];
  if (total > hi && total === countRange(sample, bent(i.clauses, 'gt', 'ge')).lo) rules.push('filter.gt');
  if (total < lo && total === countRange(sample, bent(i.clauses, 'ge', 'gt')).lo) rules.push('filter.ge');
  trial.finding(ex, rules, `GET ${ex.request.url}: results.total against the ${sample.length} records read`, lo === hi ? lo : `${lo}..${hi}`, total);
}

/** The page itself against the reference, when the order is unambiguous. */
function judgePage(i: SortFilterInput, ex: Exchange, trial: Trial, sample: readonly SampleRecord[]): void {
  const limit = pageMeta(ex.json).limit;
  if (i.sort === undefined || limit === undefined) return;
  const offset = i.offset ?? 0;
  const expected = expectedPage(sample, i.clauses, i.sort, offset, limit);
  if (expected === undefined) return;
  const got = idsOf(ex.json);
  if (got.join('\n') === expected.join('\n')) return;
  // The same records in another order are the sort's; other records are the filter's or the offset's.
  const sameSet = got.length === expected.length && [...got].sort().join('\n') === [...expected].sort().join('\n');
  const filters = featureRules(i).filter((r) => r !== 'sort.ascending');
  const rules: RuleId[] = sameSet ? ['sort.ascending'] : filters.length > 0 ? filters : offset > 0 ? ['pagination.offset.records'] : ['sort.ascending'];
  trial.finding(ex, rules, `GET ${ex.request.url}: not records ${offset + 1}..${offset + limit} of the sorted, filtered set`, expected.slice(0, 5), got.slice(0, 5));
}

/**
 * Values of a documented probe: only what the deployment itself shows, or (timestamps) one step from it
 * written the same way, so a refusal can only be the rule's. An attribute the records do not show is
 * not probed (the filter would be the kit's invention).
 */
function documentedValues(ctx: Ctx, field: SortableAttribute): fc.Arbitrary<string> | undefined {
  const seen = seenValues(ctx, field).filter((v) => field === 'id' || instantOf(v) !== undefined);
  if (seen.length === 0) return undefined;
  const fromSample = fc.constantFrom(...seen);
  if (field === 'id') return fromSample;
  const near = fc.tuple(fromSample, fc.constantFrom<'unit' | 'minute'>('unit', 'minute'), fc.constantFrom(-1n, 1n)).map(([v, step, sign]) => shiftInstant(v, step, sign));
  return fc.oneof({ weight: 3, arbitrary: fromSample }, { weight: 2, arbitrary: near });
}

/** A documented read (§4.2, §4.3 on /v2/accounts): an ascending sort and one gt/ge clause on the sortable attributes. */
function documentedInput(ctx: Ctx): fc.Arbitrary<SortFilterInput> {
  const fields = SORTABLE_ATTRIBUTES.flatMap((field) => {
    const values = documentedValues(ctx, field);
    return values === undefined ? [] : [{ field, values }];
  });
  const clause =
    fields.length === 0
      ? fc.constant(undefined)
      : fc.tuple(fc.constantFrom(...COMPARISON_OPERATORS), fc.constantFrom(...fields)).chain(([op, { field, values }]) => values.map((v): FilterClause => ({ op, field, values: [v] })));
  return fc.record({
    documented: fc.constant(true),
    clauses: fc.option(clause, { freq: 4, nil: undefined }).map((c) => (c === undefined ? [] : [c])),
    sort: fc.option(
      fc.constantFrom(...SORTABLE_ATTRIBUTES).map((field) => ({ field, direction: 'asc' as const })),
      { freq: 4, nil: undefined },
    ),
    limit: fc.option(fc.integer({ min: 1, max: MAX_PAGE_LENGTH }), { freq: 4, nil: undefined }),
    offset: fc.option(fc.integer({ min: 0, max: 150 }), { freq: 3, nil: undefined }),
  });
}

/** Everything API-NOTES lists (other operators and attributes, combined clauses, descending sorts): feeds assumed rules only. */
function exploringInput(ctx: Ctx): fc.Arbitrary<SortFilterInput> {
  return fc.record({
    documented: fc.constant(false),
    clauses: fc.oneof(fc.array(clauseArb(ctx), { maxLength: 1 }), fc.array(clauseArb(ctx), { minLength: 2, maxLength: 3 })),
    sort: fc.option(fc.record({ field: fc.constantFrom(...SORTS), direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc') }), { freq: 4, nil: undefined }),
    limit: fc.option(fc.integer({ min: 1, max: MAX_PAGE_LENGTH }), { freq: 4, nil: undefined }),
    offset: fc.option(fc.integer({ min: 0, max: 150 }), { freq: 3, nil: undefined }),
  });
}

export const sortFilter = defineProperty<Ctx, SortFilterInput>({
  name: SORT_FILTER,
  summary: 'any allowed filter and sort on /v2/accounts: records satisfy the filter, in order, results.total counts the filtered set',
  rules: [
    'filter.gt',
    'filter.ge',
    'filter.results-total',
    'sort.ascending',
    'filter.operators',
    'filter.and',
    'sort.descending',
    'sort.attributes',
    'filter.attributes',
    'pagination.results.total',
    'pagination.limit.per-call',
    'pagination.limit.max',
    'pagination.meta.present-when-empty',
    'errors.no-5xx',
  ],
  needs: [],
  async prepare(env) {
    const reads: Exchange[] = [];
    const records: unknown[] = [];
    let total: number | undefined;
    for (let page = 0; page < SAMPLE_PAGES; page++) {
      const request = { method: 'GET', url: `${PATH}?page[limit]=${MAX_PAGE_LENGTH}&page[offset]=${page * MAX_PAGE_LENGTH}` };
      const response = await env.target.send(request);
      const ex = toExchange(request, response);
      const data = response.status === 200 ? asList(ex.json)?.data : undefined;
      if (data === undefined) break;
      reads.push(ex);
      records.push(...data);
      total = pageMeta(ex.json).resultsTotal;
      if (data.length < MAX_PAGE_LENGTH) break;
    }
    const sample = sampleOf(records);
    return { sample, complete: total !== undefined && sample.length === total, reads };
  },
  // Documented reads judge the documented rules; explorations of the rest only the assumed ones.
  arbitrary: (ctx) => fc.oneof({ weight: 3, arbitrary: documentedInput(ctx) }, { weight: 2, arbitrary: exploringInput(ctx) }),
  show: (i) => ({ request: `GET ${urlOf(i)}` }),
  async run(i, trial, ctx) {
    // The sample reads are the oracle's unfiltered reference (filter.results-total, filter.ge).
    trial.context = { exchanges: ctx.reads, rules: CONTEXT_RULES };
    const ex = await trial.send({ method: 'GET', url: urlOf(i) });
    const status = ex.response.status;
    if (isAsideStatus(status) || status >= 500) return; // credentials and rate: not judged; 5xx: errors.no-5xx
    if (status !== 200) {
      // A refusal is judged by the request alone: a documented read's features, or the assumed rules of its undocumented parts.
      // An id the deployment never showed (a made-up UUID where its ids are acc_…) may be refused as no id at all: not the operator's failure.
      trial.finding(ex, inventsId(i, ctx.sample) ? [] : featureRules(i), `GET ${ex.request.url}: a filter and sort refused`, 200, status);
      return;
    }
    if (!ctx.complete) return;
    judgeTotal(i, ex, trial, ctx.sample);
    if (trial.findings.length === 0) judgePage(i, ex, trial, ctx.sample);
  },
});
