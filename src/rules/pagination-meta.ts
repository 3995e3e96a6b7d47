/**
 * Pagination metadata and links (commerce-api.md §2.3; docs/api-notes.md, "Response envelope of list
 * endpoints"). Page arithmetic is judged only from each response's own meta, never from known data.
 */
import type { Exchange } from '../port.js';
import {
  asList,
  at,
  describe,
  documentedListPath,
  isGet,
  judgeEach,
  linkParam,
  listQuery,
  missingPageMembers,
  pageAttributes,
  pageMeta,
  paginatedGets,
  pathOf,
  readLink,
  requestedOffset,
  wholeNumber,
} from './inspect.js';
import { SHOWN_LIST_PATHS } from './surface.js';
import { fail, pass, skip, type CheckContext, type Outcome, type Rule } from './rule.js';

const metaPresent: Rule = {
  id: 'pagination.meta.present',
  family: 'pagination',
  section: '§2.3',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'The pagination fields are always present, including when the result is empty (zero results). The exact position of the page and results attributes within the response body: not shown.',
  statement: 'every list response has numeric page limit, offset, current and total and results total, wherever in the body they sit.',
  check: (ctx) =>
    // judges: every non-empty list GET answering 200 (with meta, or on a paginated path): the five numeric members
    judgeEach(paginatedGets(ctx), 'no non-empty list response', (ex) => {
      if (asList(ex.json)?.data.length === 0) return skip('empty (pagination.meta.present-when-empty)');
      const missing = missingPageMembers(ex.json);
      return missing.length === 0 ? pass : fail(`${describe(ex)}: pagination members missing`, 'numeric meta.page.{limit,offset,current,total}, meta.results.total', missing);
    }),
};

const metaPresentWhenEmpty: Rule = {
  id: 'pagination.meta.present-when-empty',
  family: 'pagination',
  section: '§2.3',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'The pagination fields are always present, including when the result is empty (zero results).',
  statement: 'the same members are present when the result is empty.',
  check: (ctx) =>
    // judges: every empty list GET answering 200 (with meta, or on a paginated path): the five numeric members
    judgeEach(paginatedGets(ctx), 'no empty list response', (ex) => {
      if (asList(ex.json)?.data.length !== 0) return skip('not empty');
      const missing = missingPageMembers(ex.json);
      return missing.length === 0 ? pass : fail(`${describe(ex)}: pagination members missing on an empty result`, 'numeric meta.page.{limit,offset,current,total}, meta.results.total', missing);
    }),
};

const offsetEcho: Rule = {
  id: 'pagination.offset.echo',
  family: 'pagination',
  section: '§2.3',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'page[offset]: Current offset counted in records, not pages. Zero-based.',
  statement: 'meta.page.offset equals the requested offset (0 without one).',
  check: (ctx) =>
    // judges: every list GET answering 200 with a whole-number page[offset] or none: meta.page.offset equals it (0 when absent)
    judgeEach(paginatedGets(ctx), 'no list response', (ex) => {
      const wanted = requestedOffset(ex.request.url);
      const got = pageMeta(ex.json).offset;
      if (wanted === undefined || got === undefined) return skip('offset not judgeable');
      return got === wanted ? pass : fail(`${describe(ex)}: meta.page.offset`, wanted, got);
    }),
};

const pageTotal: Rule = {
  id: 'pagination.page.total',
  family: 'pagination',
  section: '§2.3',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'page[total]: Total page count.',
  statement:
    "page.total is the page count of a non-empty result: ceil(results.total / page.limit) on the data set's grid, or, from an offset off that grid, on the offset's own (the document does not say which grid pages are counted on).",
  check: (ctx) =>
    // judges: every non-empty list GET answering 200: page.total = ceil(results.total / page.limit), or from an offset o off that grid ceil(o / limit) + ceil((results.total − o) / limit), wherever page and results sit
    judgeEach(paginatedGets(ctx), 'no list response', (ex) => {
      const m = pageMeta(ex.json);
      if (m.limit === undefined || m.limit <= 0 || m.resultsTotal === undefined || m.total === undefined) return skip('meta incomplete');
      // 0 or 1 pages for an empty result is not stated: pagination.page.total-empty.
      if (m.resultsTotal === 0) return skip('empty result');
      const grids = pageCounts(m.resultsTotal, m.limit, m.offset ?? requestedOffset(ex.request.url));
      return grids.includes(m.total)
        ? pass
        : fail(`${describe(ex)}: page.total for ${m.resultsTotal} results at ${m.limit} a page`, grids.length === 1 ? grids[0] : `one of ${grids.join(', ')}`, m.total);
    }),
};

