// Purpose: a reader for a flaky network. It walks /v2/files and /v2/accounts by id
// through a transport that drops the connection on every 5th request after the server
// has answered (a deterministic fault injector wrapped around fetch), and retries the
// same request, unchanged, until it gets the answer.
//
// Sections followed: 4.3 steps 1-4 (sort=id, filter=gt(id,<last id>), stop at a page
// with zero records), 4.2/8 (page[limit]=25, within the 100 maximum), the
// eventual-consistency note (buffer, then a created_at pass with ge and further paging
// of one-timestamp pages), 5 (Bearer token).
//
// Choices where the document is silent:
// - Only reads (GET) are retried: a list read does not change the data, so sending it
//   again is safe. (The document says nothing about retrying a create, so this client
//   does not create anything.)
// - Retry policy: up to 5 attempts per request, back-off 200 ms, 400 ms, ... through
//   options.sleep. A reset is a fetch TypeError whose cause has code ECONNRESET (or
//   UND_ERR_SOCKET), which is what undici reports for a dropped socket.
// - HTTP stack: fetch (options.fetch or the global one) under the injector; header names
//   in lower case; the filter's parentheses and comma percent-encoded by hand
//   (gt%28id%2C...%29), brackets raw, parameter order page[limit], sort, filter.
// - Buffer: 2 minutes, then ge(created_at, start - 2 min) per collection to the end.

const LIMIT = 25;
const FAIL_EVERY = 5;
const MAX_ATTEMPTS = 5;
const BUFFER_MS = 120_000;

/**
 * Wrap a fetch so that every `every`-th call reaches the server, reads the whole answer,
 * and then fails as if the connection had been reset before the answer arrived.
 * @param {typeof fetch} inner
 * @param {number} every
 */
export function resettingFetch(inner, every) {
  let calls = 0;
  const wrapped = async (input, init) => {
    calls += 1;
    const res = await inner(input, init);
    if (calls % every !== 0) return res;
    await res.arrayBuffer(); // the server has answered; we drop it on the floor
    wrapped.resets += 1;
    const cause = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
    throw new TypeError('fetch failed', { cause });
  };
  wrapped.resets = 0;
  return wrapped;
}

/** @param {{baseUrl: string, token: string, now?: () => number, sleep?: (ms: number) => Promise<void>, fetch?: typeof fetch}} options */
export async function run(options) {
  const sleep = options.sleep ?? ((ms) => import('node:timers/promises').then((t) => t.setTimeout(ms)));
  const now = options.now ?? (() => new Date().getTime());
  const flaky = resettingFetch(options.fetch ?? globalThis.fetch, FAIL_EVERY);
  const base = options.baseUrl.replace(/\/+$/, '');
  const startedAt = now();
  let attempts = 0;
  let retries = 0;

  const isReset = (e) => e instanceof TypeError && ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'].includes(e.cause?.code ?? '');

  async function getJson(url) {
    for (let attempt = 1; ; attempt += 1) {
      attempts += 1;
      try {
        const res = await flaky(url, { headers: { authorization: `Bearer ${options.token}` } });
        if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
        return await res.json();
      } catch (e) {
        if (!isReset(e) || attempt >= MAX_ATTEMPTS) throw e;
        retries += 1;
        await sleep(200 * 2 ** (attempt - 1));
      }
    }
  }

  const ids = { files: [], accounts: [] };
  const seen = { files: new Set(), accounts: new Set() };
  const keep = (c, rows) => {
    for (const r of rows) {
      if (!seen[c].has(r.id)) {
        seen[c].add(r.id);
        ids[c].push(r.id);
      }
    }
  };

  for (const c of ['files', 'accounts']) {
    let last = null;
    for (;;) {
      let url = `${base}/v2/${c}?page[limit]=${LIMIT}&sort=id`;
      if (last !== null) url += `&filter=gt%28id%2C${encodeURIComponent(last)}%29`;
      const body = await getJson(url);
      const rows = body.data ?? [];
      if (rows.length === 0) break;
      keep(c, rows);
      last = rows[rows.length - 1].id;
    }
  }

  await sleep(BUFFER_MS);
  const stamp = (r) => r?.meta?.timestamps?.created_at ?? r?.meta?.created_at;
  for (const c of ['files', 'accounts']) {
    let value = new Date(startedAt - BUFFER_MS).toISOString();
    let offset = 0;
    for (;;) {
      const url = `${base}/v2/${c}?page[limit]=${LIMIT}&sort=created_at` + `&filter=ge%28created_at%2C${encodeURIComponent(value)}%29` + (offset ? `&page[offset]=${offset}` : '');
      const rows = (await getJson(url)).data ?? [];
      keep(c, rows);
      if (rows.length < LIMIT) break;
      const first = stamp(rows[0]);
      const last = stamp(rows[rows.length - 1]);
      if (first === last && last === value) offset += rows.length;
      else {
        value = last;
        offset = 0;
      }
    }
  }

  return { ids, requests: attempts, resets: flaky.resets, retries };
}
