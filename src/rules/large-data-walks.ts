/** Keyset walks of commerce-api.md §4.3: by id, by timestamp, and through records sharing a timestamp. */
import type { Exchange } from '../port.js';
import {
  asList,
  describe,
  idsOf,
  compareInstants,
  changesState,
  isTimestampField,
  listGets,
  listQuery,
  pageMeta,
  parsedClauses,
  pathOf,
  readSort,
  recordAttr,
  recordId,
  requestedOffset,
  sameValue,
} from './inspect.js';
import { fail, pass, skip, type CheckContext, type Rule } from './rule.js';

/** The list GETs of one walk: sorted ascending by `field` (the first such read's path), in order. */
function walkPages(ctx: CheckContext, accept: (field: string) => boolean): { field: string; pages: Exchange[] } | undefined {
  const sorted = listGets(ctx).filter((ex) => {
    const s = readSort(listQuery(ex.request.url).sort);
    return s !== undefined && s.direction === 'asc' && accept(s.field);
  });
  const first = sorted[0];
  const field = readSort(listQuery(first?.request.url ?? '').sort)?.field;
  if (first === undefined || field === undefined) return undefined;
  const path = pathOf(first.request.url);
  const pages = sorted.filter((ex) => pathOf(ex.request.url) === path && readSort(listQuery(ex.request.url).sort)?.field === field);
  return { field, pages };
}

/** results.total of the first unfiltered read of `path` in ctx (exact totals only). */
function unfilteredTotal(ctx: CheckContext, path: string): number | undefined {
  const ex = listGets(ctx).find((e) => pathOf(e.request.url) === path && listQuery(e.request.url).filter === undefined);
  const m = pageMeta(ex?.json);
  return m.totalMethod === 'exact' ? m.resultsTotal : undefined;
}

/** The value of the first clause `op(field, v)` of a read's filter. */
function clauseValue(ex: Exchange, op: string, field: string): string | undefined {
  return parsedClauses(listQuery(ex.request.url).filter).find((c) => c.op === op && c.field === field)?.values[0];
}

const keysetId: Rule = {
  id: 'large-data.keyset.id',
  family: 'large-data',
  section: '§4.3',
  level: 'documented',
  onTraffic: { scope: 'walk' },
  quote:
    'For each next page, add a filter that the attribute is greater than or equal to (or, for unique id, greater than) the last value of the previous page. For id-sorted reads, stop when a page returns zero records.',
  statement: 'sort=id with filter=gt(id,<last>) visits every record exactly once and ends with an empty page; the count equals the unfiltered results.total.',
  check: (ctx) => {
    // judges: ctx = [optional unfiltered list GET,] a whole walk of GETs with sort=id, each after the first with gt(id,<last id of previous page>), up to an empty page: no id twice, distinct ids = unfiltered results.total
    const walk = walkPages(ctx, (f) => f === 'id');
    if (walk === undefined || !walk.pages.some((p) => clauseValue(p, 'gt', 'id') !== undefined)) return skip('no keyset walk by id (sort=id with gt(id,...))');
    if (ctx.exchanges.some(changesState)) return skip('data or state changed during the walk');
    const seen = new Set<string>();
    let previousLast: string | undefined;
    for (const [j, ex] of walk.pages.entries()) {
      const after = clauseValue(ex, 'gt', 'id');
      if (j > 0 && (previousLast === undefined || after !== previousLast)) return skip('not a keyset walk: a page does not continue after the last id');
      for (const id of idsOf(ex.json)) {
        if (seen.has(id)) return fail(`${describe(ex)}: record visited twice in the id walk`, 'each record once', id);
        seen.add(id);
      }
      previousLast = idsOf(ex.json).at(-1);
    }
    // A walk whose last page still holds records was cut short by its caller: a server that never answers
    // an empty page repeats records, and that is failed above.
    const last = walk.pages.at(-1);
    if (last !== undefined && idsOf(last.json).length > 0) return skip('walk not finished: its last page is not empty');
    const first = walk.pages[0];
    const total = unfilteredTotal(ctx, pathOf(first?.request.url ?? ''));
    if (total === undefined || first === undefined || clauseValue(first, 'gt', 'id') !== undefined) return pass;
    return seen.size === total ? pass : fail(`the id walk from ${describe(first)} visited ${seen.size} records`, total, seen.size);
  },
};

