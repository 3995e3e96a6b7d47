/** Page length: default, project setting, per call, maximum, clamping, bad values (commerce-api.md §4.2, §8). */
import type { Exchange } from '../port.js';
import {
  asList,
  at,
  classifyPageParam,
  DEFAULT_PAGE_LENGTH,
  describe,
  expectError,
  is2xx,
  isAsideStatus,
  isListRead,
  isSettingsPath,
  judgeEach,
  listQuery,
  MAX_PAGE_LENGTH,
  methodIs,
  OFFSET_LIMIT,
  pageMeta,
  paginatedGets,
  pathOf,
  requestJson,
  varNumber,
  wholeNumber,
} from './inspect.js';
import { fail, pass, skip, type CheckContext, type Outcome, type Rule } from './rule.js';

/** For each exchange, the page_length of the last successful settings write before it, if any: one pass, not one per read. */
function settingsPageLengths(exchanges: readonly Exchange[]): readonly (number | undefined)[] {
  const out: (number | undefined)[] = [];
  let n: number | undefined;
  for (const ex of exchanges) {
    out.push(n);
    if (!methodIs(ex, 'PUT', 'PATCH', 'POST') || !isSettingsPath(pathOf(ex.request.url)) || !is2xx(ex.response.status)) continue;
    const v = at(requestJson(ex), 'data', 'page_length');
    if (typeof v === 'number' && Number.isInteger(v)) n = v;
  }
  return out;
}

/** A list response's page length against an expected limit: meta.page.limit equal and no more records. */
function pageLengthIs(ex: Exchange, n: number, why: string): Outcome {
  const limit = pageMeta(ex.json).limit;
  const count = asList(ex.json)?.data.length ?? 0;
  const tooMany = fail(`${describe(ex)}: more records than the page length ${why}`, `at most ${n}`, count);
  // A missing meta.page.limit is pagination.meta.present's failure; only the record count is judged here.
  if (limit === undefined) return count <= n ? skip('meta.page.limit missing (pagination.meta.present)') : tooMany;
  if (limit !== n) return fail(`${describe(ex)}: meta.page.limit ${why}`, n, limit);
  return count <= n ? pass : tooMany;
}

/** The list reads of ctx, each with the page_length the last settings write before it set (if any). */
const listReads = (ctx: CheckContext): { ex: Exchange; setBefore: number | undefined }[] => {
  const lists = new Set(paginatedGets(ctx));
  const set = settingsPageLengths(ctx.exchanges);
  return ctx.exchanges.flatMap((ex, i) => (lists.has(ex) ? [{ ex, setBefore: set[i] }] : []));
};

const limitDefault: Rule = {
  id: 'pagination.limit.default',
  family: 'pagination',
  section: '§8',
  level: 'documented',
  quote: 'Default page length | 25. Changeable globally per project through a settings endpoint, or per call with page[limit].',
  statement: 'without page[limit], a project whose page_length is unchanged answers pages of 25 (meta.page.limit 25, at most 25 records).',
  onTraffic: {
    scope: 'exchange',
    kinds: ['read'],
    failsOnlyWhen: {
      variable: 'page_length_known',
      reason: "the project's page length is not known from this traffic (§8: it is changeable per project; a GET or write of the settings endpoint in the traffic tells it)",
    },
    // A client that set the page length itself reads pages of that length: pagination.limit.project-setting's to judge.
    notOfferedWhen: 'page_length_written',
  },
  check: (ctx) =>
    // judges: every list GET answering 200 without page[limit] and with no settings write before it in ctx: limit = vars.page_length, else 25
    judgeEach(listReads(ctx), 'no list read without page[limit]', ({ ex, setBefore }) => {
      if (listQuery(ex.request.url).limit !== undefined || setBefore !== undefined) return skip('limit given or setting changed');
      if (pageMeta(ex.json).limit === undefined) return skip('meta.page.limit missing (pagination.meta.present)');
      const n = varNumber(ctx.vars, 'page_length') ?? DEFAULT_PAGE_LENGTH;
      return pageLengthIs(ex, n, 'by default');
    }),
};

const limitProjectSetting: Rule = {
  id: 'pagination.limit.project-setting',
  family: 'pagination',
  section: '§8',
  level: 'documented',
  onTraffic: { scope: 'session' },
  quote: 'Default page length | 25. Changeable globally per project through a settings endpoint, or per call with page[limit].',
  statement: 'after page_length is changed through the settings endpoint, lists without page[limit] use it.',
  check: (ctx) =>
    // judges: list GETs without page[limit] after a settings write (a PUT /v2/settings {data:{page_length n}} in ctx, or the
    // page length a setup step set, in vars.project_page_length): meta.page.limit n, at most n records
    judgeEach(listReads(ctx), 'no list read without page[limit] after a settings write', ({ ex, setBefore }) => {
      const n = setBefore ?? projectPageLength(ctx.vars);
      if (listQuery(ex.request.url).limit !== undefined || n === undefined) return skip('limit given or no setting');
      return pageLengthIs(ex, n, `after page_length was set to ${n}`);
    }),
};

