// Trap: an id walk that asks for page[limit]=500 to save round trips and treats a page
// shorter than 500 as the last one.
//
// Breaks (section 8): "Maximum page length | 100 on any paginated call." (2.3:
// "Settable up to 100.") - the server answers at most 100 records, so the first page
// already looks "short" and the walk ends after it.
//
// Otherwise follows 4.3 (sort=id, gt(id,<last id>)). HTTP stack: fetch.

/** @param {{baseUrl: string, token: string, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const ids = [];
  const statuses = {};
  let last = null;
  for (;;) {
    const filter = last ? `&filter=gt(id,${last})` : '';
    const res = await fetchImpl(`${base}/v2/accounts?sort=id&page[limit]=500${filter}`, {
      headers: { Authorization: `Bearer ${options.token}` },
    });
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (!res.ok) break;
    const rows = (await res.json()).data ?? [];
    for (const r of rows) ids.push(r.id);
    if (rows.length < 500) break;
    last = rows[rows.length - 1].id;
  }
  return { ids: { accounts: ids }, statuses };
}
