// Trap: an id walk over /v2/files that treats any page shorter than page[limit] as the
// last one and stops there, without asking for the next page.
//
// Breaks (section 4.3, step 4): "For id-sorted reads, stop when a page returns zero
// records." - a short page is not the documented end; a server may return one before
// the end (and an eventually consistent one may fill in behind it).
//
// Otherwise follows 4.3 (sort=id, gt(id,<last id>), page[limit]=100). HTTP stack: fetch,
// percent-encoded query.

/** @param {{baseUrl: string, token: string, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const ids = [];
  const statuses = {};
  let last = null;
  for (;;) {
    let q = 'page%5Blimit%5D=100&sort=id';
    if (last !== null) q += `&filter=gt%28id%2C${last}%29`;
    const res = await fetchImpl(`${base}/v2/files?${q}`, { headers: { Authorization: `Bearer ${options.token}` } });
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (!res.ok) break;
    const rows = (await res.json()).data ?? [];
    for (const r of rows) ids.push(r.id);
    if (rows.length < 100) break; // the mistake: a short page taken as the end
    last = rows[rows.length - 1].id;
  }
  return { ids: { files: ids }, statuses };
}
