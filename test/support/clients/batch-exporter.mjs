// Batch exporter: the data team's nightly job that reads complete data sets from the Commerce API.
// Written from the API document alone (commerce-api.md). Where the document is silent (error shapes,
// where page metadata and timestamps sit, rate limits) the client is deliberately tolerant.

const MAX_PAGE = 100; // section 8: maximum page length on any paginated call
const SETTLE_MS = 10_000; // default buffer for eventual consistency near the present (section 4.3)
const SETTLE_ROUNDS = 3; // re-reads of the tail while late records keep turning up
const MAX_RESTARTS = 3; // per pass: re-reads of a shared timestamp whose offsets moved
const MAX_ATTEMPTS = 8; // per request, for 5xx / 408 / network errors / unreadable bodies
const MAX_THROTTLED = 30; // per request, for 429: the server says when to come back, so be more patient
const MAX_RETRY_AFTER_MS = 15 * 60_000; // longer waits than this fail the run instead of stalling it
const TIMEOUT_MS = 30_000; // per request

/** @typedef {Record<string, any>} Rec */
/** @typedef {{ baseUrl: string, token: string, fetch?: typeof fetch, sleep?: (ms: number) => Promise<void>, now?: () => number, pageSize?: number, collections?: string[], settleMs?: number }} Options */
/** @typedef {{ csv: string, byCreated: string[], orders: string[], files: string[] }} Result */
/** @typedef {{ get: (path: string, query: Record<string, string | number | undefined>) => Promise<{records: Rec[], limit: number}>, sleep: (ms: number) => Promise<void>, now: () => number, pageSize: number, settleMs: number }} Ctx */

/**
 * Runs the exports. collections picks them: 'accounts' (both account exports), or 'csv' / 'byCreated' alone, 'orders', 'files'.
 * @param {Options} options
 * @returns {Promise<Result>}
 */
export async function run(options) {
  const ctx = makeCtx(options);
  const want = new Set(options.collections ?? ['accounts', 'orders', 'files']);
  /** @type {Result} */
  const result = { csv: '', byCreated: [], orders: [], files: [] };
  if (want.has('accounts') || want.has('csv')) result.csv = await exportAccountsCsv(ctx);
  if (want.has('accounts') || want.has('byCreated')) result.byCreated = await exportByCreated(ctx, '/v2/accounts');
  // Orders and files have a hard offset limit of 10,000 (section 8), so offset paging cannot reach
  // everything: use the sort-and-filter pattern by unique id, which has no ties and a clear end.
  if (want.has('orders')) result.orders = (await readById(ctx, '/v2/orders', ctx.pageSize)).map(idOf);
  if (want.has('files')) result.files = (await readById(ctx, '/v2/files', ctx.pageSize)).map(idOf);
  return result;
}

/** Section 4.3 to the letter: page[limit]=100, sort=id, filter=gt(id,<last_id>), stop on an empty page. @param {Ctx} ctx */
async function exportAccountsCsv(ctx) {
  const rows = [['name', 'legal_name', 'registration_id', 'id']];
  for (const r of await readById(ctx, '/v2/accounts', MAX_PAGE)) rows.push([field(r, 'name'), field(r, 'legal_name'), field(r, 'registration_id'), idOf(r)]);
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'; // RFC 4180
}

/** Keyset read by unique id; each record once, in the order read. @param {Ctx} ctx @param {string} path @param {number} limit */
async function readById(ctx, path, limit) {
  /** @type {Map<string, Rec>} */
  const out = new Map();
  let last;
  for (;;) {
    const { records: page } = await ctx.get(path, { 'page[limit]': limit, sort: 'id', filter: last === undefined ? undefined : `gt(id,${last})` });
    if (page.length === 0) return [...out.values()]; // section 4.3: id-sorted reads stop on an empty page
    const next = idOf(page[page.length - 1]);
    if (next === last) throw new Error(`${path}: the cursor did not move past id ${last}; the server ignores filter=gt(id,...)`);
    for (const r of page) if (!out.has(idOf(r))) out.set(idOf(r), r);
    last = next;
  }
}

/**
 * Accounts in created_at order (section 4.3 with timestamps), de-duplicated by id.
 * Eventual consistency: records near the present may become visible late, behind a cursor that has passed them.
 * So once the first pass reaches the end and its newest records are older than the buffer (on our clock), the
 * stretch from a buffer before where it caught up with the present to where it ended is read again, while
 * late records keep turning up there. The ids are written sorted by created_at (ties keep the server's order).
 * @param {Ctx} ctx @param {string} path
 */
