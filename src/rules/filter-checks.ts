/** Filtering (commerce-api.md §2.3, §4.2; docs/api-notes.md, "Filter and sort grammar", "Errors"). */
import type { Exchange } from '../port.js';
import {
  asList,
  clauseHolds,
  describe,
  expectError,
  isAsideStatus,
  changesState,
  instantOf,
  isTimestampField,
  isListRead,
  judgeEach,
  listGets,
  listQuery,
  pageMeta,
  parsedClauses,
  parseFilterText,
  pathOf,
  readSort,
  recordAttr,
  recordId,
  requestedOffset,
  sameValue,
  type FilterClause,
} from './inspect.js';
import { fail, pass, skip, type CheckContext, type Outcome, type Rule } from './rule.js';

/** Every returned record satisfies each selected clause (clauses that cannot be read are not judged). */
function recordsSatisfy(ex: Exchange, select: (c: FilterClause, all: readonly FilterClause[]) => boolean): Outcome {
  const all = parsedClauses(listQuery(ex.request.url).filter);
  const clauses = all.filter((c) => select(c, all));
  if (clauses.length === 0) return skip('no such clause');
  let judged = false;
  for (const [i, r] of (asList(ex.json)?.data ?? []).entries()) {
    for (const c of clauses) {
      const value = recordAttr(r, c.field);
      const holds = clauseHolds(value, c);
      if (holds === false) {
        return fail(`${describe(ex)}: record ${i + 1} (${recordId(r) ?? 'no id'}) breaks ${c.op}(${c.field},${c.values.join(',')})`, `${c.field} satisfying ${c.op}`, value);
      }
      if (holds === true) judged = true;
    }
  }
  return judged ? pass : skip('no record to judge');
}

const gt: Rule = {
  id: 'filter.gt',
  family: 'sort-filter',
  section: '§4.2',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'filter=ge(<attribute>,<value>) or filter=gt(<attribute>,<value>): Comparison filters: greater-than-or-equal and greater-than.',
  statement: 'filter=gt(attr,v) returns only records with attr > v.',
  check: (ctx) =>
    // judges: every list GET answering 200 with a gt clause: every record's attr > v
    judgeEach(listGets(ctx), 'no filtered read with gt', (ex) => recordsSatisfy(ex, (c) => c.op === 'gt')),
};

/** Records read so far, by path, field and value (timestamps by instant): linear in the records read. */
class SeenRecords {
  private readonly byKey = new Map<string, unknown[]>();
  constructor(private readonly fields: readonly string[]) {}

  private static key(path: string, field: string, value: string): string {
    // Length-prefixed: unambiguous whatever the texts hold, without JSON.stringify's cost per record.
    return `${path.length}:${path}${field.length}:${field}${isTimestampField(field) ? String(instantOf(value) ?? value) : value}`;
  }

  add(ex: Exchange): void {
    if (ex.response.status !== 200) return;
    const path = pathOf(ex.request.url);
    for (const r of asList(ex.json)?.data ?? []) {
      for (const f of this.fields) {
        const v = recordAttr(r, f);
        if (typeof v !== 'string') continue;
        const k = SeenRecords.key(path, f, v);
        const list = this.byKey.get(k) ?? [];
        list.push(r);
        this.byKey.set(k, list);
      }
    }
  }

  equalTo(path: string, field: string, value: string): readonly unknown[] {
    return this.byKey.get(SeenRecords.key(path, field, value)) ?? [];
  }
}

/**
 * A record seen earlier whose attr equals v (and that meets the other clauses) must be on the page when
 * the page covers where it sorts: the page holds the whole filtered set; or it is sorted by attr ascending
 * from offset 0 and reaches past v; or it is sorted by attr descending, reaches the end of the set (a short
 * page: v's records sort last) and starts before v (a record past v on it, or offset 0).
 */
