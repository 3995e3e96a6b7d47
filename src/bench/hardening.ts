/**
 * Bench section `hardening` (issues 10 and 18): what a served simulator of 1,000,000 accounts costs and
 * keeps doing under clients that are many, heavy or large: RSS with 100 client ids, the 10-clause
 * timestamp filter, another client's latency beside four connections sending it, the work budget of
 * costly filters and the shape limits of bodies (hardening-budget.ts), a 1,000,000-account restore,
 * hostile restores (counts past the record budget, a body of small elements), and the RSS of a
 * simulator whose record budget clients have filled with creates.
 */
import { performance } from 'node:perf_hooks';
import { RECORD_HEAP_BYTES } from '../store/record-budget.js';
import { accounts, listResources } from '../store/resources.js';
import { child, fmt, percentile, servedHeapFlags } from './child.js';
import { budgetRows } from './hardening-budget.js';
import { lookupRows } from './hardening-lookups.js';
import { call, restoreRows } from './hardening-restore.js';
import { firstReadRows, floodRows, shutdownRows } from './hardening-serving.js';
import { load } from './load.js';
import { snapshotShapeLimits } from '../sim/snapshot.js';
import { Simulator } from '../sim/simulator.js';
import type { Section } from './section.js';

interface Ready {
  origin: string;
  token: string;
  adminToken: string;
}

const MiB = 2 ** 20;

/** Ten clauses on updated_at, off the default sort (created_at): five lower and five upper bounds. */
function tenClauses(fromMs: number, toMs: number): string {
  const at = (ms: number) => new Date(ms).toISOString();
  return Array.from({ length: 5 }, (_, i) => `gt(updated_at,${at(fromMs - i * 1000)}):lt(updated_at,${at(toMs + i * 1000)})`).join(':');
}

const DATA_START = Date.UTC(2024, 0, 1);

