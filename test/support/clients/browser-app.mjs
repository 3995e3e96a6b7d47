// Data layer of a back-office UI that lists accounts (GET /v2/accounts), written from the Commerce API
// document alone. It behaves like a human-driven UI: a "latest accounts" peek, a paged table where the
// user clicks "next" a few times and stops, and a "jump to page N" control. It never reads everything.
/* global AbortSignal */

const MAX_LIMIT = 100; // §2.3/§8: page[limit] settable up to 100 on any paginated call
const DEFAULT_LIMIT = 25; // §8: documented default, but a project may change it, so we always send page[limit]
const OFFSET_LIMIT = 10000; // §8: soft offset limit; past it the document points to sort-and-filter instead
const MAX_ATTEMPTS = 6; // per request, across 429 / 5xx / network retries
const MAX_RETRY_AFTER_S = 60; // a UI does not freeze longer than this; it tells the user to try later
const TIMEOUT_MS = 30000;

/** @typedef {{ limit?: number, offset?: number, current?: number, totalPages?: number, totalResults?: number }} PageMeta */
/** @typedef {{ ids: string[], meta: PageMeta, next?: string }} Page */

class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** @param {unknown} v @returns {number | undefined} a non-negative integer (servers may send numbers as strings) */
function int(v) {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObj = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** @param {Record<string, any>} o @param {string} name reads `name` or the flat `page[name]` form */
const member = (o, name) => (name in o ? o[name] : o[`page[${name}]`]);

/**
 * §2.3 says where the page/results attributes sit in the body is "not shown", so search for them
 * (breadth-first, skipping the records themselves) instead of assuming body.meta.page.
 * @param {Record<string, any>} body @returns {PageMeta}
 */
function findMeta(body) {
  /** @type {Record<string, any> | undefined} */ let page;
  /** @type {unknown} */ let totalResults;
  const queue = [body];
  for (let seen = 0; queue.length && seen < 50 && (!page || totalResults === undefined); seen++) {
    const o = queue.shift();
    page ??= isObj(o.page) ? o.page : 'page[limit]' in o || 'page[offset]' in o ? o : undefined;
    totalResults ??= isObj(o.results) ? o.results.total : o['results[total]'];
    for (const [k, v] of Object.entries(o)) if (k !== 'data' && isObj(v)) queue.push(v);
  }
  if (!page) return { totalResults: int(totalResults) };
  return {
    limit: int(member(page, 'limit')),
    offset: int(member(page, 'offset')),
    current: int(member(page, 'current')),
    totalPages: int(member(page, 'total')),
    totalResults: int(totalResults),
  };
}

/** @param {Record<string, any> | string | undefined} body @returns {string} a message from any error shape (§7 defines none) */
function errorText(body) {
  if (typeof body === 'string') return body.slice(0, 200);
  const e = body?.errors?.[0] ?? body?.error ?? body;
  return String(e?.detail ?? e?.message ?? e?.title ?? JSON.stringify(body ?? '')).slice(0, 200);
}

/** @param {string | null} h @returns {number | undefined} seconds to wait: delta-seconds or an HTTP date */
function retryAfterSeconds(h) {
  if (!h) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(h)) return Number(h);
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

/**
 * @param {{ baseUrl: string, token: string, fetch?: typeof fetch, sleep?: (ms: number) => Promise<void>, pageSize?: number, sort?: string, clicks?: number, jumpTo?: number }} options
 */
export async function run(options) {
  const { baseUrl, token } = options;
  if (!baseUrl || !token) throw new Error('baseUrl and token are required');
  const doFetch = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const listUrl = new URL(`${baseUrl.replace(/\/+$/, '')}/v2/accounts`);
  const summary = {
    latest: /** @type {string[]} */ ([]),
    table: {},
    screens: /** @type {any[]} */ ([]),
    jump: /** @type {any} */ (null),
    notices: /** @type {string[]} */ ([]),
    errors: /** @type {string[]} */ ([]),
    requests: 0,
  };

  /** GET with bearer auth; retries 429 (after Retry-After), 5xx and dropped connections, which are safe for a read. */
  async function get(/** @type {string} */ url) {
    for (let attempt = 1; ; attempt++) {
      let res;
      summary.requests++;
      try {
        const signal = typeof AbortSignal?.timeout === 'function' ? AbortSignal.timeout(TIMEOUT_MS) : undefined;
        res = await doFetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' }, signal });
      } catch (err) {
        if (attempt >= MAX_ATTEMPTS) throw new ApiError(0, `network error: ${/** @type {Error} */ (err).message}`);
        await sleep(500 * 2 ** (attempt - 1));
        continue;
      }
      const text = await res.text().catch(() => '');
      let body;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text; // not JSON: keep it for the error message
      }
      if (res.ok && isObj(body)) return body;
      if (res.ok) throw new ApiError(res.status, 'response body is not a JSON object');
      const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
      if (!retryable || attempt >= MAX_ATTEMPTS) throw new ApiError(res.status, errorText(body));
      const wait = retryAfterSeconds(res.headers.get('retry-after'));
      if (wait !== undefined && wait > MAX_RETRY_AFTER_S) throw new ApiError(res.status, `server busy; retry after ${Math.ceil(wait)} s`);
      // Never come back sooner than Retry-After says; without it, back off exponentially.
      await sleep(wait !== undefined ? Math.ceil(wait * 1000) : 1000 * 2 ** (attempt - 1));
    }
  }

  /** @param {{ limit: number, offset: number, sort?: string }} q */
  function pageUrl(q) {
    const u = new URL(listUrl);
    u.searchParams.set('page[limit]', String(q.limit));
    u.searchParams.set('page[offset]', String(q.offset));
    if (q.sort) u.searchParams.set('sort', q.sort);
    return u.href;
  }

  /** A pagination link is only followed to the same origin and list path: it would carry our token. */
  function safeLink(/** @type {unknown} */ href) {
    if (typeof href !== 'string' || !href) return undefined;
    try {
      const u = new URL(href, listUrl);
      return u.origin === listUrl.origin && u.pathname.replace(/\/+$/, '') === listUrl.pathname ? u.href : undefined;
    } catch {
      return undefined;
    }
  }

  /** @param {string} url @returns {Promise<Page>} */
  async function fetchPage(url) {
    const body = await get(url);
    const rows = Array.isArray(body.data) ? body.data : [];
    const ids = rows.map((r) => (isObj(r) && r.id != null ? String(r.id) : '')).filter(Boolean);
    return { ids, meta: findMeta(body), next: safeLink(isObj(body.links) ? body.links.next : undefined) };
  }

  // 1. "Latest accounts" widget: one small peek in the server's default order (the document defines no
  //    descending sort, so we do not invent one such as sort=-created_at).
  try {
    summary.latest = (await fetchPage(pageUrl({ limit: 10, offset: 0 }))).ids;
  } catch (err) {
    summary.errors.push(`latest: ${describe(err)}`);
    // Signed out (401) or still rate limited after retrying (429): the rest of the screen would fail the
    // same way, so the UI shows the message instead of sending more requests.
    if (err instanceof ApiError && (err.status === 401 || err.status === 429)) return summary;
  }

  // 2. Accounts table. The user's page size is kept within the documented 1..100; the server's grant
  //    (page[limit] in the response) then decides how far "next" moves.
  const wanted = Math.floor(Number(options.pageSize ?? DEFAULT_LIMIT));
  const requested = wanted >= 1 ? Math.min(MAX_LIMIT, wanted) : DEFAULT_LIMIT; // nonsense sizes get the default
  if (requested !== wanted) summary.notices.push(`page size ${options.pageSize} is outside 1..${MAX_LIMIT}; asked for ${requested}`);
  const clicks = Math.max(0, Math.floor(Number(options.clicks ?? 2)) || 0);
  let sort = options.sort || undefined;
  let limit = requested;
  summary.table = { requestedPageSize: options.pageSize ?? DEFAULT_LIMIT, sort: sort ?? null };

  // First screen. If the server refuses (400) the user's sort or size, fall back like a UI would: show
  // the default order / default size with a notice rather than an empty table. The sort goes first: the
  // size is already within the documented range, a sort attribute (e.g. name) is not a documented one.
  const tries = [{ limit, sort }];
  if (sort) tries.push({ limit, sort: undefined });
  if (limit !== DEFAULT_LIMIT) tries.push({ limit: DEFAULT_LIMIT, sort });
  if (sort && limit !== DEFAULT_LIMIT) tries.push({ limit: DEFAULT_LIMIT, sort: undefined });
  /** @type {Page | undefined} */
  let page;
  const refused = [];
  for (const t of tries) {
    try {
      page = await fetchPage(pageUrl({ ...t, offset: 0 }));
      summary.notices.push(...refused);
      if (t.sort !== sort) summary.notices.push(`showing the server's default order instead of sort=${sort}`);
      if (t.limit !== limit) summary.notices.push(`showing page[limit]=${t.limit} instead of ${limit}`);
      ({ limit, sort } = t);
      break;
    } catch (err) {
      refused.push(`table page 1 (limit ${t.limit}, sort ${t.sort ?? 'none'}): ${describe(err)}`);
      if (!(err instanceof ApiError && err.status === 400)) break;
    }
  }
  if (!page) {
    summary.errors.push(...refused);
    return summary;
  }
  summary.table.appliedSort = sort ?? null;

  const shown = new Set();
  /** Records one screen and works out where "next" points, from the granted page size. */
  const show = (/** @type {Page} */ p, /** @type {number} */ asked) => {
    const granted = p.meta.limit && p.meta.limit > 0 ? p.meta.limit : limit;
    const at = p.meta.offset ?? asked;
    const repeated = p.ids.filter((id) => shown.has(id)).length;
    p.ids.forEach((id) => shown.add(id));
    const screen = { page: Math.floor(at / granted) + 1, offset: at, limit: granted, ids: p.ids, totalResults: p.meta.totalResults ?? null, totalPages: p.meta.totalPages ?? null };
    if (repeated) screen.repeatedFromEarlierScreens = repeated; // rows shifted between clicks (live data)
    summary.screens.push(screen);
    return { granted, at };
  };
  let { granted, at } = show(page, 0);
  if (granted !== requested) summary.notices.push(`server granted page[limit]=${granted} (asked ${requested})`);
  summary.table.grantedPageSize = granted;

  // 3. The user clicks "next" a few times, then stops.
  for (let click = 0; click < clicks; click++) {
    const nextOffset = at + granted;
    const total = page.meta.totalResults ?? (page.meta.totalPages !== undefined ? page.meta.totalPages * granted : undefined);
    const lastPage = page.ids.length === 0 || (total !== undefined ? nextOffset >= total : !page.next && page.ids.length < granted);
    if (lastPage) break; // "next" is disabled on the last page
    if (nextOffset > OFFSET_LIMIT) {
      summary.notices.push(`offset ${nextOffset} is past the ${OFFSET_LIMIT}-record offset limit; narrow the list with sort and filter`);
      break;
    }
    // The documented metadata decides the next offset; a server-given next link is used only when the
    // metadata is missing (links are not part of the document).
    const url = page.meta.limit === undefined && page.next ? page.next : pageUrl({ limit: granted, offset: nextOffset, sort });
    try {
      page = await fetchPage(url);
    } catch (err) {
      summary.errors.push(`table next (offset ${nextOffset}): ${describe(err)}`);
      break;
    }
    ({ granted, at } = show(page, nextOffset));
  }

  // 4. "Jump to page N" (1-based for the human), bounded by page[total] from the latest response. The
  //    offset is computed from the granted limit, not page[current], whose base the document leaves open.
  const pages = page.meta.totalPages ?? (page.meta.totalResults !== undefined ? Math.ceil(page.meta.totalResults / granted) : undefined);
  if (pages) {
    // Clamp to 1..page[total], and to the soft offset limit.
    const n = Math.min(pages, Math.floor(OFFSET_LIMIT / granted) + 1, Math.max(1, Math.floor(Number(options.jumpTo ?? pages)) || 1));
    try {
      // Jumping to the page already on screen needs no request.
      const target = (n - 1) * granted === at ? page : await fetchPage(pageUrl({ limit: granted, offset: (n - 1) * granted, sort }));
      const meta = target.meta;
      summary.jump = { requestedPage: n, of: pages, offset: meta.offset ?? (n - 1) * granted, ids: target.ids, totalPages: meta.totalPages ?? null };
    } catch (err) {
      summary.errors.push(`jump to page ${n}: ${describe(err)}`);
    }
  }
  return summary;
}

/** @param {unknown} err */
function describe(err) {
  return err instanceof ApiError ? `${err.status || 'no response'} ${err.message}` : String(err);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const arg = (/** @type {string} */ name) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const num = (/** @type {string | undefined} */ v) => (v === undefined ? undefined : Number(v));
  run({ baseUrl: arg('base') ?? '', token: arg('token') ?? '', pageSize: num(arg('page-size')), sort: arg('sort'), clicks: num(arg('clicks')), jumpTo: num(arg('jump')) })
    .then((s) => console.log(JSON.stringify(s, null, 2)))
    .catch((err) => {
      console.error(String(err?.message ?? err));
      process.exitCode = 1;
    });
}
