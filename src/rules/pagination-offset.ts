/** Offsets: records counted, and the hard and soft offset limits (commerce-api.md §2.3, §4.2, §8). */
import type { Exchange } from '../port.js';
import {
  asList,
  describe,
  errorDetails,
  expectError,
  idsOf,
  is2xx,
  isAdminWrite,
  isAsideStatus,
  changesState,
  clearListQuery,
  isGet,
  isHardOffsetPath,
  isPaginatedPath,
  judgeEach,
  listQuery,
  MAX_PAGE_LENGTH,
  OFFSET_LIMIT,
  paginatedGets,
  pathOf,
  requestedOffset,
  varNumber,
  wholeNumber,
} from './inspect.js';
import { fail, pass, skip, type CheckContext, type Outcome, type Rule } from './rule.js';

const short = (ids: readonly string[]): string => (ids.length > 5 ? `${ids.slice(0, 5).join(', ')}, ... (${ids.length})` : ids.join(', '));

/** Reads of one list (path, sort, filter, with no write or admin action between them) grouped, in order. */
function sameListGroups(ctx: CheckContext): Exchange[][] {
  const lists = new Set(paginatedGets(ctx));
  const groups = new Map<string, Exchange[]>();
  let writes = 0;
  for (const ex of ctx.exchanges) {
    if (changesState(ex)) writes++;
    if (!lists.has(ex)) continue;
    const q = listQuery(ex.request.url);
    const key = JSON.stringify([writes, pathOf(ex.request.url).replace(/\/$/, ''), q.sort ?? '', q.filter ?? '']);
    const g = groups.get(key) ?? [];
    g.push(ex);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** Judges one group against its widest page from offset 0; undefined when nothing overlaps it. */
function judgeGroup(group: readonly Exchange[]): Outcome | undefined {
  let wide: Exchange | undefined;
  for (const ex of group) {
    if (requestedOffset(ex.request.url) === 0 && idsOf(ex.json).length > (wide === undefined ? -1 : idsOf(wide.json).length)) wide = ex;
  }
  if (wide === undefined) return undefined;
  const wideIds = idsOf(wide.json);
  let judged = false;
  for (const ex of group) {
    const k = requestedOffset(ex.request.url);
    if (ex === wide || k === undefined || k >= wideIds.length) continue;
    const ids = idsOf(ex.json);
    const n = Math.min(ids.length, wideIds.length - k);
    if (n === 0 && wideIds.length > k) return fail(`${describe(ex)}: empty page at offset ${k}`, short(wideIds.slice(k, k + 5)), 'no records');
    judged = true;
    // Compared id by id (no text built per page: a poller reads the same page hundreds of times a chunk).
    let same = true;
    for (let i = 0; i < n && same; i++) same = ids[i] === wideIds[k + i];
    if (!same) {
      return fail(`${describe(ex)}: page at offset ${k} is not records ${k + 1}.. of ${describe(wide)}`, short(wideIds.slice(k, k + n)), short(ids.slice(0, n)));
    }
  }
  return judged ? pass : undefined;
}

const offsetRecords: Rule = {
  id: 'pagination.offset.records',
  family: 'pagination',
  section: '§2.3, §4.2',
  level: 'documented',
  onTraffic: { scope: 'session' },
  quote: 'page[offset]: Current offset counted in records, not pages. Zero-based.',
  statement: 'page[offset] counts records, zero-based: the page at offset k begins with the (k+1)-th record of the same ordering.',
  check: (ctx) => {
    // judges: ctx = list GETs of one list (same path, sort, filter, no write or admin action between): a wide page from offset 0, pages at offset k = the wide page's records k..k+n (by id)
    const outcomes = sameListGroups(ctx).map(judgeGroup);
    const failed = outcomes.find((o) => o?.status === 'fail');
    if (failed !== undefined) return failed;
    return outcomes.some((o) => o !== undefined) ? pass : skip('no page at an offset inside a wider page from offset 0 of the same list');
  },
};

/** GETs of /v2/orders or /v2/files past the hard offset limit. */
const pastHardLimit = (ex: Exchange): boolean => {
  const offset = wholeNumber(listQuery(ex.request.url).offset);
  return isGet(ex) && isHardOffsetPath(pathOf(ex.request.url)) && offset !== undefined && offset > OFFSET_LIMIT && !isAsideStatus(ex.response.status) && clearListQuery(ex);
};

const hardLimit: Rule = {
  id: 'pagination.offset-limit.hard',
  family: 'pagination',
  section: '§8',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'Offset limit for /v2/orders and /v2/files: Hard limit of 10,000 records.',
  statement: '/v2/orders and /v2/files never return records past offset 10,000.',
  check: (ctx) =>
    // judges: every GET of /v2/orders or /v2/files with page[offset] above 10000: no 2xx carrying records
    judgeEach(ctx.exchanges, 'no orders/files read past offset 10,000', (ex) => {
      if (!pastHardLimit(ex)) return skip('within the limit');
      const count = asList(ex.json)?.data.length ?? 0;
      return is2xx(ex.response.status) && count > 0 ? fail(`${describe(ex)}: records returned past the hard offset limit`, 'no records', `${count} records`) : pass;
    }),
};

const hardLimit400: Rule = {
  id: 'pagination.offset-limit.hard-400',
  family: 'pagination',
  section: 'API-NOTES "Page limits"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'such a request answers 400 with a detail pointing at sort and filter.',
  check: (ctx) =>
    // judges: every GET of /v2/orders or /v2/files with page[offset] above 10000: 400 + error array, a detail naming sort or filter
    judgeEach(ctx.exchanges, 'no orders/files read past offset 10,000', (ex) => {
      if (!pastHardLimit(ex)) return skip('within the limit');
      const o = expectError(ex, 400, 'past the hard offset limit');
      if (o.status !== 'pass') return o;
      const details = errorDetails(ex.json);
      return details.some((d) => /sort|filter/i.test(d)) ? pass : fail(`${describe(ex)}: the detail does not point at sort and filter`, 'a detail naming sort/filter', details);
    }),
};

/** A GET of a paginated path other than orders/files with an explicit whole page[offset]. */
function softOffset(ex: Exchange): number | undefined {
  const path = pathOf(ex.request.url);
  if (!isGet(ex) || !isPaginatedPath(path) || isHardOffsetPath(path) || isAsideStatus(ex.response.status) || !clearListQuery(ex)) return undefined;
  return wholeNumber(listQuery(ex.request.url).offset);
}

const softLimit: Rule = {
  id: 'pagination.offset-limit.soft',
  family: 'pagination',
  section: '§8',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'Offset limit for other paginated endpoints: Soft limit of 10,000 records.',
  statement: 'other paginated endpoints accept offsets up to 10,000 by default.',
  check: (ctx) =>
    // judges: every GET of a paginated path other than orders/files with page[offset] < 10000, no sort/filter, page[limit] absent or 1..100: 200 (404 not judged)
    judgeEach(ctx.exchanges, 'no read with an explicit offset up to 10,000', (ex) => {
      const offset = softOffset(ex);
      const q = listQuery(ex.request.url);
      const limit = q.limit === undefined ? 1 : wholeNumber(q.limit);
      // A page[limit] above 100 may be refused for itself ("settable up to 100"): such a read says nothing of the offset.
      // Exactly 10,000 is within "a limit of 10,000 records" or just past it (rules/readings.ts offset.edge): not judged.
      if (offset === undefined || offset >= OFFSET_LIMIT || q.sort !== undefined || q.filter !== undefined || limit === undefined || limit < 1 || limit > MAX_PAGE_LENGTH) return skip('not judged');
      if (ex.response.status === 404) return skip('404: the parent may not exist');
      return ex.response.status === 200 ? pass : fail(`${describe(ex)}: offset ${offset} refused`, 200, ex.response.status);
    }),
};

const softLimit400: Rule = {
  id: 'pagination.offset-limit.soft-400',
  family: 'pagination',
  section: 'API-NOTES "Page limits"',
  level: 'assumed',
  onTraffic: { scope: 'scripted' },
  statement: "past the project's page_offset_limit they answer 400; after the operator raises it the same offset answers 200.",
  check: (ctx) => {
    // judges: ctx = GETs past page_offset_limit (vars, else 10000) on a soft path: 400 + error array; after a 2xx admin PUT/POST to /__sim/..., the same GET URLs: 200
    const limit = varNumber(ctx.vars, 'page_offset_limit') ?? OFFSET_LIMIT;
    const refused = new Set<string>();
    let raised = false;
    let judged = false;
    for (const ex of ctx.exchanges) {
      if (isAdminWrite(ex)) raised = refused.size > 0 || raised;
      const offset = softOffset(ex);
      if (offset === undefined || offset <= limit) continue;
      if (!raised) {
        const o = expectError(ex, 400, `past page_offset_limit ${limit}`);
        if (o.status === 'fail') return o;
        refused.add(ex.request.url);
        judged = true;
      } else if (refused.has(ex.request.url)) {
        if (ex.response.status !== 200) return fail(`${describe(ex)}: still refused after the operator raised the limit`, 200, ex.response.status);
        judged = true;
      }
    }
    return judged ? pass : skip('no read past the soft offset limit');
  },
};

export const paginationOffsetRules = { offsetRecords, hardLimit, hardLimit400, softLimit, softLimit400 } as const;
