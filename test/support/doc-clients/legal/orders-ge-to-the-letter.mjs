// Purpose: the orders reader of a data warehouse loader. It reads all of /v2/orders by
// created_at following section 4.3 step 3 to the letter, where a page may be all one
// timestamp, and must not lose a record.
//
// Sections followed: 4.3 step 1 (created_at), step 2 (first page with sort=created_at),
// step 3 (every next page: filter=ge(created_at,<last value of the previous page>)), the
// note "a page may need further paging if many records share the same timestamp" -
// further paging is page[offset] inside that same ge filter -, the eventual-consistency
// note (buffer), 4.2 (page[offset] counts records), 8 (page[limit]=100, the maximum;
// offsets stay far below 10,000 because they only ever skip inside one timestamp), 5.
//
// Choices where the document is silent:
// - Rather than reading the records at the last value again and discarding them, each
//   next request skips them: page[offset] = how many records with created_at equal to
//   the filter value it has already read. That relies on ties coming back in the same
//   order each time (seen on the sandbox; the document does not say). Records read twice
//   are dropped by id; a record that shows up late inside a tie group already passed is
//   left to the buffer pass below.
// - End: a page with fewer than 100 records.
// - HTTP stack: node:http / node:https, one keep-alive agent for the whole read; header
//   names as `Authorization`/`Accept`; parameter order filter, page[offset], sort,
//   page[limit]; brackets raw, the filter's parentheses and comma raw, the timestamp's
//   colons percent-encoded (%3A).
// - Buffer: wait 3 minutes, then the same walk from ge(created_at, start - 3 min).

import http from 'node:http';
import https from 'node:https';

const LIMIT = 100;
const BUFFER_MS = 180_000;

/** @param {{baseUrl: string, token: string, now?: () => number, sleep?: (ms: number) => Promise<void>}} options */
export async function run(options) {
  const now = options.now ?? (() => new Date().getTime());
  const sleep = options.sleep ?? ((ms) => import('node:timers/promises').then((t) => t.setTimeout(ms)));
  const base = new URL(options.baseUrl);
  const lib = base.protocol === 'https:' ? https : http;
  const agent = new lib.Agent({ keepAlive: true });
  const prefix = base.pathname.replace(/\/+$/, '');
  const startedAt = now();
  const ids = [];
  const seen = new Set();
  let requests = 0;
  let groupsPagedFurther = 0;

  const request = (query) =>
    new Promise((resolve, reject) => {
      const req = lib.request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          path: `${prefix}/v2/orders?${query}`,
          agent,
          headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json' },
        },
        (res) => {
          const buf = [];
          res.on('data', (b) => buf.push(b));
          res.on('end', () => {
            requests += 1;
            const text = Buffer.concat(buf).toString();
            if (res.statusCode === 200) resolve(JSON.parse(text).data ?? []);
            else reject(new Error(`orders ${query}: ${res.statusCode} ${text}`));
          });
        },
      );
      req.on('error', reject);
      req.end();
    });

  const createdAt = (o) => o?.meta?.timestamps?.created_at ?? o?.meta?.created_at;

  async function walk(startValue) {
    let value = startValue; // null: first page without filter (step 2)
    let skip = 0; // records with created_at === value already read
    for (;;) {
      const parts = [];
      if (value !== null) parts.push(`filter=ge(created_at,${value.replace(/:/g, '%3A')})`);
      if (skip > 0) parts.push(`page[offset]=${skip}`);
      parts.push('sort=created_at', `page[limit]=${LIMIT}`);
      const rows = await request(parts.join('&'));
      for (const o of rows) {
        if (!seen.has(o.id)) {
          seen.add(o.id);
          ids.push(o.id);
        }
      }
      if (rows.length < LIMIT) return;
      const last = createdAt(rows[rows.length - 1]);
      const sameAsLast = rows.filter((o) => createdAt(o) === last).length;
      if (last === value) {
        skip += sameAsLast; // the whole page was one timestamp: page further
        groupsPagedFurther += 1;
      } else {
        value = last;
        skip = sameAsLast;
      }
    }
  }

  try {
    await walk(null);
    await sleep(BUFFER_MS);
    await walk(new Date(startedAt - BUFFER_MS).toISOString());
  } finally {
    agent.destroy();
  }
  return { ids: { orders: ids }, requests, furtherPages: groupsPagedFurther };
}