function geIncludesEqual(ex: Exchange, seen: SeenRecords): Outcome {
  const all = parsedClauses(listQuery(ex.request.url).filter);
  const list = asList(ex.json);
  const m = pageMeta(ex.json);
  // The page where it was asked to start (a wrong meta.page.offset is pagination.offset.echo's failure).
  const offset = requestedOffset(ex.request.url);
  if (list === undefined || offset === undefined) return pass;
  const ids = new Set(list.data.map(recordId));
  const whole = offset === 0 && m.resultsTotal === list.data.length && m.totalMethod === 'exact';
  const short = m.limit !== undefined && list.data.length < m.limit;
  const sort = readSort(listQuery(ex.request.url).sort);
  for (const c of all.filter((k) => k.op === 'ge')) {
    const v = c.values[0] ?? '';
    const pastV = list.data.some((r) => !sameValue(c.field, recordAttr(r, c.field) ?? v, v));
    const ascending = sort?.field === c.field && sort.direction === 'asc' && offset === 0 && pastV;
    const descending = sort?.field === c.field && sort.direction === 'desc' && short && (pastV || offset === 0);
    if (!whole && !ascending && !descending) continue;
    for (const r of seen.equalTo(pathOf(ex.request.url), c.field, v)) {
      const id = recordId(r);
      if (id === undefined || ids.has(id)) continue;
      if (all.every((k) => clauseHolds(recordAttr(r, k.field), k) !== false)) {
        return fail(`${describe(ex)}: a record with ${c.field} equal to ${v} is left out`, `record ${id} included`, 'absent');
      }
    }
  }
  return pass;
}

const geClauses = (ex: Exchange): readonly FilterClause[] => parsedClauses(listQuery(ex.request.url).filter).filter((c) => c.op === 'ge');

const ge: Rule = {
  id: 'filter.ge',
  family: 'sort-filter',
  section: '§4.2',
  level: 'documented',
  onTraffic: { scope: 'session' },
  quote: 'filter=ge(<attribute>,<value>) or filter=gt(<attribute>,<value>): Comparison filters: greater-than-or-equal and greater-than.',
  statement: 'filter=ge(attr,v) returns only records with attr ≥ v, including those equal to v.',
  check: (ctx) => {
    // judges: every list GET answering 200 with a ge clause: every record's attr ≥ v; without writes or admin actions in ctx, a record with attr = v seen in an earlier read of the same path appears when the page holds the whole set, is sorted by attr from offset 0 and reaches past v, or is sorted by -attr, short, and starts before v
    const reads = new Set(listGets(ctx).filter((ex) => geClauses(ex).length > 0));
    if (reads.size === 0) return skip('no filtered read with ge');
    const writes = ctx.exchanges.some(changesState);
    const seen = new SeenRecords([...new Set([...reads].flatMap((ex) => geClauses(ex).map((c) => c.field)))]);
    // What was seen serves only the inclusion check, made only without writes, and only up to the last ge read.
    let left = reads.size;
    for (const ex of ctx.exchanges) {
      if (reads.has(ex)) {
        const o = recordsSatisfy(ex, (c) => c.op === 'ge');
        if (o.status === 'fail') return o;
        const inclusion = writes ? pass : geIncludesEqual(ex, seen);
        if (inclusion.status === 'fail') return inclusion;
        left--;
      }
      if (!writes && left > 0) seen.add(ex);
    }
    return pass;
  },
};

const OTHER_OPS = ['eq', 'like', 'ilike', 'in', 'lt', 'le', 'is_null', 'contains'];

const operators: Rule = {
  id: 'filter.operators',
  family: 'sort-filter',
  section: 'API-NOTES "Filter and sort grammar"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'eq, like, ilike, in, lt, le, is_null, contains hold on every returned record.',
  check: (ctx) =>
    // judges: every list GET answering 200 with an eq/like/ilike/in/lt/le/is_null/contains clause: every record satisfies it
    judgeEach(listGets(ctx), 'no filtered read with eq, like, ilike, in, lt, le, is_null or contains', (ex) => recordsSatisfy(ex, (c) => OTHER_OPS.includes(c.op))),
};

const and: Rule = {
  id: 'filter.and',
  family: 'sort-filter',
  section: '§4.2, §4.3',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'clauses joined by `:` all hold on every returned record.',
  check: (ctx) =>
    // judges: every list GET answering 200 whose filter has two or more clauses: every record satisfies all of them
    judgeEach(listGets(ctx), 'no read with several filter clauses', (ex) => recordsSatisfy(ex, (_c, all) => all.length >= 2)),
};

