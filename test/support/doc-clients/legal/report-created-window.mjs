// Purpose: a reporting job that lists the orders created inside a date window
// [from, to] (both ends included): from = five years before the job starts, to = the
// moment the job starts.
// It walks forward from the window start with the document's created_at filter and
// stops at the window end, a bound it checks itself (the document names only ge and
// gt, no upper-bound operator).
//
// Sections followed: 4.3 steps 1-3 (sort=created_at, filter=ge(created_at,<value>) from
// the window start and then from the last value of each page), the note on pages whose
// first and last timestamps are identical (further paging with page[offset] inside the
// same filter), the eventual-consistency note (buffer), 4.2/8 (page[limit]=100 max),
// 2.1 (timestamps are ISO 8601 with milliseconds and Z), 5 (Bearer token).
//
// Choices where the document is silent:
// - HTTP stack: node:http / node:https with a keep-alive agent; header names in lower case.
// - Query fully percent-encoded by hand: page%5Blimit%5D, filter=ge%28created_at%2C%20...%29
//   (parentheses, comma, colons encoded; one space after the comma, sent as %20; the
//   document's form shows no whitespace rule either way).
// - The timestamp of a listed record is read from meta.timestamps.created_at, falling back
//   to meta.created_at (the create response's place for it) and created_at.
// - Window bounds come from options.now (the server's clock): to = now() at start,
//   from = to - 5 years. Records with created_at > to are dropped on our side.
// - Buffer: after the walk the job waits 2 minutes (options.sleep) and re-walks
//   [to - 2 min, to] to pick up records that were not yet visible.
// - End of a walk: a page shorter than the requested limit, or a record after `to`.

import http from 'node:http';
import https from 'node:https';

const LIMIT = 100;
const BUFFER_MS = 120_000;
const FIVE_YEARS_MS = 5 * 365.25 * 24 * 3600 * 1000;

/** @param {{baseUrl: string, token: string, now?: () => number, sleep?: (ms: number) => Promise<void>}} options */
export async function run(options) {
  const now = options.now ?? (() => new Date().getTime());
  const sleep = options.sleep ?? ((ms) => import('node:timers/promises').then((t) => t.setTimeout(ms)));
  const base = new URL(options.baseUrl);
  const lib = base.protocol === 'https:' ? https : http;
  const agent = new lib.Agent({ keepAlive: true, maxSockets: 1 });
  const prefix = base.pathname.replace(/\/+$/, '');

  const toMs = now();
  const to = new Date(toMs).toISOString();
  const from = new Date(toMs - FIVE_YEARS_MS).toISOString();
  const ids = [];
  const seen = new Set();
  let requests = 0;

  function get(query) {
    return new Promise((resolve, reject) => {
      const req = lib.request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          path: `${prefix}/v2/orders?${query}`,
          method: 'GET',
          agent,
          headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            requests += 1;
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) reject(new Error(`GET ${query}: HTTP ${res.statusCode} ${text}`));
            else resolve(JSON.parse(text));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  const createdAt = (r) => r?.meta?.timestamps?.created_at ?? r?.meta?.created_at ?? r?.created_at;

  /** Walk [start, end]: ge from start, further paging inside a one-timestamp page. */
  async function walk(start, end) {
    let cursor = start;
    let offset = 0;
    for (;;) {
      const filter = encodeURIComponent(`ge(created_at, ${cursor})`);
      let query = `page%5Blimit%5D=${LIMIT}&sort=created_at&filter=${filter}`;
      if (offset > 0) query += `&page%5Boffset%5D=${offset}`;
      const body = await get(query);
      const rows = Array.isArray(body.data) ? body.data : [];
      let reachedEnd = false;
      for (const r of rows) {
        const t = createdAt(r);
        if (Date.parse(t) > Date.parse(end)) {
          reachedEnd = true;
          break;
        }
        if (!seen.has(r.id)) {
          seen.add(r.id);
          ids.push(r.id);
        }
      }
      if (reachedEnd || rows.length < LIMIT) return;
      const first = createdAt(rows[0]);
      const last = createdAt(rows[rows.length - 1]);
      if (first === last && last === cursor) {
        offset += rows.length; // the page is one timestamp: page further inside the same filter
      } else {
        cursor = last; // next page: ge(last value of the previous page)
        offset = 0;
      }
    }
  }

  try {
    await walk(from, to);
    await sleep(BUFFER_MS);
    await walk(new Date(Math.max(toMs - BUFFER_MS, Date.parse(from))).toISOString(), to);
  } finally {
    agent.destroy();
  }
  return { ids: { orders: ids }, requests, window: { from, to } };
}