async function exportByCreated(ctx, path) {
  /** @type {Map<string, {key: string | null, seq: number}>} */
  const entries = new Map();
  const add = (/** @type {Rec} */ r) => !entries.has(idOf(r)) && !!entries.set(idOf(r), { key: tsKey(createdAt(r)), seq: entries.size });
  const first = await readByTime(ctx, path, undefined, add, null);
  const endKey = tsKey(first.newest);
  if (endKey !== null && first.caughtUpMs !== null) {
    const age = ctx.now() - (tsMs(first.newest) ?? 0);
    if (age < ctx.settleMs) await ctx.sleep(ctx.settleMs - Math.max(age, 0));
    const from = first.caughtUpMs - ctx.settleMs;
    // The filter value in the server's own form: ISO 8601, or epoch seconds / milliseconds.
    const start = typeof first.newest !== 'number' ? new Date(from).toISOString() : first.newest < 1e11 ? Math.floor(from / 1000) : from;
    for (let round = 0; round < SETTLE_ROUNDS; round++) if (!(await readByTime(ctx, path, start, add, endKey)).late) break;
  }
  const list = [...entries].map(([id, e]) => ({ id, key: e.key ?? '', seq: e.seq }));
  if ([...entries.values()].every((e) => e.key !== null)) list.sort((a, b) => (a.key === b.key ? a.seq - b.seq : a.key < b.key ? -1 : 1));
  return list.map((e) => e.id);
}

/**
 * One keyset pass (section 4.3): sort=created_at, then for each next page filter=ge(created_at,<last value of
 * the previous page>); records at that value come back again and are de-duplicated by add(). When a page's first
 * and last timestamps are identical the next page would repeat it, so page further within that timestamp with
 * page[offset]. Those pages overlap by one record: if it is not the one expected, records were inserted or
 * deleted meanwhile and offsets moved, so that timestamp is read again from its start.
 * The pass ends on an empty page, or once past until. It reports where it caught up with the present:
 * the first page that was short (the end of the data then) or reached within the buffer of now.
 * @param {Ctx} ctx @param {string} path @param {string | number | undefined} from
 * @param {(r: Rec) => boolean} add returns true for a record not seen before
 * @param {string | null} until key where the first pass ended; new records at or before it arrived late
 */
async function readByTime(ctx, path, from, add, until) {
  let [cursor, skip, anchor, late, restarts, prevEnds] = [from, 0, /** @type {string | null} */ (null), false, 0, ''];
  /** @type {{newest?: string | number, caughtUpMs: number | null, firstMs: number | null}} */
  const seen = { caughtUpMs: null, firstMs: null };
  const done = () => ({ newest: seen.newest, late, caughtUpMs: seen.caughtUpMs ?? seen.firstMs });
  for (;;) {
    const filter = cursor === undefined ? undefined : `ge(created_at,${cursor})`;
    const got = await ctx.get(path, { 'page[limit]': ctx.pageSize, sort: 'created_at', filter, 'page[offset]': (anchor === null ? skip : skip - 1) || undefined });
    let page = got.records;
    if (anchor !== null && page.length > 0 && idOf(page[0]) === anchor) page = page.slice(1);
    else if (anchor !== null && restarts++ < MAX_RESTARTS) {
      page.forEach(add);
      [skip, anchor] = [0, null];
      continue;
    } else if (anchor !== null) skip -= 1; // give up checking: this page starts one record earlier
    if (page.length === 0) return done();
    const ends = `${idOf(page[0])}|${idOf(page[page.length - 1])}|${page.length}`;
    if (ends === prevEnds) throw new Error(`${path}: the same page came back twice; the server ignores filter or page[offset]`);
    prevEnds = ends;
    for (const r of page) if (add(r) && until !== null && (tsKey(createdAt(r)) ?? '') <= until) late = true;
    const stamped = page.map(createdAt).filter((ts) => ts !== undefined);
    if (stamped.length === 0) throw new Error(`${path}: records carry no created_at; cannot page by timestamp`);
    const [firstTs, lastTs] = [stamped[0], stamped[stamped.length - 1]];
    seen.firstMs = tsMs(firstTs);
    const nearNow = (tsMs(lastTs) ?? -Infinity) >= ctx.now() - ctx.settleMs;
    if (seen.caughtUpMs === null && (got.records.length < got.limit || nearNow)) seen.caughtUpMs = seen.firstMs;
    if (!sameTs(firstTs, lastTs)) [cursor, skip, anchor] = [lastTs, 0, null];
    else if (cursor !== undefined && sameTs(cursor, lastTs)) [skip, anchor] = [skip + page.length, idOf(page[page.length - 1])];
    else [cursor, skip, anchor] = [lastTs, page.length, idOf(page[page.length - 1])]; // a page of one timestamp, starting it
    seen.newest = lastTs;
    if (until !== null && (tsKey(lastTs) ?? '') > until) return done();
  }
}

