// Purpose: the accounts grid of a back-office UI. A user opens the grid (page 1),
// jumps to the last page (computed from the page total the answer carries), goes
// back to page 2, then clicks "next" until the grid says there is no next page.
// After a pause (the user leaves the tab open) they press "refresh" on the tail.
//
// Sections followed: 4.2 (page[limit], page[offset]), 2.3 (page[offset] counted in
// records, zero-based; page[total] is the page count; results total), 8 (page length
// at most 100; offset soft limit of 10,000 on endpoints other than orders/files),
// 4.3 "eventual consistency ... use a buffer", 5 (Bearer token on every request).
//
// Choices where the document is silent:
// - Path /v2/accounts (named in 4.2/4.3). HTTP stack: global fetch (or options.fetch),
//   query written by hand with raw brackets, offset before limit, plus sort=created_at
//   so the order behind the offsets is stable between clicks (default order is not
//   described).
// - Page metadata is looked up at body.meta.page / body.meta.results, falling back to
//   body.page / body.results (2.3: "exact position ... not shown").
// - Page number p maps to page[offset] = (p - 1) * limit (offset in records).
// - The grid never offers a page whose offset would pass 10,000; if the collection is
//   larger it reports truncated: true instead of requesting it.
// - "Buffer": after reaching the end it waits 60 s (options.sleep) and reloads the
//   last two pages by the fresh page total, then keeps clicking next while there is one.

const LIMIT = 20;
const OFFSET_LIMIT = 10_000;
const BUFFER_MS = 60_000;

/** @param {{baseUrl: string, token: string, sleep?: (ms: number) => Promise<void>, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? defaultSleep;
  const base = options.baseUrl.replace(/\/+$/, '');
  const order = [];
  const seen = new Set();
  const clicks = [];
  let requests = 0;
  const maxPage = Math.floor(OFFSET_LIMIT / LIMIT) + 1;
  let truncated = false;

  async function open(pageNo) {
    const offset = (pageNo - 1) * LIMIT;
    const url = `${base}/v2/accounts?page[offset]=${offset}&page[limit]=${LIMIT}&sort=created_at`;
    const res = await fetchImpl(url, {
      headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json' },
    });
    requests += 1;
    if (res.status !== 200) throw new Error(`grid page ${pageNo}: HTTP ${res.status} ${await res.text()}`);
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
    const totalPages = Number.isInteger(page.total) ? page.total : Number.isInteger(results.total) ? Math.ceil(results.total / LIMIT) : null;
    clicks.push(pageNo);
    return { rows: rows.length, current: page.current ?? pageNo, totalPages };
  }

  const clamp = (p) => {
    if (p > maxPage) {
      truncated = true;
      return maxPage;
    }
    return p;
  };

  // 1. open the grid
  let view = await open(1);
  let totalPages = view.totalPages ?? 1;
  if (totalPages > 1) {
    // 2. jump to the last page
    view = await open(clamp(totalPages));
    totalPages = view.totalPages ?? totalPages;
    // 3. back to an earlier page, then 4. next, next, ... while the grid shows a next page
    let p = 2;
    view = await open(p);
    totalPages = view.totalPages ?? totalPages;
    while (p < Math.min(totalPages, maxPage)) {
      p += 1;
      view = await open(p);
      totalPages = view.totalPages ?? totalPages;
      if (view.rows === 0) break;
    }
    if (totalPages > maxPage) truncated = true;
  }

  // 5. the user comes back after a while and refreshes the tail of the grid
  await sleep(BUFFER_MS);
  view = await open(1);
  totalPages = view.totalPages ?? totalPages;
  let p = Math.max(1, Math.min(totalPages, maxPage) - 1);
  for (;;) {
    view = await open(p);
    totalPages = view.totalPages ?? totalPages;
    if (p >= Math.min(totalPages, maxPage) || view.rows === 0) break;
    p += 1;
  }
  if (totalPages > maxPage) truncated = true;

  return { ids: { accounts: order }, requests, clicks: clicks.length, truncated };
}

function defaultSleep(ms) {
  return import('node:timers/promises').then((t) => t.setTimeout(ms));
}
