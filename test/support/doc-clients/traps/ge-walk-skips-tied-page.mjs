// Trap: a created_at walk with ge that notices it is stuck when a whole page shares one
// timestamp (ge of that value returns the same page again) and "fixes" it by moving the
// filter one millisecond past that timestamp.
//
// Breaks (section 4.3): "With timestamps, a page may need further paging if many records
// share the same timestamp. This is the case when the first and last timestamps of a
// page are identical." - the page needed further paging; jumping past the timestamp drops
// the rest of the tie.
//
// Otherwise follows 4.3 (sort=created_at, ge(created_at,<last value>)), with
// page[limit]=25 (the default length, sent explicitly). HTTP stack: fetch with
// URLSearchParams.

/** @param {{baseUrl: string, token: string, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const ids = [];
  const seen = new Set();
  const statuses = {};
  let cursor = null;
  for (;;) {
    const qs = new URLSearchParams({ sort: 'created_at', 'page[limit]': '25' });
    if (cursor) qs.set('filter', `ge(created_at,${cursor})`);
    const res = await fetchImpl(`${base}/v2/orders?${qs}`, { headers: { Authorization: `Bearer ${options.token}` } });
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
    const first = rows[0].meta.timestamps.created_at;
    const last = rows[rows.length - 1].meta.timestamps.created_at;
    cursor = first === last ? new Date(Date.parse(last) + 1).toISOString() : last;
  }
  return { ids: { orders: ids }, statuses };
}
