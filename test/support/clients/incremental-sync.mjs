// Incremental sync of /v2/accounts into a local Map, following section 4.3 of
// the commerce API document (sort and filter on updated_at).
//
// Request shapes (always page[limit]=<pageSize> and sort=updated_at):
//   first page of a first run:   no filter
//   first page of a later run:   filter=ge(updated_at,<checkpoint>)
//   next page:                   filter=ge(updated_at,<last updated_at of previous page>)
//   after a page whose first and last updated_at are equal (a tie group bigger than
//                                a page): the same filter plus page[offset]=<records of
//                                the group read - overlap>; the page must start on a record
//                                already read, which proves nothing slid past us (else the
//                                overlap doubles and the page is asked again).

import { URLSearchParams } from 'node:url';

/** @typedef {{ id: string|number, [k: string]: any }} ApiRecord */
/**
 * @typedef {object} SyncOptions
 * @property {string} baseUrl
 * @property {string} token
 * @property {typeof fetch} [fetch]
 * @property {(ms: number) => Promise<void>} [sleep]
 * @property {() => number} [now] epoch ms, ideally the server's clock
 * @property {number} [bufferMs] window near the present that is re-read on the next run
 * @property {number} [pageSize] 2..100 (a tie group needs room for one re-read record)
 */
/** @typedef {{ checkpoint?: string, records?: Map<string, ApiRecord> }} SyncState */

const MAX_ATTEMPTS = 10; // per request, for 429 / 5xx / network failures / unreadable bodies
const REQUEST_TIMEOUT_MS = 30_000; // a hung answer is retried like a network failure
const MAX_PAGES = 100_000; // guard against a server that never lets the traversal end

/**
 * Reads the record's updated_at wherever the server put it (the document does
 * not fix the position for list records).
 * @param {ApiRecord} rec
 * @returns {string|undefined}
 */
function updatedAtOf(rec) {
  const v = rec?.meta?.timestamps?.updated_at ?? rec?.meta?.updated_at ?? rec?.updated_at ?? rec?.attributes?.updated_at ?? rec?.attributes?.meta?.timestamps?.updated_at;
  return v == null ? undefined : String(v);
}

/**
 * ISO 8601 timestamp to nanoseconds since the epoch, as a BigInt, so that
 * micro- and nanosecond precision survives (Date.parse would drop it).
 * @param {string} s
 * @returns {bigint}
 */
function tsNs(s) {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?)(?:[.,](\d+))?(Z|[+-]\d\d:?\d\d)?$/i.exec(s);
  const secMs = m ? Date.parse(m[1] + (m[3] ?? 'Z').toUpperCase()) : NaN;
  if (!m || Number.isNaN(secMs)) throw new Error(`unreadable timestamp: ${JSON.stringify(s)}`);
  const frac = BigInt((m[2] ?? '').padEnd(9, '0').slice(0, 9));
  return BigInt(secMs) * 1_000_000n + frac;
}

/**
 * Nanoseconds to ISO 8601 (Z) with the given number of fraction digits,
 * truncating (rounding down keeps a lower bound a lower bound).
 * @param {bigint} ns
 * @param {number} digits
 */
function formatTs(ns, digits) {
  const sec = ns / 1_000_000_000n - (ns % 1_000_000_000n < 0n ? 1n : 0n);
  const frac = ns - sec * 1_000_000_000n;
  const base = new Date(Number(sec) * 1000).toISOString().slice(0, 19);
  const f = frac.toString().padStart(9, '0').slice(0, digits);
  return `${base}${digits > 0 ? `.${f}` : ''}Z`;
}

/** @param {string} ts */
const fractionDigits = (ts) => /[.,](\d+)/.exec(ts)?.[1].length ?? 0;

/**
 * The page length from the pagination metadata, wherever the server put it
 * (the document leaves the position open).
 * @param {any} node
 * @param {number} [depth]
 * @returns {unknown}
 */
