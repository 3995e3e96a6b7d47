// Trap: an orders reader that walks created_at with gt, reasoning that "greater than"
// avoids reading the last record of the previous page twice.
//
// Breaks (section 4.3, step 3): "For each next page, add a filter that the attribute is
// greater than or equal to (or, for unique id, greater than) the last value of the
// previous page." - created_at is not unique, so every record that shares the last
// timestamp of a page but did not fit on it is skipped.
//
// Otherwise: sort=created_at, page[limit]=25, stop at a short page. HTTP stack: fetch,
// raw brackets.

/** @param {{baseUrl: string, token: string, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const ids = [];
  const seen = new Set();
  const statuses = {};
  let cursor = null;
  for (;;) {
    const filter = cursor === null ? '' : `&filter=gt(created_at,${cursor})`;
    const res = await fetchImpl(`${base}/v2/orders?sort=created_at&page[limit]=25${filter}`, {
      headers: { Authorization: `Bearer ${options.token}` },
    });
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (!res.ok) break;
    const rows = (await res.json()).data ?? [];
    for (const r of rows) {
      if (!seen.has(r.id)) {
        seen.add(r.id);
        ids.push(r.id);
      }
    }
    if (rows.length < 25) break;
    cursor = rows[rows.length - 1].meta.timestamps.created_at;
  }
  return { ids: { orders: ids }, statuses };
}