const keysetTimestamp: Rule = {
  id: 'large-data.keyset.timestamp',
  family: 'large-data',
  section: '§4.3',
  level: 'documented',
  onTraffic: { scope: 'walk' },
  quote:
    'Choose a sortable attribute (for example created_at, updated_at or id). Request the first page with sort=<attribute>. For each next page, add a filter that the attribute is greater than or equal to (or, for unique id, greater than) the last value of the previous page.',
  statement: 'sort=created_at (or updated_at) with ge(attr,<last>), de-duplicating the boundary and paging further on uniform pages, visits every record exactly once.',
  check: (ctx) => {
    // judges: ctx = [unfiltered list GET,] a whole walk of GETs sorted by created_at/updated_at with ge(attr,<last value>) (page[offset] on uniform pages): repeats only at the boundary value, distinct ids = unfiltered results.total
    const walk = walkPages(ctx, isTimestampField);
    if (walk === undefined || !walk.pages.some((p) => clauseValue(p, 'ge', walk.field) !== undefined)) return skip('no keyset walk by a timestamp (sort with ge(attr,...))');
    if (ctx.exchanges.some(changesState)) return skip('data or state changed during the walk');
    const { field, pages } = walk;
    const broken = pages.find((ex, j) => j > 0 && !continues(pages[j - 1], ex, field));
    if (broken !== undefined) return skip(`not a keyset walk: ${describe(broken)} does not continue the previous page`);
    const seen = new Set<string>();
    for (const ex of pages) {
      const boundary = clauseValue(ex, 'ge', field);
      for (const r of asList(ex.json)?.data ?? []) {
        const id = recordId(r);
        if (id === undefined) continue;
        const value = recordAttr(r, field);
        const atBoundary = boundary !== undefined && typeof value === 'string' && sameValue(field, value, boundary);
        if (seen.has(id) && !atBoundary) return fail(`${describe(ex)}: record visited twice away from the page boundary`, 'each record once', id);
        seen.add(id);
      }
    }
    const first = pages[0];
    const last = pages.at(-1);
    const lastLimit = pageMeta(last?.json).limit;
    if (last !== undefined && lastLimit !== undefined && (asList(last.json)?.data.length ?? 0) >= lastLimit) return skip('walk not finished: its last page is full');
    const total = unfilteredTotal(ctx, pathOf(first?.request.url ?? ''));
    if (total === undefined || first === undefined || clauseValue(first, 'ge', field) !== undefined) return pass;
    return seen.size === total ? pass : fail(`the ${field} walk from ${describe(first)} visited ${seen.size} distinct records`, total, seen.size);
  },
};

/** Whether `page` continues `prev` in a timestamp walk: ge(attr, last value of prev), or the same filter further on. */
function continues(prev: Exchange | undefined, page: Exchange, field: string): boolean {
  if (prev === undefined) return false;
  // Further paging on the same filter starts where the previous page ended: a read of the same filter at
  // an offset inside the previous page re-reads it (an offset probe), it does not continue a walk.
  const further =
    listQuery(page.request.url).filter === listQuery(prev.request.url).filter &&
    (requestedOffset(page.request.url) ?? 0) === (requestedOffset(prev.request.url) ?? 0) + (asList(prev.json)?.data.length ?? 0);
  const v = clauseValue(page, 'ge', field);
  const lastPrev = recordAttr(asList(prev.json)?.data.at(-1), field);
  return further || (v !== undefined && typeof lastPrev === 'string' && sameValue(field, v, lastPrev));
}

/** A full page whose first and last values of `field` are equal. */
function isUniform(ex: Exchange, field: string): boolean {
  const records = asList(ex.json)?.data ?? [];
  const first = recordAttr(records[0], field);
  const last = recordAttr(records.at(-1), field);
  const limit = pageMeta(ex.json).limit;
  return records.length >= 2 && records.length === limit && typeof first === 'string' && typeof last === 'string' && sameValue(field, first, last);
}

