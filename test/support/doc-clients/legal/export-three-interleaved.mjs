// Purpose: a nightly exporter that copies three collections at once: /v2/accounts,
// /v2/orders and /v2/files. The three walks run as concurrent promises, so their
// requests interleave on the wire.
//
// Sections followed: 4.3 (accounts and files: sort=id, filter=gt(id,<last id>),
// stop at a page with zero records - steps 1-4 and the accounts CSV example; orders:
// sort=created_at, filter=ge(created_at,<last value>), further paging with page[offset]
// when a page's first and last timestamps are identical), 4.3 eventual-consistency note
// (buffer), 4.2/8 (page[limit]=100, the maximum), 5 (Bearer token).
//
// Choices where the document is silent:
// - HTTP stack: global fetch (or options.fetch); queries built with URLSearchParams, so
//   brackets, commas and parentheses go out percent-encoded (page%5Blimit%5D,
//   filter=gt%28id%2C...%29); parameter order filter, sort, page[offset], page[limit].
// - Orders are walked by created_at and the other two by id, to exercise both forms.
// - For a timestamp walk, "further paging" means: keep the ge filter and skip, with
//   page[offset], the records of that timestamp already read (ties come back in a stable
//   order - observed on the sandbox, not stated by the document).
// - End of a timestamp walk: a page shorter than the limit.
// - Buffer: after all three walks the exporter waits 2 minutes and, per collection,
//   re-reads ge(created_at, start - 2 min) to the end, adding records it had not seen
//   (records that became visible late, possibly behind an id cursor).
// - Record timestamps read from meta.timestamps.created_at (fallback meta.created_at).

const LIMIT = 100;
const BUFFER_MS = 120_000;

/** @param {{baseUrl: string, token: string, now?: () => number, sleep?: (ms: number) => Promise<void>, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date().getTime());
  const sleep = options.sleep ?? ((ms) => import('node:timers/promises').then((t) => t.setTimeout(ms)));
  const base = options.baseUrl.replace(/\/+$/, '');
  const startedAt = now();
  let requests = 0;

  async function list(collection, params) {
    const qs = new URLSearchParams();
    if (params.filter) qs.set('filter', params.filter);
    qs.set('sort', params.sort);
    if (params.offset) qs.set('page[offset]', String(params.offset));
    qs.set('page[limit]', String(LIMIT));
    const res = await fetchImpl(`${base}/v2/${collection}?${qs}`, {
      headers: { Authorization: `Bearer ${options.token}` },
    });
    requests += 1;
    if (!res.ok) throw new Error(`${collection} ${qs}: HTTP ${res.status} ${await res.text()}`);
    const body = await res.json();
    return Array.isArray(body.data) ? body.data : [];
  }

  const stamp = (r) => r?.meta?.timestamps?.created_at ?? r?.meta?.created_at ?? r?.created_at;

  function collector() {
    const seen = new Set();
    const ids = [];
    return {
      ids,
      add(rows) {
        for (const r of rows) {
          if (!seen.has(r.id)) {
            seen.add(r.id);
            ids.push(r.id);
          }
        }
      },
    };
  }

  async function byId(collection, into) {
    let last = null;
    for (;;) {
      const rows = await list(collection, { sort: 'id', filter: last === null ? null : `gt(id,${last})` });
      if (rows.length === 0) return; // step 4
      into.add(rows);
      last = rows[rows.length - 1].id;
    }
  }

  async function byCreated(collection, into, fromIso) {
    let cursor = fromIso; // null: first page unfiltered
    let skip = 0; // records at `cursor` already read, in the server's tie order
    for (;;) {
      const rows = await list(collection, {
        sort: 'created_at',
        filter: cursor === null ? null : `ge(created_at,${cursor})`,
        offset: skip,
      });
      into.add(rows);
      if (rows.length < LIMIT) return;
      const last = stamp(rows[rows.length - 1]);
      const atLast = rows.filter((r) => stamp(r) === last).length;
      if (last === cursor)
        skip += atLast; // whole page at the cursor's timestamp
      else {
        cursor = last;
        skip = atLast;
      }
    }
  }

  const out = { accounts: collector(), orders: collector(), files: collector() };
  await Promise.all([byId('accounts', out.accounts), byCreated('orders', out.orders, null), byId('files', out.files)]);

  await sleep(BUFFER_MS);
  const tailFrom = new Date(startedAt - BUFFER_MS).toISOString();
  await Promise.all(Object.keys(out).map((c) => byCreated(c, out[c], tailFrom)));

  return {
    ids: { accounts: out.accounts.ids, orders: out.orders.ids, files: out.files.ids },
    requests,
  };
}
