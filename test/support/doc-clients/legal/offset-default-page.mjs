// Purpose: a reader that never sends page[limit]. It takes the server's default page
// length and pages through /v2/orders by page[offset], steering by the page metadata
// of section 2.3 wherever it finds it in the answer.
//
// Sections followed: 4.2 (page[offset] = records to skip; page[limit] optional), 2.3
// (page[limit] is the page length of this response, page[offset] counted in records,
// results total after filters; "pagination fields are always present"), 8 (default page
// length 25, changeable per project - so the client reads it from the answer rather than
// assuming 25; hard offset limit of 10,000 records on /v2/orders; "the sort-and-filter
// pattern of 4.3 is the alternative"), 4.3 (sort=created_at; filter=ge(created_at,...);
// shared-timestamp note; eventual-consistency note), 5.
//
// Choices where the document is silent:
// - HTTP stack: node:http / node:https with the global agent; header names in lower case.
// - Query percent-encoded: page%5Boffset%5D, filter=ge%28created_at%2C...%29; sort first.
// - sort=created_at on every request so offsets address a stable order.
// - The metadata is searched for: body.meta.page / body.meta.results first, then any
//   object in the body that has page-like (limit, offset, total) or results-like (total)
//   members; if none is found the data length stands in for the page length.
// - Stop: a page with zero records, or offset >= results total.
// - Offset limit: before sending an offset above 10,000 the client re-anchors: it switches
//   to filter=ge(created_at,<last timestamp read>) and restarts page[offset] at the number
//   of records of that timestamp it has already read (ties come back in a stable order on
//   the sandbox; the document does not say). Duplicates are dropped by id.
// - Buffer: after the walk, wait 2 minutes and walk again from ge(created_at, start - 2 min).

import http from 'node:http';
import https from 'node:https';

const OFFSET_LIMIT = 10_000;
const BUFFER_MS = 120_000;

/** @param {{baseUrl: string, token: string, now?: () => number, sleep?: (ms: number) => Promise<void>}} options */
export async function run(options) {
  const now = options.now ?? (() => new Date().getTime());
  const sleep = options.sleep ?? ((ms) => import('node:timers/promises').then((t) => t.setTimeout(ms)));
  const base = new URL(options.baseUrl);
  const lib = base.protocol === 'https:' ? https : http;
  const prefix = base.pathname.replace(/\/+$/, '');
  const startedAt = now();
  const ids = [];
  const seen = new Set();
  let requests = 0;
  let pageLengthSeen = null;

  function get(query) {
    return new Promise((resolve, reject) => {
      lib
        .get(
          {
            protocol: base.protocol,
            hostname: base.hostname,
            port: base.port,
            path: `${prefix}/v2/orders?${query}`,
            headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
          },
          (res) => {
            const parts = [];
            res.on('data', (d) => parts.push(d));
            res.on('end', () => {
              requests += 1;
              const text = Buffer.concat(parts).toString('utf8');
              if (res.statusCode !== 200) reject(new Error(`orders ${query}: HTTP ${res.statusCode} ${text}`));
              else resolve(JSON.parse(text));
            });
          },
        )
        .on('error', reject);
    });
  }

  function findMeta(body) {
    let page = body?.meta?.page ?? null;
    let results = body?.meta?.results ?? null;
    const visit = (node, depth) => {
      if (!node || typeof node !== 'object' || depth > 4 || Array.isArray(node)) return;
      for (const [key, value] of Object.entries(node)) {
        if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
        if (!page && key === 'page' && ('limit' in value || 'offset' in value)) page = value;
        if (!results && key === 'results' && 'total' in value) results = value;
        visit(value, depth + 1);
      }
    };
    if (!page || !results) visit(body, 0);
    return { page: page ?? {}, results: results ?? {} };
  }

  const stamp = (r) => r?.meta?.timestamps?.created_at ?? r?.meta?.created_at;

  async function walk(fromIso) {
    let anchor = fromIso; // null: no filter
    let offset = 0;
    let lastStamp = null;
    let atLastStamp = 0; // records read whose created_at === lastStamp
    for (;;) {
      if (offset > OFFSET_LIMIT) {
        // section 8: switch to the sort-and-filter pattern instead of passing the limit
        anchor = lastStamp;
        offset = atLastStamp;
        if (offset > OFFSET_LIMIT) throw new Error(`more than ${OFFSET_LIMIT} orders share ${lastStamp}`);
      }
      let query = `sort=created_at`;
      if (anchor !== null) query += `&filter=${encodeURIComponent(`ge(created_at,${anchor})`)}`;
      query += `&page%5Boffset%5D=${offset}`;
      const body = await get(query);
      const rows = Array.isArray(body.data) ? body.data : [];
      const { page, results } = findMeta(body);
      for (const r of rows) {
        if (!seen.has(r.id)) {
          seen.add(r.id);
          ids.push(r.id);
        }
        const t = stamp(r);
        if (t === lastStamp) atLastStamp += 1;
        else {
          lastStamp = t;
          atLastStamp = 1;
        }
      }
      if (rows.length === 0) return;
      const pageLength = Number.isInteger(page.limit) && page.limit > 0 ? page.limit : rows.length;
      pageLengthSeen = pageLength;
      const here = Number.isInteger(page.offset) ? page.offset : offset;
      offset = here + rows.length;
      if (Number.isInteger(results.total) && offset >= results.total) return;
      if (rows.length < pageLength && !Number.isInteger(results.total)) return;
    }
  }

  await walk(null);
  await sleep(BUFFER_MS);
  await walk(new Date(startedAt - BUFFER_MS).toISOString());
  return { ids: { orders: ids }, requests, pageLength: pageLengthSeen };
}