/**
 * The page counts a conforming server may give: on the data set's grid (pages start at multiples of the
 * limit), and, from an offset off that grid, on the offset's own (a partial page before it, then full ones).
 */
function pageCounts(total: number, limit: number, offset: number | undefined): number[] {
  const grid = Math.ceil(total / limit);
  if (offset === undefined || offset <= 0 || offset % limit === 0) return [grid];
  const own = Math.ceil(Math.min(offset, total) / limit) + Math.ceil(Math.max(0, total - offset) / limit);
  return own === grid ? [grid] : [grid, own];
}

const pageTotalEmpty: Rule = {
  id: 'pagination.page.total-empty',
  family: 'pagination',
  section: 'API-NOTES "Response envelope"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'an empty result has meta.page.total 0.',
  check: (ctx) =>
    // judges: every empty list GET answering 200 (results.total 0): page.total 0
    judgeEach(paginatedGets(ctx), 'no empty list response', (ex) => {
      const m = pageMeta(ex.json);
      if (m.resultsTotal !== 0 || m.total === undefined) return skip('not empty');
      return m.total === 0 ? pass : fail(`${describe(ex)}: meta.page.total of an empty result`, 0, m.total);
    }),
};

const metaPosition: Rule = {
  id: 'pagination.meta.position',
  family: 'pagination',
  section: 'API-NOTES "Response envelope"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'the page and results attributes sit at meta.page and meta.results.',
  check: (ctx) =>
    // judges: every list GET answering 200 on a paginated path: meta.page and meta.results are objects
    judgeEach(paginatedGets(ctx), 'no list response', (ex) => {
      const where = pageAttributes(ex.json).position;
      return where === 'meta' ? pass : fail(`${describe(ex)}: pagination attributes not under meta`, 'meta.page and meta.results', where);
    }),
};

const pageCurrent: Rule = {
  id: 'pagination.page.current',
  family: 'pagination',
  section: 'API-NOTES "Response envelope"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'meta.page.current is floor(offset / limit) + 1 (1 when empty).',
  check: (ctx) =>
    // judges: every list GET answering 200: meta.page.current = floor(meta.page.offset / meta.page.limit) + 1 (1 also accepted when results.total is 0)
    judgeEach(paginatedGets(ctx), 'no list response', (ex) => {
      const m = pageMeta(ex.json);
      if (m.limit === undefined || m.limit <= 0 || m.offset === undefined || m.current === undefined) return skip('meta incomplete');
      const expected = Math.floor(m.offset / m.limit) + 1;
      const ok = m.current === expected || (m.resultsTotal === 0 && m.current === 1);
      return ok ? pass : fail(`${describe(ex)}: meta.page.current at offset ${m.offset}, limit ${m.limit}`, expected, m.current);
    }),
};