export const hardening: Section = {
  name: 'hardening',
  async run({ quick }) {
    const count = quick ? 200_000 : 1_000_000;
    // A project may write what the restore below brings (the per-project cap is 100,000 by default).
    const forked = performance.now();
    const server = await child<Ready>('./hardening-child.js', [String(count), JSON.stringify({ maxProjectRecords: 2_000_000 })], ['--expose-gc', '--max-old-space-size=4096', ...servedHeapFlags()]);
    const { origin, token, adminToken } = server.message;
    const rows: string[] = [];
    const step = (what: string) => process.stderr.write(`  hardening: ${what}\n`);
    const readyMs = performance.now() - forked;
    const served = { origin, token, adminToken, server, quick };
    rows.push(...(await firstReadRows(served, count, readyMs, step)));

    step('100 client ids');
    // 1. RSS: the seeded base, then 100 client ids each reading a page.
    await call(origin, '/v2/accounts?page[limit]=100&page[offset]=5000', token);
    const rssBase = await server.ask('rss');
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) {
      const form = `grant_type=client_credentials&client_id=client-${i}&client_secret=x`;
      const got = await call(origin, '/oauth/access_token', '', { method: 'POST', body: form, type: 'application/x-www-form-urlencoded' });
      const t = (JSON.parse(got.text) as { access_token: string }).access_token;
      await call(origin, '/v2/accounts?page[limit]=100&page[offset]=5000', t);
      await call(origin, '/v2/accounts?sort=-updated_at&page[limit]=100', t);
    }
    const clientsMs = performance.now() - t0;
    const rss100 = await server.ask('rss');
    rows.push(`| RSS of the served simulator, seeded base read once | ${fmt(rssBase / MiB)} MiB | — |`);
    rows.push(`| RSS after 100 more client ids each read two pages (${fmt(clientsMs)} ms) | ${fmt(rss100 / MiB)} MiB | < 1,536 MiB |`);
    const perClient = (rss100 - rssBase) / 100 / MiB;
    rows.push(`| RSS per extra client id | ${perClient <= 0 ? "≈ 0 (below the collector's noise)" : `${perClient.toFixed(2)} MiB`} | — |`);

    step('10-clause filter');
    // 2. The 10-clause timestamp filter off the sort field: wide (every record) and narrow (~100).
    const spanMs = count * 30_000;
    const wide = `/v2/accounts?filter=${tenClauses(DATA_START - 86_400_000, DATA_START + spanMs + 86_400_000)}&page[limit]=100`;
    const narrow = `/v2/accounts?filter=${tenClauses(DATA_START + spanMs / 2, DATA_START + spanMs / 2 + 3_000_000)}&page[limit]=100`;
    // A scan of every record in id order (scattered in memory): answered, in slices between other requests (issue 28).
    const scan = `/v2/accounts?sort=id&filter=gt(created_at,2000-01-01T00:00:00Z):lt(updated_at,2100-01-01T00:00:00Z):like(name,*1*)&page[limit]=100`;
    for (const [name, path] of [
      ['wide: matches every record', wide],
      ['narrow: matches ~100 records', narrow],
      [`a scan of ${fmt(count)} records in id order (two ranges off the sort field plus like), in slices`, scan],
    ] as const) {
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < (path === scan ? 2 : quick ? 5 : 15); i++) {
        const t = performance.now();
        status = (await call(origin, path, token)).status;
        times.push(performance.now() - t);
      }
      const target = path === scan ? 'status 200 (was 400)' : '< 50 ms';
      const what = path === scan ? 'filter' : '10-clause updated_at filter';
      rows.push(`| ${what} at ${fmt(count)} accounts, ${name} (median over HTTP, status ${status}) | ${percentile(times, 0.5).toFixed(1)} ms | ${target} |`);
    }

    step('latency beside the filter');
    // 3. Another client's latency while four connections send the wide filter in a loop.
    const seconds = quick ? 2 : 5;
    const heavy = load({ origin, connections: 4, seconds, headers: { authorization: `Bearer ${token}` }, request: () => ({ method: 'GET', path: wide }) });
    const light: number[] = [];
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      const t = performance.now();
      await call(origin, '/v2/accounts?page[limit]=25', token);
      light.push(performance.now() - t);
    }
    const heavyResult = await heavy;
    rows.push(
      `| another client's page of 25 beside 4 connections sending the wide filter (${fmt(heavyResult.perSecond)} filters/s): p50 / p99 | ${percentile(light, 0.5).toFixed(1)} / ${percentile(light, 0.99).toFixed(1)} ms | p99 < 100 ms |`,
    );

    rows.push(...(await floodRows(served, step)));
    rows.push(...(await lookupRows({ origin, token, count, quick, server }, step)));
    const budgeted = await budgetRows({ origin, token, count, start: DATA_START, spacingMs: 30_000, quick, server }, step);
    rows.push(...budgeted.rows);

    const restore = await restoreRows(served, count, step);
    rows.push(...restore.rows);
    const snap = restore.snapshot;

    step('hostile restores');
    // 5. Every collection at 2,000,000 (each within the per-collection cap): 38,000,000 records, 478 bytes.
    const hostile = JSON.stringify({ version: 2, options: { counts: Object.fromEntries(listResources.map((r) => [r.name, 2_000_000])) }, projects: [], drop_projects: true });
    const th = performance.now();
    const refusedCounts = await call(origin, '/__sim/restore', adminToken, { method: 'POST', body: hostile, fresh: true });
    rows.push(
      `| restore of ${Buffer.byteLength(hostile)} bytes setting all 19 collections to 2,000,000 records: status | ${refusedCounts.status} in ${(performance.now() - th).toFixed(1)} ms | 400, at once |`,
    );
    const read = await call(origin, '/v2/accounts?page[limit]=1', token, { fresh: true });
    rows.push(`| a read after it | ${read.status} | 200 |`);
    // 6. A body of small elements: cheap to send, costly to parse (values, not bytes).
    const mib = 150;
    const small = `[${'0,'.repeat((mib * MiB) / 2 - 1)}0]`;
    const ts2 = performance.now();
    const refusedBody = await call(origin, '/__sim/restore', adminToken, { method: 'POST', body: small, fresh: true });
    const smallMs = performance.now() - ts2;
    const rssAfterSmall = await server.ask('rss');
    rows.push(
      `| restore of a ${mib} MiB body of small elements (\`[0,0,...]\`): status, then RSS | ${refusedBody.status} in ${fmt(smallMs)} ms, ${fmt(rssAfterSmall / MiB)} MiB | 413 within seconds |`,
    );
    // 6b. The costliest body the limits let through: as many values as the fullest snapshot the budget
    // holds (short strings, so it stays under the byte limit), parsed beside the records written above.
    const budget = (JSON.parse((await call(origin, '/__sim/state', adminToken, { fresh: true })).text) as { data: { records: { max: number; set_aside_for_projects: number } } }).data.records;
    const values = snapshotShapeLimits(budget.max - budget.set_aside_for_projects, 1000).maxValues - 400;
    const head = JSON.stringify({ ...snap, projects: [{ ...snap.projects[0], lists: { accounts: { upserts: ['@'], deletes: [] } } }] }).split('"@"');
    const worst = `${head[0] ?? ''}${Buffer.alloc(values * 20 - 1, '"abcdefghijklmnopq",').toString('latin1')}${head[1] ?? ''}`;
    await server.ask('lag');
    const tw = performance.now();
    const refusedWorst = await call(origin, '/__sim/restore', adminToken, { method: 'POST', body: worst, fresh: true });
    const worstMs = performance.now() - tw;
    const worstLag = await server.ask('lag');
    const readAfter = await call(origin, '/v2/accounts?page[limit]=1', token, { fresh: true });
    // The same body handed to a simulator of the same budget in process: the examining alone, no upload.
    const judge = new Simulator({ seed: 42, accounts: count, wallClock: () => 0, maxRecords: budget.max, maxProjects: 1000, maxProjectRecords: 2_000_000 });
    const ti = performance.now();
    const inProcess = judge.handle({ method: 'POST', url: '/__sim/restore', headers: { authorization: `Bearer ${judge.adminToken}`, 'content-type': 'application/json' }, body: worst });
    const examineMs = performance.now() - ti;
    rows.push(
      `| restore of the costliest body the limits let through before (${fmt(Buffer.byteLength(worst) / MiB)} MiB, ${fmt(values)} values) beside ${fmt(count)} written records: status over HTTP (upload included), then a read; longest event-loop stall | ${refusedWorst.status} in ${fmt(worstMs)} ms, then ${readAfter.status}; ${worstLag.toFixed(1)} ms | 413, no crash (was 31,673 ms) |`,
    );
    rows.push(`| the same body examined in process (no upload): refused at the first record past the room | ${inProcess.status} in ${fmt(examineMs)} ms | well under 1,000 ms |`);
    rows.push(...(await shutdownRows(served, `at ${fmt(count)} accounts, busy`, budgeted.costliest, step)));
    const tenK = await child<Ready>('./hardening-child.js', ['10000'], []);
    rows.push(...(await shutdownRows({ ...tenK.message, server: tenK, quick }, 'at 10,000 accounts', undefined, step)));

    step('creates up to the record budget');
    // 7. Clients create until the record budget (seeded + written + set aside for projects) answers 422.
    const writes = quick ? 50_000 : 200_000;
    const seeded = listResources.reduce((n, r) => n + r.defaultCount, 0);
    const maxRecords = seeded + 1000 * 16 + writes;
    const filler = await child<Ready>('./hardening-child.js', [String(accounts.defaultCount), JSON.stringify({ maxRecords, maxProjectRecords: 2_000_000 })], ['--expose-gc']);
    const rssEmpty = await filler.ask('rss');
    const tf = performance.now();
    let refusedCreates = 0;
    while (refusedCreates === 0) {
      const r = await load({
        origin: filler.message.origin,
        connections: 4,
        seconds: 2,
        headers: { authorization: `Bearer ${filler.message.token}`, 'content-type': 'application/json' },
        request: (i) => ({
          method: 'POST',
          path: '/v2/accounts',
          body: JSON.stringify({ data: { type: 'account', name: `Filler ${i}`, legal_name: `Filler ${i} Ltd`, registration_id: `REG-${i}`, external_ref: `ext-${i}` } }),
        }),
      });
      refusedCreates = r.non2xx;
    }
    const fillMs = performance.now() - tf;
    const state = JSON.parse((await call(filler.message.origin, '/__sim/state', filler.message.adminToken)).text) as { data: { records: { written: number } } };
    const written = state.data.records.written;
    const after = await call(filler.message.origin, '/v2/accounts', filler.message.token, { method: 'POST', body: JSON.stringify({ data: { type: 'account', name: 'One more' } }) });
    const rssFull = await filler.ask('rss');
    const perRecord = (rssFull - rssEmpty) / written;
    rows.push(
      `| creates until the record budget (--max-records ${fmt(maxRecords)}) is full: records written in ${fmt(fillMs)} ms, then a create's status | ${fmt(written)}, then ${after.status} | ${fmt(writes)}, then 422 |`,
    );
    rows.push(
      `| RSS with the budget full (${fmt(rssEmpty / MiB)} MiB before): after / per written record | ${fmt(rssFull / MiB)} MiB / ${perRecord < 0 ? '—' : `${fmt(perRecord)} bytes`} | per record < ${fmt(RECORD_HEAP_BYTES)} bytes (the budget's figure) |`,
    );
    filler.stop();

    console.log(`\n### A served simulator under many, heavy and large clients (${fmt(count)} accounts)\n`);
    console.log('| measure | value | target |\n|---|---:|---|');
    for (const r of rows) console.log(r);
  },
};