/** The page length a setup step set (captured from its answer), so the probe itself holds only documented reads. */
function projectPageLength(vars: CheckContext['vars']): number | undefined {
  const v = vars['project_page_length'];
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
  return n !== undefined && n >= 1 && n <= MAX_PAGE_LENGTH ? n : undefined;
}

const limitPerCall: Rule = {
  id: 'pagination.limit.per-call',
  family: 'pagination',
  section: '§4.2, §8',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'page[limit] | Optional | number | Number of records per page.',
  statement: 'page[limit]=n (1..100) answers at most n records with meta.page.limit n.',
  check: (ctx) =>
    // judges: every list GET answering 200 with page[limit]=n, n a whole number 1..100: meta.page.limit n, at most n records
    judgeEach(paginatedGets(ctx), 'no list read with page[limit] 1..100', (ex) => {
      const n = wholeNumber(listQuery(ex.request.url).limit);
      if (n === undefined || n < 1 || n > MAX_PAGE_LENGTH) return skip('no page[limit] in 1..100');
      return pageLengthIs(ex, n, `for page[limit]=${n}`);
    }),
};

const limitMax: Rule = {
  id: 'pagination.limit.max',
  family: 'pagination',
  section: '§2.3, §8',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'Maximum page length | 100 on any paginated call.',
  statement: 'no list response carries more than 100 records or meta.page.limit above 100.',
  check: (ctx) =>
    // judges: every list GET answering 200: at most 100 records and meta.page.limit ≤ 100
    judgeEach(paginatedGets(ctx), 'no list response', (ex) => {
      const limit = pageMeta(ex.json).limit;
      const count = asList(ex.json)?.data.length ?? 0;
      if (limit !== undefined && limit > MAX_PAGE_LENGTH) return fail(`${describe(ex)}: meta.page.limit above the maximum`, `at most ${MAX_PAGE_LENGTH}`, limit);
      return count <= MAX_PAGE_LENGTH ? pass : fail(`${describe(ex)}: more records than the maximum page length`, `at most ${MAX_PAGE_LENGTH}`, count);
    }),
};

const limitClamp: Rule = {
  id: 'pagination.limit.clamp',
  family: 'pagination',
  section: 'API-NOTES "Page limits"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'page[limit] above 100 answers 200 with meta.page.limit 100.',
  check: (ctx) =>
    // judges: every list GET with a whole page[limit] above 100 (offset absent or whole; no sort/filter blamed for a 400): 200 with meta.page.limit 100
    judgeEach(ctx.exchanges, 'no list read with page[limit] above 100', (ex) => {
      const q = listQuery(ex.request.url);
      const n = wholeNumber(q.limit);
      if (!isListRead(ex) || n === undefined || n <= MAX_PAGE_LENGTH || isAsideStatus(ex.response.status)) return skip('no page[limit] above 100');
      if (q.offset !== undefined && wholeNumber(q.offset) === undefined) return skip('offset invalid');
      if (ex.response.status === 400 && (q.sort !== undefined || q.filter !== undefined || (wholeNumber(q.offset) ?? 0) > OFFSET_LIMIT)) return skip('400 may be for sort, filter or offset');
      if (ex.response.status !== 200) return fail(`${describe(ex)} answered ${ex.response.status}`, 200, ex.response.status);
      const limit = pageMeta(ex.json).limit;
      return limit === MAX_PAGE_LENGTH ? pass : fail(`${describe(ex)}: meta.page.limit for page[limit]=${n}`, MAX_PAGE_LENGTH, limit);
    }),
};

/** Why a request's page parameters are invalid (zero/negative/fractional/non-numeric), or undefined. */
function badPageParams(url: string): string | undefined {
  const q = listQuery(url);
  if (q.limit !== undefined) {
    const c = classifyPageParam(q.limit);
    if (c.kind === 'bad' || (c.kind === 'whole' && c.value === 0)) return `page[limit]=${q.limit}`;
  }
  if (q.offset !== undefined && classifyPageParam(q.offset).kind === 'bad') return `page[offset]=${q.offset}`;
  return undefined;
}

const paramsInvalid400: Rule = {
  id: 'pagination.params.invalid-400',
  family: 'pagination',
  section: 'API-NOTES "Page limits"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'zero, negative, fractional or non-numeric page[limit], or negative/fractional/non-numeric page[offset], answer 400 with the error array.',
  check: (ctx) =>
    // judges: every list GET whose page[limit] is 0/negative/fractional/non-numeric or page[offset] negative/fractional/non-numeric: 400 + error array
    judgeEach(ctx.exchanges, 'no list read with an invalid page parameter', (ex) => {
      const bad = badPageParams(ex.request.url);
      if (!isListRead(ex) || bad === undefined || isAsideStatus(ex.response.status)) return skip('page parameters fine');
      return expectError(ex, 400, bad);
    }),
};

export const paginationLimitRules = { limitDefault, limitProjectSetting, limitPerCall, limitMax, limitClamp, paramsInvalid400 } as const;