// ---- HTTP: one GET with retries, and tolerant reading of list answers ----

/** @param {Options} options @returns {Ctx} */
function makeCtx(options) {
  const doFetch = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? (() => Date.now());
  const base = String(options.baseUrl).replace(/\/+$/, '');
  const headers = { Authorization: `Bearer ${options.token}`, Accept: 'application/json' };
  /** @type {Map<string, number>} */
  const caps = new Map(); // per path: lowered to what the server grants (or to 100 if it refuses more)

  /** GET with retries: 429 and 503 honour Retry-After; 5xx, 408, network errors and unreadable 2xx bodies back off. @param {string} url */
  async function getJson(url) {
    for (let attempts = 0, throttled = 0; ;) {
      let [wait, why] = [/** @type {number | null} */ (null), ''];
      try {
        const res = await doFetch(url, { method: 'GET', headers, signal: globalThis.AbortSignal?.timeout?.(TIMEOUT_MS) });
        const text = await res.text();
        if (res.status >= 200 && res.status < 300) {
          try {
            const body = JSON.parse(text);
            if (recordsOf(body)) return body;
            why = 'a 2xx answer without a list of records';
          } catch {
            why = 'a 2xx answer that is not JSON';
          }
        } else if (res.status === 429 || res.status === 408 || (res.status >= 500 && res.status !== 501 && res.status !== 505)) {
          why = `HTTP ${res.status}`;
          wait = retryAfterMs(res.headers?.get?.('retry-after') ?? null, now());
        } else {
          // Other statuses are not transient (the document defines no errors): fail loudly with what the server said.
          throw Object.assign(new Error(`HTTP ${res.status} for ${url}: ${text.slice(0, 300)}`), { status: res.status });
        }
      } catch (err) {
        if (err instanceof Error && 'status' in err) throw err;
        why = `network error: ${err instanceof Error ? err.message : String(err)}`;
      }
      const throttle = why === 'HTTP 429';
      const failures = throttle ? ++throttled : ++attempts;
      if (failures >= (throttle ? MAX_THROTTLED : MAX_ATTEMPTS)) throw new Error(`GET ${url} failed after ${attempts + throttled} attempts (${why})`);
      if (wait !== null && wait > MAX_RETRY_AFTER_MS) throw new Error(`GET ${url}: server asks to retry after ${wait} ms; giving up (${why})`);
      await sleep(wait ?? Math.min(500 * 2 ** (failures - 1), 30_000));
    }
  }

  return {
    sleep,
    now,
    pageSize: Math.max(1, Math.floor(Number(options.pageSize) || MAX_PAGE)),
    settleMs: Math.max(0, Number(options.settleMs ?? SETTLE_MS)),
    async get(path, query) {
      for (;;) {
        const q = { ...query, 'page[limit]': Math.min(Number(query['page[limit]']), caps.get(path) ?? Infinity) };
        try {
          const body = await getJson(base + path + queryString(q));
          const granted = Number(findPage(body)?.limit);
          if (granted > 0 && granted < q['page[limit]']) caps.set(path, granted); // ask for what the server actually gives
          return { records: /** @type {Rec[]} */ (recordsOf(body)), limit: granted > 0 ? Math.min(granted, q['page[limit]']) : q['page[limit]'] };
        } catch (err) {
          // Some servers refuse page[limit] above the documented maximum instead of capping it.
          if (/** @type {any} */ (err).status !== 400 || q['page[limit]'] <= MAX_PAGE) throw err;
          caps.set(path, MAX_PAGE);
        }
      }
    },
  };
}

