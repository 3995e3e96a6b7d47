// Purpose: the accounts CSV export of section 4.3 (columns: name, legal name,
// registration id, id), run as a job that is interrupted part-way (simulated crash
// after the third page) and resumed from its checkpoint by a second run. Every
// request goes out on a fresh connection.
//
// Sections followed: 4.3 (the full export: page[limit]=100, sort=id,
// filter=gt(id,<last_id>) on /v2/accounts; step 4: stop when a page returns zero
// records), the eventual-consistency note (buffer), 5 (Bearer token).
//
// Choices where the document is silent:
// - HTTP stack: node:http / node:https, agent: false and a `Connection: close` header,
//   so no socket is reused; header names in Title-Case.
// - Parameter order: filter first, then sort, then page[limit]; brackets raw, the
//   filter's parentheses and comma raw too.
// - The checkpoint (a JSON string, as a job would write to a file) is saved after the
//   page's rows are appended to the CSV; it holds the last id and the row count. The
//   resumed run starts with filter=gt(id,<checkpoint id>). A crash between append and
//   save would duplicate rows, never lose them; rows are de-duplicated by id anyway.
// - CSV field names from the listed record: name, legal_name, registration_id, id.
// - Buffer: after the id walk, wait 2 minutes and read ge(created_at, start - 2 min)
//   sorted by created_at, appending rows not yet exported (records that became visible
//   late may sit behind the id cursor). Further paging in that tail by page[offset].

import http from 'node:http';
import https from 'node:https';

const LIMIT = 100;
const BUFFER_MS = 120_000;
const CRASH_AFTER_PAGES = 3;

class Interrupted extends Error {}

/** @param {{baseUrl: string, token: string, now?: () => number, sleep?: (ms: number) => Promise<void>}} options */
export async function run(options) {
  const now = options.now ?? (() => new Date().getTime());
  const sleep = options.sleep ?? ((ms) => import('node:timers/promises').then((t) => t.setTimeout(ms)));
  const base = new URL(options.baseUrl);
  const lib = base.protocol === 'https:' ? https : http;
  const prefix = base.pathname.replace(/\/+$/, '');
  const startedAt = now();

  /** The "disk": a CSV file and a checkpoint file. */
  const disk = { csv: ['name,legal_name,registration_id,id'], checkpoint: null };
  const order = [];
  const seen = new Set();
  let requests = 0;
  let runs = 0;

  function get(pathAndQuery) {
    return new Promise((resolve, reject) => {
      const req = lib.request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          path: `${prefix}${pathAndQuery}`,
          method: 'GET',
          agent: false,
          headers: {
            Authorization: `Bearer ${options.token}`,
            Accept: 'application/json',
            Connection: 'close',
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            requests += 1;
            if (res.statusCode !== 200) return reject(new Error(`${pathAndQuery}: HTTP ${res.statusCode} ${text}`));
            try {
              const body = JSON.parse(text);
              resolve(Array.isArray(body.data) ? body.data : []);
            } catch (e) {
              reject(e);
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  const cell = (v) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  function append(rows) {
    for (const r of rows) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      order.push(r.id);
      disk.csv.push([r.name, r.legal_name, r.registration_id, r.id].map(cell).join(','));
    }
  }

  /** One run of the export job; reads its checkpoint, may crash. */
  async function exportJob(crashAfter) {
    runs += 1;
    const cp = disk.checkpoint ? JSON.parse(disk.checkpoint) : { lastId: null, rows: 0 };
    let lastId = cp.lastId;
    let pages = 0;
    for (;;) {
      const q = lastId === null ? `sort=id&page[limit]=${LIMIT}` : `filter=gt(id,${lastId})&sort=id&page[limit]=${LIMIT}`;
      const rows = await get(`/v2/accounts?${q}`);
      if (rows.length === 0) return; // step 4
      append(rows);
      lastId = rows[rows.length - 1].id;
      disk.checkpoint = JSON.stringify({ lastId, rows: disk.csv.length - 1 });
      pages += 1;
      if (crashAfter !== null && pages >= crashAfter) throw new Interrupted(`killed after ${pages} pages`);
    }
  }

  let interrupted = false;
  try {
    await exportJob(CRASH_AFTER_PAGES);
  } catch (e) {
    if (!(e instanceof Interrupted)) throw e;
    interrupted = true;
  }
  if (interrupted) await exportJob(null); // the restart resumes from the checkpoint

  // buffer pass over the recent past, by created_at
  await sleep(BUFFER_MS);
  let cursor = new Date(startedAt - BUFFER_MS).toISOString();
  let offset = 0;
  for (;;) {
    const q = `filter=ge(created_at,${cursor})&sort=created_at&page[limit]=${LIMIT}${offset ? `&page[offset]=${offset}` : ''}`;
    const rows = await get(`/v2/accounts?${q}`);
    append(rows);
    if (rows.length < LIMIT) break;
    const ts = (r) => r?.meta?.timestamps?.created_at ?? r?.meta?.created_at;
    const first = ts(rows[0]);
    const last = ts(rows[rows.length - 1]);
    if (first === last && last === cursor) offset += rows.length;
    else {
      cursor = last;
      offset = 0;
    }
  }

  return { ids: { accounts: order }, requests, runs, interrupted, csvRows: disk.csv.length - 1 };
}
