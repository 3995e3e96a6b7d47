// Trap: an accounts exporter that fetches its first page without any sort (the
// default order) and only then switches to sort=id&filter=gt(id,<last id>).
//
// Breaks (section 4.3, step 2): "Request the first page with sort=<attribute>." - the
// last id of an unsorted page is not the largest id read so far, so the gt(id, ...)
// filter jumps over every account whose id sorts below it and was not on page one.
//
// Otherwise follows 4.3 (gt on id, page[limit]=100, stop at an empty page). HTTP stack:
// node:http.

import http from 'node:http';
import https from 'node:https';

/** @param {{baseUrl: string, token: string}} options */
export async function run(options) {
  const base = new URL(options.baseUrl);
  const lib = base.protocol === 'https:' ? https : http;
  const prefix = base.pathname.replace(/\/+$/, '');
  const statuses = {};
  const ids = [];
  const get = (q) =>
    new Promise((resolve, reject) => {
      lib
        .get(
          {
            protocol: base.protocol,
            hostname: base.hostname,
            port: base.port,
            path: `${prefix}/v2/accounts?${q}`,
            headers: { Authorization: `Bearer ${options.token}` },
          },
          (res) => {
            let t = '';
            res.on('data', (c) => (t += c));
            res.on('end', () => {
              statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
              resolve(res.statusCode === 200 ? (JSON.parse(t).data ?? []) : null);
            });
          },
        )
        .on('error', reject);
    });
  let rows = await get('page[limit]=100'); // no sort on the first page
  while (rows && rows.length > 0) {
    for (const r of rows) if (!ids.includes(r.id)) ids.push(r.id);
    const last = rows[rows.length - 1].id;
    rows = await get(`page[limit]=100&sort=id&filter=gt(id,${last})`);
  }
  return { ids: { accounts: ids }, statuses };
}