const resultsTotal: Rule = {
  id: 'pagination.results.total',
  family: 'pagination',
  section: '§2.3',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'results | total | Total number of results after applying filters, or all results if there are none.',
  statement: 'meta.results.total is the number of records in the (filtered) set: walking the set visits that many; a page at offset o holds min(limit, total − o) records.',
  check: (ctx) =>
    // judges: every list GET answering 200 whose total_method is exact (or absent): record count = max(0, min(meta.page.limit, results.total − offset)), offset the requested one (else meta.page.offset)
    judgeEach(paginatedGets(ctx), 'no list response with an exact total', (ex) => {
      const m = pageMeta(ex.json);
      const n = asList(ex.json)?.data.length;
      // The requested offset: a wrong meta.page.offset is pagination.offset.echo's failure, not this rule's.
      const offset = requestedOffset(ex.request.url) ?? m.offset;
      if (m.limit === undefined || offset === undefined || m.resultsTotal === undefined || n === undefined) return skip('meta incomplete');
      if (m.totalMethod !== 'exact') return skip(`total_method ${m.totalMethod}`);
      const expected = Math.max(0, Math.min(m.limit, m.resultsTotal - offset));
      return n === expected ? pass : fail(`${describe(ex)}: ${n} records at offset ${offset}, limit ${m.limit}, results.total ${m.resultsTotal}`, expected, n);
    }),
};

const LINK_NAMES = ['current', 'first', 'last', 'next', 'prev'];

const linksPresent: Rule = {
  id: 'pagination.links.present',
  family: 'pagination',
  section: 'API-NOTES "Response envelope"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'links has current, first, last, next, prev (absolute URL or null).',
  check: (ctx) =>
    // judges: every list GET answering 200: links.{current,first,last,next,prev} each an absolute http(s) URL or null
    judgeEach(paginatedGets(ctx), 'no list response', (ex) => {
      const links = at(ex.json, 'links');
      for (const name of LINK_NAMES) {
        const link = readLink(links, name);
        if (link.kind === 'missing') return fail(`${describe(ex)}: links.${name} missing`, 'absolute URL or null', 'missing');
        if (link.kind === 'bad') return fail(`${describe(ex)}: links.${name} is not an absolute URL`, 'absolute URL or null', link.text.slice(0, 200));
      }
      return pass;
    }),
};

/** The first disagreement between a response's links and its meta, or undefined. */
function linksProblem(ex: Exchange): { what: string; expected: unknown; actual: unknown } | undefined {
  const m = pageMeta(ex.json);
  const links = at(ex.json, 'links');
  if (m.limit === undefined || m.offset === undefined || m.resultsTotal === undefined) return undefined;
  const { limit, offset, resultsTotal: total } = m;
  const q = listQuery(ex.request.url);
  const urls = new Map<string, URL>();
  for (const name of LINK_NAMES) {
    const link = readLink(links, name);
    if (link.kind === 'url') urls.set(name, link.url);
  }
  const offsetOf = (url: URL): number | undefined => {
    const raw = linkParam(url, 'page[offset]');
    return raw === undefined ? 0 : wholeNumber(raw);
  };
  for (const [name, url] of urls) {
    const l = wholeNumber(linkParam(url, 'page[limit]'));
    if (l !== limit) return { what: `links.${name} page[limit]`, expected: limit, actual: linkParam(url, 'page[limit]') ?? 'absent' };
    for (const kept of ['sort', 'filter'] as const) {
      const wanted = q[kept];
      if (wanted !== undefined && linkParam(url, kept) !== wanted) return { what: `links.${name} ${kept}`, expected: wanted, actual: linkParam(url, kept) ?? 'absent' };
    }
  }
  const first = urls.get('first');
  if (first !== undefined && offsetOf(first) !== 0) return { what: 'links.first page[offset]', expected: 0, actual: offsetOf(first) };
  const current = urls.get('current');
  if (current !== undefined && offsetOf(current) !== offset) return { what: 'links.current page[offset]', expected: offset, actual: offsetOf(current) };
  const prev = urls.get('prev');
  if (offset === 0 && prev !== undefined) return { what: 'links.prev on the first page', expected: null, actual: prev.href };
  const prevOffset = prev === undefined ? undefined : offsetOf(prev);
  if (prevOffset !== undefined && prevOffset >= offset) return { what: 'links.prev page[offset]', expected: `below ${offset}`, actual: prevOffset };
  if (m.totalMethod !== 'exact') return undefined;
  const next = urls.get('next');
  const onLastPage = offset + limit >= total;
  if (onLastPage && next !== undefined) return { what: 'links.next on the last page', expected: null, actual: next.href };
  if (!onLastPage && (next === undefined || offsetOf(next) !== offset + limit)) {
    return { what: 'links.next page[offset]', expected: offset + limit, actual: next === undefined ? null : offsetOf(next) };
  }
  const last = urls.get('last');
  if (total > limit && last === undefined) return { what: 'links.last with several pages', expected: 'a URL', actual: null };
  const lastOffset = last === undefined ? undefined : offsetOf(last);
  if (lastOffset !== undefined && lastOffset > Math.max(0, total - 1)) return { what: 'links.last page[offset]', expected: `at most ${Math.max(0, total - 1)}`, actual: lastOffset };
  return undefined;
}