function findPageLimit(node, depth = 0) {
  if (!node || typeof node !== 'object' || Array.isArray(node) || depth > 4) return undefined;
  if (node.page && typeof node.page === 'object' && node.page.limit != null) return node.page.limit;
  for (const [key, value] of Object.entries(node)) {
    const found = key === 'data' ? undefined : findPageLimit(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Retry-After is either delta-seconds or an HTTP date.
 * @param {Headers} headers
 * @returns {number|undefined} ms to wait
 */
function retryAfterMs(headers) {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // An HTTP date is measured against the server's own Date header if it sent one.
  const at = Date.parse(value);
  const serverNow = Date.parse(headers.get('date') ?? '');
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - (Number.isNaN(serverNow) ? Date.now() : serverNow));
}

/**
 * Runs one sync. First run (no state): reads every account. Later runs: reads
 * only what changed since state.checkpoint. Deletes on the server are not
 * visible through updated_at, so deleted records stay in the local copy.
 * @param {SyncOptions} options
 * @param {SyncState} [state]
 * @returns {Promise<{ checkpoint?: string, records: Map<string, ApiRecord>, pages: number }>}
 */
export async function sync(options, state) {
  const doFetch = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const bufferMs = options.bufferMs ?? 60_000;
  const limit = Math.min(100, Math.max(2, Math.floor(options.pageSize ?? 100)));
  const base = options.baseUrl.replace(/\/+$/, '');
  const records = state?.records ?? new Map();
  /** @type {number|undefined} the server's Date header of the latest answer */
  let serverDateMs;

  /**
   * GET one page; retries 429 (honouring Retry-After), 5xx, network errors and
   * unreadable bodies; any other non-2xx status is an error.
   * @param {URLSearchParams} params
   * @returns {Promise<{ data: ApiRecord[], limit: number }>} limit: the page length the server reports, if any
   */
  async function getPage(params) {
    const url = `${base}/v2/accounts?${params.toString().replace(/%5B/g, '[').replace(/%5D/g, ']')}`;
    let lastProblem = '';
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const backoff = Math.min(30_000, 250 * 2 ** (attempt - 1));
      let res;
      try {
        res = await doFetch(url, {
          headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json' },
          signal: globalThis.AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (err) {
        lastProblem = `network error: ${/** @type {Error} */ (err).message}`;
        await sleep(backoff);
        continue;
      }
      const text = await res.text().catch(() => '');
      if (res.status === 429 || res.status >= 500) {
        lastProblem = `HTTP ${res.status} ${text.slice(0, 200)}`;
        await sleep(retryAfterMs(res.headers) ?? backoff);
        continue;
      }
      if (!res.ok) throw new Error(`GET ${url} failed: HTTP ${res.status} ${text.slice(0, 500)}`);
      const date = Date.parse(res.headers.get('date') ?? '');
      if (!Number.isNaN(date)) serverDateMs = date;
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (Array.isArray(body?.data)) return { data: body.data, limit: Number(findPageLimit(body)) };
      // A 2xx without a list is not something the document allows: retry it.
      lastProblem = `HTTP ${res.status} without a data array: ${text.slice(0, 200)}`;
      await sleep(backoff);
    }
    throw new Error(`GET ${url} gave up after ${MAX_ATTEMPTS} attempts: ${lastProblem}`);
  }

  /** @param {ApiRecord} rec  keeps the newest version when a record shows up twice */
  function store(rec) {
    const id = String(rec.id);
    const old = records.get(id);
    const oldTs = old && updatedAtOf(old);
    if (oldTs && tsNs(oldTs) > tsNs(/** @type {string} */ (updatedAtOf(rec)))) return;
    records.set(id, rec);
  }

  /** @type {string|undefined} lower bound of the next page (raw server value) */
  let cursor = state?.checkpoint;
  /** @type {Set<string>|undefined} ids read at `cursor` while paging inside a tie group */
  let group;
  let offset = 0; // in a tie group: how many of its records we have read
  let overlap = 1; // in a tie group: records re-read to prove nothing shifted
  let pages = 0;
  /** @type {string|undefined} newest updated_at seen in this run */
  let newest;

  for (;;) {
    if (pages >= MAX_PAGES) throw new Error(`sync did not finish within ${MAX_PAGES} pages`);
    const reqOffset = group ? Math.max(0, offset - overlap) : 0;
    const params = new URLSearchParams({ 'page[limit]': String(limit), sort: 'updated_at' });
    if (cursor !== undefined) params.set('filter', `ge(updated_at,${cursor})`);
    if (reqOffset > 0) params.set('page[offset]', String(reqOffset));
    const answer = await getPage(params);
    const page = answer.data;
    pages++;

    if (group && reqOffset > 0 && !(page.length > 0 && group.has(String(page[0].id)))) {
      // The page must start on a record we already read in this group. If
      // not, records left the group (they were updated) and the rest slid to
      // lower offsets: step further back so no record is skipped.
      overlap *= 2;
      continue;
    }
    if (page.length === 0) break; // nothing (more) at or after the cursor

    const cursorNs = cursor === undefined ? undefined : tsNs(cursor);
    let prevNs = cursorNs;
    for (const rec of page) {
      const ts = updatedAtOf(rec);
      if (rec?.id == null || ts === undefined) {
        throw new Error(`record without id or updated_at: ${JSON.stringify(rec).slice(0, 200)}`);
      }
      // A page out of order would make the cursor skip records: refuse it.
      if (prevNs !== undefined && tsNs(ts) < prevNs) {
        throw new Error(`server did not honour sort/filter on updated_at (at ${ts})`);
      }
      prevNs = tsNs(ts);
      store(rec);
    }

    const firstTs = /** @type {string} */ (updatedAtOf(page[0]));
    const lastTs = /** @type {string} */ (updatedAtOf(page[page.length - 1]));
    if (newest === undefined || tsNs(lastTs) > tsNs(newest)) newest = lastTs;
    if (tsNs(firstTs) === tsNs(lastTs)) {
      // The whole page shares one timestamp: a ge filter on it would return
      // the same page again, so page further inside the group by offset.
      if (!group || tsNs(lastTs) !== cursorNs) group = new Set();
      cursor = lastTs;
      for (const rec of page) group.add(String(rec.id));
      offset = reqOffset + page.length;
      overlap = Math.max(1, Math.floor(overlap / 2));
    } else {
      cursor = lastTs; // step 3 of 4.3: ge the last value of the previous page
      group = undefined;
      overlap = 1;
    }
    // A page shorter than the page length is the end of the list (at the time
    // of the read); later changes are for the next run. The server's own page
    // length counts if it reports a smaller one than we asked for.
    if (page.length < (answer.limit > 0 && answer.limit < limit ? answer.limit : limit)) break;
  }

  // Checkpoint: never closer to the present than bufferMs, so the next run
  // re-reads the window in which records may still appear late. "Present" is
  // the lowest of our clock, the server's Date header and the newest record
  // seen, so a server clock that differs from ours cannot push it too far.
  let checkpoint = state?.checkpoint;
  if (newest !== undefined) {
    let presentNs = tsNs(newest);
    for (const ms of [now(), serverDateMs]) {
      if (ms !== undefined && Number.isFinite(ms)) {
        const ns = BigInt(Math.floor(ms)) * 1_000_000n;
        if (ns < presentNs) presentNs = ns;
      }
    }
    const candidate = formatTs(presentNs - BigInt(Math.floor(bufferMs)) * 1_000_000n, fractionDigits(newest));
    if (checkpoint === undefined || tsNs(candidate) > tsNs(checkpoint)) checkpoint = candidate;
  }
  return { checkpoint, records, pages };
}

// CLI: node incremental-sync.mjs --base URL --token T  (runs two syncs)
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  /** @param {string} name */
  const arg = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const baseUrl = arg('--base');
  const token = arg('--token');
  if (!baseUrl || !token) {
    console.error('usage: incremental-sync.mjs --base URL --token T');
    process.exit(2);
  }
  try {
    const first = await sync({ baseUrl, token });
    const firstCount = first.records.size;
    const second = await sync({ baseUrl, token }, first);
    const summary = (/** @type {{ pages: number, checkpoint?: string }} */ r, /** @type {number} */ n) => ({
      records: n,
      pages: r.pages,
      checkpoint: r.checkpoint,
    });
    console.log(JSON.stringify({ first: summary(first, firstCount), second: summary(second, second.records.size) }));
  } catch (err) {
    console.error(`sync failed: ${/** @type {Error} */ (err).message}`);
    process.exit(1);
  }
}
