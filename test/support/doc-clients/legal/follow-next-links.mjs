// Purpose: a reader that lets the server drive: it requests the first page of
// /v2/files sorted by id and then follows the "next" link of every answer until there
// is none.
//
// Sections followed: 4.3 steps 1-2 (sort=id on the first page) and the id form of step 3
// (filter=gt(id,<last id>)) when it has to re-anchor, 8 (hard limit of 10,000 records on
// /v2/files offsets; "the sort-and-filter pattern of 4.3 is the alternative"), 4.2/8
// (page[limit]=50), the eventual-consistency note (buffer), 5 (Bearer token on every
// request, including followed links).
//
// Choices where the document is silent:
// - Links: the document describes no links on list answers; the sandbox answers carry
//   links.next (null on the last page). The client follows links.next when it is a
//   string, resolving it against base_url, and stops when it is absent or null or when
//   a page has zero records.
// - Before following a link whose page[offset] would pass 10,000, it re-anchors instead:
//   a new first request sort=id&filter=gt(id,<last id read>), then follows links again.
// - HTTP stack: fetch (options.fetch or global); first query written with raw brackets,
//   page[limit] before sort; a followed link is sent exactly as given.
// - Buffer: wait 2 minutes, then request sort=created_at&filter=ge(created_at,<start -
//   2 min>) and follow its next links (they carry the filter) to pick up late records.

const LIMIT = 50;
const OFFSET_LIMIT = 10_000;
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
  let requests = 0;
  let followed = 0;
  let reanchored = 0;

  async function load(url) {
    const res = await fetchImpl(url, { headers: { Authorization: `Bearer ${options.token}` } });
    requests += 1;
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }

  function offsetOf(link) {
    const u = new URL(link, base + '/');
    const v = u.searchParams.get('page[offset]');
    return v === null ? 0 : Number(v);
  }

  /** Follow next links from `url`; returns the last id read. */
  async function follow(url, reanchor) {
    let lastId = null;
    for (;;) {
      const body = await load(url);
      const rows = Array.isArray(body.data) ? body.data : [];
      for (const r of rows) {
        if (!seen.has(r.id)) {
          seen.add(r.id);
          ids.push(r.id);
        }
      }
      if (rows.length === 0) return;
      lastId = rows[rows.length - 1].id;
      const next = body.links?.next;
      if (typeof next !== 'string' || next.length === 0) return;
      if (reanchor && offsetOf(next) > OFFSET_LIMIT) {
        reanchored += 1;
        url = `${base}/v2/files?page[limit]=${LIMIT}&sort=id&filter=gt(id,${lastId})`;
        continue;
      }
      followed += 1;
      url = new URL(next, base + '/').href;
    }
  }

  await follow(`${base}/v2/files?page[limit]=${LIMIT}&sort=id`, true);

  await sleep(BUFFER_MS);
  const from = new Date(startedAt - BUFFER_MS).toISOString();
  await follow(`${base}/v2/files?page[limit]=${LIMIT}&sort=created_at&filter=ge(created_at,${from})`, false);

  return { ids: { files: ids }, requests, followed, reanchored };
}