const linksConsistent: Rule = {
  id: 'pagination.links.consistent',
  family: 'pagination',
  section: 'API-NOTES "Response envelope"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'links agree with meta (parsed as URLs: first offset 0; next offset+limit or null on the last page; prev null on the first page; same limit; other query parameters kept).',
  check: (ctx) =>
    // judges: every list GET answering 200 with meta: links parsed as URLs agree with meta (limit, first 0, current, next, prev, last; sort/filter kept)
    judgeEach(paginatedGets(ctx), 'no list response with meta', (ex): Outcome => {
      if (pageMeta(ex.json).resultsTotal === undefined) return skip('meta incomplete');
      const problem = linksProblem(ex);
      return problem === undefined ? pass : fail(`${describe(ex)}: ${problem.what}`, problem.expected, problem.actual);
    }),
};

/** A GET answering 200 on a list path answers a paginated list: a data array plus the pagination members. */
function paginatedListAt(paths: (path: string) => string | undefined, none: string) {
  return (ctx: CheckContext): Outcome =>
    judgeEach(ctx.exchanges, none, (ex) => {
      const template = paths(pathOf(ex.request.url));
      if (!isGet(ex) || ex.response.status !== 200 || template === undefined) return skip('not a GET of such a list path');
      if (asList(ex.json) === undefined) return fail(`${describe(ex)} (${template}): no data array`, 'data array', typeof at(ex.json, 'data'));
      const missing = missingPageMembers(ex.json);
      return missing.length === 0 ? pass : fail(`${describe(ex)} (${template}): pagination meta missing`, 'numeric page and results.total', missing);
    });
}

const shownListPath = (path: string): string | undefined => (SHOWN_LIST_PATHS as readonly string[]).find((p) => p === path || `${p}/` === path);
const publicListPath = (path: string): string | undefined => (shownListPath(path) === undefined ? documentedListPath(path) : undefined);

const endpointsListed: Rule = {
  id: 'pagination.endpoints.listed',
  family: 'pagination',
  section: '§4.2',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote:
    'List endpoints that support pagination, by operation name: Get All Accounts; ... Get all Orders; ... Get all Files; ... Paths for these list endpoints are not shown, except /v2/orders, /v2/files and /v2/accounts, which appear in text.',
  statement: 'the list endpoints whose paths the document shows (/v2/accounts, /v2/orders, /v2/files) answer a paginated list (data array plus the pagination members).',
  // judges: every GET answering 200 on /v2/accounts, /v2/orders or /v2/files: data array plus numeric page and results members
  check: paginatedListAt(shownListPath, 'no GET of a list path the document shows'),
};

const endpointsPublicPaths: Rule = {
  id: 'pagination.endpoints.public-paths',
  family: 'pagination',
  section: 'API-NOTES "Real paths of the list endpoints"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'the other list endpoints the document names answer a paginated list at the paths of the public API.',
  // judges: every GET answering 200 on another path of API-NOTES' table: data array plus numeric page and results members
  check: paginatedListAt(publicListPath, 'no GET of a public-API list path'),
};

export const paginationMetaRules = {
  metaPresent,
  metaPresentWhenEmpty,
  metaPosition,
  offsetEcho,
  pageTotal,
  pageTotalEmpty,
  pageCurrent,
  endpointsPublicPaths,
  resultsTotal,
  linksPresent,
  linksConsistent,
  endpointsListed,
} as const;