/** Retry-After as delay-seconds or an HTTP date; null when absent or unusable. @param {string | null} value @param {number} nowMs */
function retryAfterMs(value, nowMs) {
  if (value === null || value.trim() === '') return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** Literal page[...] keys as the document writes them; values percent-encoded. @param {Record<string, string | number | undefined>} q */
function queryString(q) {
  const parts = Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${encodeURIComponent(String(v)).replace(/%2C/gi, ',').replace(/%3A/gi, ':')}`]));
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The records of a list answer: data, or the answer itself if it is an array. @param {any} body */
function recordsOf(body) {
  if (Array.isArray(body)) return body;
  return Array.isArray(body?.data) ? body.data : null;
}

/** The page metadata, wherever the server puts it (meta.page, page, pagination.info.page, ...). @param {any} body @returns {Rec | undefined} */
function findPage(body, depth = 0) {
  if (!body || typeof body !== 'object' || Array.isArray(body) || depth > 3) return undefined;
  if (body.page && typeof body.page === 'object' && 'limit' in body.page) return body.page;
  if ('page[limit]' in body) return { limit: body['page[limit]'] };
  for (const [k, v] of Object.entries(body)) {
    const found = k === 'data' ? undefined : findPage(v, depth + 1);
    if (found) return found;
  }
  return undefined;
}

// ---- record fields, wherever they sit ----

/** @param {Rec} r */
function idOf(r) {
  return String(r?.id ?? r?.attributes?.id ?? '');
}

/** A top-level field, or one under attributes; snake_case or camelCase. @param {Rec} r @param {string} name */
function field(r, name) {
  const camel = name.replace(/_(.)/g, (_, c) => c.toUpperCase());
  for (const obj of [r, r?.attributes]) if (obj && typeof obj === 'object' && (obj[name] ?? obj[camel]) != null) return obj[name] ?? obj[camel];
  return '';
}

/** created_at from the record, meta, meta.timestamps or attributes (breadth-first, shallowest wins). @param {Rec} r */
function createdAt(r) {
  for (const queue = [{ v: r, d: 0 }]; queue.length;) {
    const { v, d } = /** @type {{v: any, d: number}} */ (queue.shift());
    if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
    const hit = v.created_at ?? v.createdAt;
    if (typeof hit === 'string' || typeof hit === 'number') return hit;
    if (d < 3) for (const [k, child] of Object.entries(v)) if (k !== 'links' && k !== 'relationships') queue.push({ v: child, d: d + 1 });
  }
  return undefined;
}

/** A sortable key keeping full fractional precision (microseconds must not collapse into one millisecond). @param {unknown} ts */
function tsKey(ts) {
  if (typeof ts === 'number') return keyOf(ts < 1e11 ? ts * 1000 : ts, '');
  const m = typeof ts === 'string' ? /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/i.exec(ts.trim()) : null;
  const ms = m ? Date.parse(`${m[1]}${m[3] ?? 'Z'}`) : NaN;
  return Number.isNaN(ms) ? null : keyOf(ms, m?.[2] ?? '');
}

/** Whole milliseconds (shifted to stay positive), then nine fraction digits. @param {number} ms @param {string} frac */
const keyOf = (ms, frac) => `${String(Math.floor(ms) + 1e15).padStart(17, '0')}.${frac.padEnd(9, '0')}`;

/** Milliseconds since the epoch, or null. @param {unknown} ts */
function tsMs(ts) {
  const key = tsKey(ts);
  return key === null ? null : Number(key.slice(0, 17)) - 1e15 + Number(`0.${key.slice(18)}`) * 1000;
}

/** @param {unknown} a @param {unknown} b */
function sameTs(a, b) {
  const ka = tsKey(a);
  return ka !== null ? ka === tsKey(b) : a === b;
}

/** RFC 4180 cell: quoted when it holds a comma, quote or line break. @param {unknown} v */
function csvCell(v) {
  const s = v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

// ---- CLI: node batch-exporter.mjs --base URL --token T [--page-size N] [--collections accounts,orders,files] ----
if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (/** @type {string} */ name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const [baseUrl, token, size] = [arg('--base'), arg('--token'), arg('--page-size')];
  if (!baseUrl || !token) {
    console.error('usage: batch-exporter.mjs --base URL --token T [--page-size N] [--collections accounts,orders,files]');
    process.exit(2);
  }
  run({ baseUrl, token, pageSize: size ? Number(size) : undefined, collections: arg('--collections')?.split(',') }).then(
    // CSV rows: line breaks outside quoted cells, less the header.
    (r) =>
      console.log(
        JSON.stringify({ csvRows: Math.max(0, r.csv.replace(/"(?:[^"]|"")*"/g, '').split('\r\n').length - 2), byCreated: r.byCreated.length, orders: r.orders.length, files: r.files.length }),
      ),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
