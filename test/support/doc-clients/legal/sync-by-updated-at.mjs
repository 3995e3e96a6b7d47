// Purpose: a sync job that mirrors /v2/accounts into another system by walking
// updated_at, the attribute 4.3 names for keeping another system in sync. It reads
// every account at least once; records updated while it runs may come back again and
// are counted once.
//
// Sections followed: 4.3 step 1 (updated_at), step 2 (first page sort=updated_at), step 3
// (filter=ge(updated_at,<last value of the previous page>)), the shared-timestamp note
// (further paging with page[offset] when first and last values of a page are identical),
// "With updated_at, a record updated during processing may appear more than once" (kept
// once, in first-seen order; repeats are counted), the eventual-consistency note
// (buffer), 4.2/8 (page[limit]=100), 5.
//
// Choices where the document is silent:
// - HTTP stack: fetch (options.fetch or global). Query built with URLSearchParams, which
//   encodes brackets, commas and parentheses and turns a space into `+`; the filter is
//   written with one space after the comma (`ge(updated_at, <value>)`), so it goes out as
//   `ge%28updated_at%2C+<value>%29`. Parameter order: page[limit], filter, sort, page[offset].
// - Header names in upper case (`AUTHORIZATION`, `ACCEPT`); HTTP header names are
//   case-insensitive.
// - updated_at is read from meta.timestamps.updated_at (fallback meta.updated_at).
// - End: a page with fewer records than page[limit].
// - Deletes are not visible (4.3); this job does not try to detect them.
// - Buffer: wait 2 minutes, then walk again from ge(updated_at, start - 2 min).

const LIMIT = 100;
const BUFFER_MS = 120_000;

/** @param {{baseUrl: string, token: string, now?: () => number, sleep?: (ms: number) => Promise<void>, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date().getTime());
  const sleep = options.sleep ?? ((ms) => import('node:timers/promises').then((t) => t.setTimeout(ms)));
  const base = options.baseUrl.replace(/\/+$/, '');
  const startedAt = now();
  const ids = [];
  const seen = new Set();
  let repeats = 0;
  let requests = 0;

  const updatedAt = (r) => r?.meta?.timestamps?.updated_at ?? r?.meta?.updated_at;

  async function fetchPage(value, offset) {
    const qs = new URLSearchParams({ 'page[limit]': String(LIMIT) });
    if (value !== null) qs.append('filter', `ge(updated_at, ${value})`);
    qs.append('sort', 'updated_at');
    if (offset > 0) qs.append('page[offset]', String(offset));
    const res = await fetchImpl(`${base}/v2/accounts?${qs.toString()}`, {
      headers: { AUTHORIZATION: `Bearer ${options.token}`, ACCEPT: 'application/json' },
    });
    requests += 1;
    if (!res.ok) throw new Error(`accounts ${qs}: HTTP ${res.status} ${await res.text()}`);
    const body = await res.json();
    return Array.isArray(body.data) ? body.data : [];
  }

  async function walk(from) {
    let value = from;
    let offset = 0;
    for (;;) {
      const rows = await fetchPage(value, offset);
      for (const r of rows) {
        if (seen.has(r.id)) repeats += 1;
        else {
          seen.add(r.id);
          ids.push(r.id);
        }
      }
      if (rows.length < LIMIT) return;
      const first = updatedAt(rows[0]);
      const last = updatedAt(rows[rows.length - 1]);
      if (first === last && last === value) offset += rows.length;
      else {
        value = last;
        offset = 0;
      }
    }
  }

  await walk(null);
  await sleep(BUFFER_MS);
  await walk(new Date(startedAt - BUFFER_MS).toISOString());
  return { ids: { accounts: ids }, requests, repeats };
}