const sharedTimestamp: Rule = {
  id: 'large-data.shared-timestamp',
  family: 'large-data',
  section: '§4.3',
  level: 'documented',
  onTraffic: { scope: 'walk' },
  quote: 'With timestamps, a page may need further paging if many records share the same timestamp. This is the case when the first and last timestamps of a page are identical.',
  statement:
    "records sharing one timestamp beyond a page stay reachable: when a page's first and last timestamps are equal, further paging (page[offset]) on the same ge filter returns the rest without repeats.",
  check: (ctx) => {
    // judges: ctx = a timestamp walk where a full uniform page is followed by GETs with the same ge filter and growing page[offset] (a page at an offset already passed is left out): no record at two positions (an overlap meets records where they were), every value ≥ v, and the walk gets past v (a later value > v, or a short page)
    const walk = walkPages(ctx, isTimestampField);
    if (walk === undefined) return skip('no read sorted by a timestamp');
    const { field, pages } = walk;
    let judged = false;
    for (const [j, uniform] of pages.entries()) {
      if (!isUniform(uniform, field)) continue;
      const filter = listQuery(uniform.request.url).filter;
      const v = recordAttr(asList(uniform.json)?.data[0], field);
      const start = requestedOffset(uniform.request.url) ?? 0;
      // Further on, each page past the last: a page read again (a refresh, a second reader) repeats by design.
      let reached = start;
      const further = pages.slice(j + 1).filter((ex) => {
        const at = requestedOffset(ex.request.url) ?? 0;
        if (listQuery(ex.request.url).filter !== filter || at <= reached) return false;
        reached = at;
        return true;
      });
      if (further.length === 0 || typeof v !== 'string') continue;
      judged = true;
      // Each record at one position of the filter's order: a page that overlaps the one before it (a client
      // checking that nothing moved) meets the same records at the same positions again, which is no repeat.
      const at = new Map<string, number>();
      idsOf(uniform.json).forEach((id, i) => at.set(id, start + i));
      for (const ex of further) {
        const offset = requestedOffset(ex.request.url) ?? 0;
        for (const [i, r] of (asList(ex.json)?.data ?? []).entries()) {
          const id = recordId(r);
          const value = recordAttr(r, field);
          const before = id === undefined ? undefined : at.get(id);
          if (id !== undefined && before !== undefined && before !== offset + i) return fail(`${describe(ex)}: repeats a record of the uniform page ${describe(uniform)}`, 'no repeats', id);
          if (id !== undefined) at.set(id, offset + i);
          if (typeof value === 'string' && !sameValue(field, value, v) && (compareInstants(value, v) ?? 1) <= 0) {
            return fail(`${describe(ex)}: a record before the shared ${field}`, `≥ ${v}`, value);
          }
        }
      }
      const later = pages.slice(j + 1);
      const past = later.some((ex) => {
        const records = asList(ex.json)?.data ?? [];
        const limit = pageMeta(ex.json).limit;
        return (
          records.some((r) => {
            const value = recordAttr(r, field);
            return typeof value === 'string' && !sameValue(field, value, v);
          }) ||
          records.length === 0 ||
          (limit !== undefined && records.length < limit)
        );
      });
      // Pages still all at v and full: the walk was cut short (its records were new, or a repeat failed above).
      if (!past) return skip(`walk not finished past the ${field} ${v} shared from ${describe(uniform)}`);
    }
    return judged ? pass : skip(`no uniform page followed by further paging on the same filter (the longest run of records sharing one ${field} read: ${longestRun(pages, field)})`);
  },
};

/** The most records in a row sharing one value of `field` on any page read. */
function longestRun(pages: readonly Exchange[], field: string): number {
  let longest = 0;
  for (const ex of pages) {
    let run = 0;
    let prev: string | undefined;
    for (const r of asList(ex.json)?.data ?? []) {
      const value = recordAttr(r, field);
      run = typeof value === 'string' && prev !== undefined && sameValue(field, prev, value) ? run + 1 : 1;
      prev = typeof value === 'string' ? value : undefined;
      longest = Math.max(longest, run);
    }
  }
  return longest;
}

export const walkRules = { keysetId, keysetTimestamp, sharedTimestamp } as const;
