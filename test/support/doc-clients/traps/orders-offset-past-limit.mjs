// Trap: an orders reader that pages by page[offset] (page[limit]=100) until it sees an
// empty page, never switching to the sort-and-filter pattern. On a collection of more
// than 10,100 orders it asks for page[offset] above 10,000.
//
// Breaks (section 8): "Offset limit for /v2/orders and /v2/files | Hard limit of 10,000
// records." (and "the sort-and-filter pattern of 4.3 is the alternative"). On a small
// collection the mistake is latent: it only shows past 10,000 records.
//
// HTTP stack: fetch; records the status of every request and stops at the first error.

/** @param {{baseUrl: string, token: string, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const ids = [];
  const seen = new Set();
  const statuses = {};
  let lastStatus = null;
  for (let offset = 0; ; offset += 100) {
    const res = await fetchImpl(`${base}/v2/orders?page[limit]=100&page[offset]=${offset}`, {
      headers: { Authorization: `Bearer ${options.token}` },
    });
    lastStatus = res.status;
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (!res.ok) {
      await res.arrayBuffer();
      break;
    }
    const rows = (await res.json()).data ?? [];
    if (rows.length === 0) break;
    for (const r of rows) {
      if (!seen.has(r.id)) {
        seen.add(r.id);
        ids.push(r.id);
      }
    }
  }
  return { ids: { orders: ids }, statuses, lastStatus };
}
