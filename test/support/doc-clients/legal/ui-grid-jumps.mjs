// Purpose: the accounts grid of a back-office UI. A user opens the grid (page 1),
// jumps to the last page (computed from the page total the answer carries), goes
// back to page 2, then clicks "next" until the grid says there is no next page.
// After a pause (the user leaves the tab open) they press "refresh" and page on from
// the page before the one they were on.
//
// Sections followed: 4.2 (page[limit], page[offset]), 2.3 (page[offset] counted in
// records, zero-based; page[total] is the page count; results total), 8 (page length
// at most 100; offset limit of 10,000; "the sort-and-filter pattern of 4.3 is the
// alternative"), 4.3 (sort=created_at, filter=ge(created_at,<last value>), further
// paging of one-timestamp pages; "eventual consistency ... use a buffer"), 5 (Bearer
// token on every request).
//
// Choices where the document is silent:
// - Path /v2/accounts (named in 4.2/4.3). HTTP stack: global fetch (or options.fetch),
//   query written by hand with raw brackets, offset before limit, plus sort=created_at
//   so the order behind the offsets is stable between clicks (default order is not
//   described).
// - Page metadata is looked up at body.meta.page / body.meta.results, falling back to
//   body.page / body.results (2.3: "exact position ... not shown").
// - Page number p maps to page[offset] = (p - 1) * limit (offset in records).
// - Offset limit: the grid never sends page[offset] above 10,000. "Last page" on a larger
//   collection opens the last page reachable by offset (and reports lastPageClamped: true for
//   the jump); "next" past that point switches to the 4.3 pattern:
//   filter=ge(created_at,<last value shown>) with page[offset] = the records of that
//   value already shown (ties come back in a stable order on the sandbox; the document
//   does not say).
// - "Buffer": after reaching the end it waits 60 s (options.sleep), reloads page 1 (for
//   the fresh page total) and pages on from the page before the last one it showed.

const LIMIT = 20;
const OFFSET_LIMIT = 10_000;
const BUFFER_MS = 60_000;

/** @param {{baseUrl: string, token: string, sleep?: (ms: number) => Promise<void>, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms) => import('node:timers/promises').then((t) => t.setTimeout(ms)));
  const base = options.baseUrl.replace(/\/+$/, '');
  const order = [];
  const seen = new Set();
  let requests = 0;
  let lastPageClamped = false;
  const maxPage = Math.floor(OFFSET_LIMIT / LIMIT) + 1; // highest page whose offset is <= 10,000

  const stamp = (r) => r?.meta?.timestamps?.created_at ?? r?.meta?.created_at;

  async function load(query, label) {
    const res = await fetchImpl(`${base}/v2/accounts?${query}`, {
      headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json' },
    });
    requests += 1;
    if (res.status !== 200) throw new Error(`grid ${label}: HTTP ${res.status} ${await res.text()}`);
    const body = await res.json();
    const rows = Array.isArray(body.data) ? body.data : [];
    for (const row of rows) {
      if (!seen.has(row.id)) {
        seen.add(row.id);
        order.push(row.id);
      }
    }
    const page = body.meta?.page ?? body.page ?? {};
    const results = body.meta?.results ?? body.results ?? {};
    let totalPages = null;
    if (Number.isInteger(page.total)) totalPages = page.total;
    else if (Number.isInteger(results.total)) totalPages = Math.ceil(results.total / LIMIT);
    return { rows, totalPages };
  }

  /** Open page `p` by offset. */
  const openPage = (p) => load(`page[offset]=${(p - 1) * LIMIT}&page[limit]=${LIMIT}&sort=created_at`, `page ${p}`);

  /** Position of the grid in created_at order, for "next" beyond the offset limit. */
  const tail = { value: null, ties: 0, counted: new Set() };
  const track = (rows) => {
    for (const r of rows) {
      if (tail.counted.has(r.id)) continue;
      tail.counted.add(r.id);
      const t = stamp(r);
      if (t === tail.value) tail.ties += 1;
      else {
        tail.value = t;
        tail.ties = 1;
      }
    }
  };
  const resetTail = () => {
    tail.value = null;
    tail.ties = 0;
    tail.counted.clear();
  };

  /**
   * Click "next" from page `p` (just shown) while the grid offers a next page.
   * Returns the number of the last page shown.
   */
  async function nextUntilEnd(p, totalPages, lastFull = true) {
    let total = totalPages;
    for (;;) {
      const hasNext = p < maxPage ? p < total : p === maxPage ? total > maxPage : lastFull;
      if (!hasNext) return p;
      p += 1;
      let view;
      if (p <= maxPage) {
        view = await openPage(p);
        if (view.totalPages !== null) total = view.totalPages;
      } else {
        if (tail.ties > OFFSET_LIMIT) throw new Error(`more than ${OFFSET_LIMIT} accounts share ${tail.value}`);
        const q = `page[offset]=${tail.ties}&page[limit]=${LIMIT}&sort=created_at&filter=ge(created_at,${tail.value})`;
        view = await load(q, `page ${p}`);
        lastFull = view.rows.length === LIMIT;
      }
      track(view.rows);
      if (view.rows.length === 0) return p - 1;
    }
  }

  // 1. open the grid
  const first = await openPage(1);
  let totalPages = first.totalPages ?? 1;
  let lastShown = 1;
  if (totalPages > 1) {
    // 2. jump to the last page (the last one reachable by offset on a very large collection)
    const jump = Math.min(totalPages, maxPage);
    if (jump < totalPages) lastPageClamped = true;
    const last = await openPage(jump);
    totalPages = last.totalPages ?? totalPages;
    // 3. back to an earlier page, 4. then next, next, ...
    const second = await openPage(2);
    totalPages = second.totalPages ?? totalPages;
    track(first.rows);
    track(second.rows);
    lastShown = await nextUntilEnd(2, totalPages);
  } else {
    track(first.rows);
  }

  // 5. the user comes back after a while, refreshes, and pages on from the page before
  await sleep(BUFFER_MS);
  const again = await openPage(1);
  totalPages = again.totalPages ?? totalPages;
  if (lastShown <= maxPage) {
    const from = Math.max(1, Math.min(lastShown, totalPages) - 1);
    resetTail();
    if (from > 1) track((await openPage(from - 1)).rows);
    const view = await openPage(from);
    totalPages = view.totalPages ?? totalPages;
    track(view.rows);
    await nextUntilEnd(from, totalPages);
  } else {
    // beyond the offset limit the grid's position is its created_at tail
    await nextUntilEnd(lastShown, totalPages, true);
  }

  return { ids: { accounts: order }, requests, lastPageClamped };
}