/** Per path, the results.total of the unfiltered reads in ctx (the last one's), and the records all of them showed: worked out once per check. */
function unfilteredByPath(ctx: CheckContext): ReadonlyMap<string, { total: number; records: readonly unknown[] }> {
  const out = new Map<string, { total: number; records: unknown[] }>();
  for (const ex of listGets(ctx)) {
    const t = pageMeta(ex.json).resultsTotal;
    if (listQuery(ex.request.url).filter !== undefined || t === undefined) continue;
    const path = pathOf(ex.request.url);
    const seen = out.get(path) ?? { total: t, records: [] };
    seen.total = t;
    seen.records.push(...(asList(ex.json)?.data ?? []));
    out.set(path, seen);
  }
  return out;
}

const resultsTotal: Rule = {
  id: 'filter.results-total',
  family: 'sort-filter',
  section: '§2.3',
  level: 'documented',
  onTraffic: { scope: 'session' },
  quote: 'results | total | Total number of results after applying filters, or all results if there are none.',
  statement: 'with a filter, meta.results.total counts the filtered set, not all records.',
  check: (ctx) => {
    // judges: every filtered list GET answering 200: a short page (fewer than limit) has total = offset + count; with unfiltered reads of the same path (no writes or admin actions in ctx): total ≤ the last one's total, and < it when one of them shows a record the filter excludes
    const unfiltered = ctx.exchanges.some(changesState) ? undefined : unfilteredByPath(ctx);
    return judgeEach(listGets(ctx), 'no filtered read', (ex) => {
      const clauses = parsedClauses(listQuery(ex.request.url).filter);
      const m = pageMeta(ex.json);
      const n = asList(ex.json)?.data.length ?? 0;
      if (clauses.length === 0 || m.resultsTotal === undefined || m.limit === undefined || m.offset === undefined || m.totalMethod !== 'exact') return skip('no filtered read with meta');
      if (n < m.limit && (n > 0 || m.offset === 0) && m.resultsTotal !== m.offset + n) {
        return fail(`${describe(ex)}: results.total of a short filtered page`, m.offset + n, m.resultsTotal);
      }
      const all = unfiltered?.get(pathOf(ex.request.url));
      if (all === undefined) return pass;
      if (m.resultsTotal > all.total) return fail(`${describe(ex)}: filtered results.total above the unfiltered one`, `at most ${all.total}`, m.resultsTotal);
      if (m.resultsTotal !== all.total) return pass;
      const excluded = all.records.some((r) => clauses.some((c) => clauseHolds(recordAttr(r, c.field), c) === false));
      return excluded ? fail(`${describe(ex)}: results.total counts records the filter excludes`, `below ${all.total}`, m.resultsTotal) : pass;
    });
  },
};

/** Filter attributes of the resources whose table docs/api-notes.md gives. */
const FILTERABLE: readonly { readonly path: RegExp; readonly fields: readonly string[] }[] = [
  { path: /^\/v2\/accounts\/?$/, fields: ['id', 'created_at', 'updated_at', 'name', 'legal_name', 'registration_id', 'external_ref'] },
];

/** Why a filter is surely refused (unparseable, or an attribute outside a known table), or undefined. */
function badFilter(ex: Exchange, text: string): string | undefined {
  const parsed = parseFilterText(text);
  if (!parsed.ok) return `unparseable filter: ${parsed.message}`;
  const table = FILTERABLE.find((f) => f.path.test(pathOf(ex.request.url)));
  const unknown = table === undefined ? undefined : parsed.value.find((c) => !table.fields.includes(c.field));
  return unknown === undefined ? undefined : `unknown filter attribute ${unknown.field}`;
}

const invalid400: Rule = {
  id: 'filter.invalid-400',
  family: 'sort-filter',
  section: 'API-NOTES "Errors"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'an unparseable filter, unknown attribute or operator answers 400.',
  check: (ctx) =>
    // judges: every list GET whose filter does not parse (unknown operator, broken parentheses/quotes, arity) or names an attribute outside the accounts table on /v2/accounts: 400 + error array
    judgeEach(ctx.exchanges, 'no read with an invalid filter', (ex) => {
      const text = listQuery(ex.request.url).filter;
      if (!isListRead(ex) || text === undefined || isAsideStatus(ex.response.status)) return skip('no filter');
      const why = badFilter(ex, text);
      return why === undefined ? skip('filter fine') : expectError(ex, 400, why);
    }),
};

export const filterRules: readonly Rule[] = [gt, ge, operators, and, resultsTotal, invalid400];
