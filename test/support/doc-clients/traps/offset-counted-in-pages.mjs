// Trap: a pager that sends page[offset] as a page number (0, 1, 2, ...) and stops after
// the page count given by page[total].
//
// Breaks (section 2.3): "page[offset] | Current offset counted in records, not pages.
// Zero-based." (and 4.2: "page[offset] | Optional | number | Number of records to skip.")
// - each request moves one record, not one page, so it re-reads most records and never
// reaches the end of the collection.
//
// Otherwise: page[limit]=25, Bearer token. HTTP stack: fetch, raw brackets.

/** @param {{baseUrl: string, token: string, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const ids = [];
  const seen = new Set();
  const statuses = {};
  let pageCount = 1;
  for (let page = 0; page < pageCount; page += 1) {
    const res = await fetchImpl(`${base}/v2/accounts?page[limit]=25&page[offset]=${page}`, {
      headers: { Authorization: `Bearer ${options.token}` },
    });
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (!res.ok) break;
    const body = await res.json();
    for (const r of body.data ?? []) {
      if (!seen.has(r.id)) {
        seen.add(r.id);
        ids.push(r.id);
      }
    }
    pageCount = body.meta?.page?.total ?? pageCount;
  }
  return { ids: { accounts: ids }, statuses };
}
