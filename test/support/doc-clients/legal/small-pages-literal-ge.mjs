// Purpose: a low-memory reader that walks /v2/orders by created_at with small pages
// (page[limit]=10), reading section 4.3 step 3 and the shared-timestamp note as
// literally as possible.
//
// Sections followed: 4.3 step 1 (attribute created_at), step 2 (first page with
// sort=created_at), step 3 read literally: every next page carries
// filter=ge(created_at,<last value of the previous page>) - so the records at that value
// come back again and are de-duplicated by id -, and the note "a page may need further
// paging if many records share the same timestamp. This is the case when the first and
// last timestamps of a page are identical": when a page's first and last timestamps are
// equal AND equal to the value the page was filtered on, the next page is the same
// filter with page[offset] advanced by the page length (further paging); otherwise the
// filter moves to the page's last value with page[offset] back at 0. Also 4.2 (page[limit],
// page[offset] in records), the eventual-consistency note, 5.
//
// Choices where the document is silent:
// - HTTP stack: global fetch (or options.fetch); query written by hand, raw brackets and
//   raw parentheses/comma; order sort, page[limit], filter, page[offset].
// - End of the walk: a page with fewer records than page[limit] (ge always returns the
//   rest of the collection, so a short page is its end).
// - A one-timestamp group can be paged through by offset only while the group is below
//   the 10,000 offset limit of section 8; the walk throws rather than pass that limit.
// - Buffer: after the walk, wait 90 s and walk again from ge(created_at, start - 90 s).
// - Timestamps from meta.timestamps.created_at (fallback meta.created_at).

const LIMIT = 10;
const BUFFER_MS = 90_000;
const OFFSET_LIMIT = 10_000;

/** @param {{baseUrl: string, token: string, now?: () => number, sleep?: (ms: number) => Promise<void>, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date().getTime());
  const sleep = options.sleep ?? ((ms) => import('node:timers/promises').then((t) => t.setTimeout(ms)));
  const base = options.baseUrl.replace(/\/+$/, '');
  const startedAt = now();
  let requests = 0;
  const result = { orders: [] };
  const seen = { orders: new Set() };

  const createdAt = (r) => r?.meta?.timestamps?.created_at ?? r?.meta?.created_at;

  async function page(collection, value, offset) {
    let q = `sort=created_at&page[limit]=${LIMIT}`;
    if (value !== undefined) q += `&filter=ge(created_at,${value})`;
    if (offset > 0) q += `&page[offset]=${offset}`;
    const res = await fetchImpl(`${base}/v2/${collection}?${q}`, {
      headers: { Authorization: `Bearer ${options.token}` },
    });
    requests += 1;
    if (res.status !== 200) throw new Error(`GET /v2/${collection}?${q}: ${res.status} ${await res.text()}`);
    const body = await res.json();
    return body.data ?? [];
  }

  async function walk(collection, from) {
    let value = from; // undefined: step 2, the unfiltered first page
    let offset = 0;
    for (;;) {
      if (offset > OFFSET_LIMIT) throw new Error(`more than ${OFFSET_LIMIT} ${collection} share ${value}`);
      const rows = await page(collection, value, offset);
      for (const r of rows) {
        if (!seen[collection].has(r.id)) {
          seen[collection].add(r.id);
          result[collection].push(r.id);
        }
      }
      if (rows.length < LIMIT) return;
      const first = createdAt(rows[0]);
      const last = createdAt(rows[rows.length - 1]);
      if (first === last && last === value) {
        offset += rows.length; // further paging of a one-timestamp page
      } else {
        value = last; // step 3: ge(last value of the previous page)
        offset = 0;
      }
    }
  }

  await walk('orders', undefined);
  await sleep(BUFFER_MS);
  const tail = new Date(startedAt - BUFFER_MS).toISOString();
  await walk('orders', tail);
  return { ids: result, requests };
}
