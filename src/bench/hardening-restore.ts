/**
 * Part of the bench's hardening section (issue 36), and the `restore` section alone: a restore of a snapshot
 * holding 1,000,000 written accounts (230 MiB) into a served simulator of 1,000,000 seeded ones, with the
 * event loop's long turns while it runs (turn-watch.ts), an idle process's as this machine's floor, and
 * another client's page of 25 beside it and alone before it; then the snapshot taken after it, compared.
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { generateRecords } from '../store/datasets.js';
import { accounts } from '../store/resources.js';
import { child, fmt, percentile, servedHeapFlags } from './child.js';
import type { Served } from './hardening-serving.js';
import type { PageTimes } from './page-child.js';
import type { Section } from './section.js';
import type { TurnSummary } from './turn-watch.js';

const MiB = 2 ** 20;

/** The largest sample: a spread of a few hundred thousand samples into Math.max overflows the stack. */
const most = (xs: readonly number[]): number => xs.reduce((m, x) => Math.max(m, x), -Infinity);

export async function call(
  origin: string,
  path: string,
  token: string,
  init: { method?: 'GET' | 'POST'; body?: string | Uint8Array; type?: string; fresh?: boolean } = {},
): Promise<{ status: number; text: string }> {
  // A fresh connection after seconds of synchronous work here: a kept-alive one may have been closed meanwhile.
  const dispatcher = init.fresh === true ? new Agent() : undefined;
  const res = await request(`${origin}${path}`, {
    ...(dispatcher === undefined ? {} : { dispatcher }),
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': init.type ?? 'application/json' }) },
    ...(init.body === undefined ? {} : { body: init.body }),
    bodyTimeout: 600_000,
    headersTimeout: 600_000,
  });
  const text = await res.body.text();
  await dispatcher?.close();
  return { status: res.statusCode, text };
}

/** The snapshot the restore started from (no project written), as GET /__sim/snapshot gave it. */
export interface EmptySnapshot {
  readonly version: number;
  readonly options: Record<string, unknown>;
  readonly projects: Record<string, unknown>[];
}

/** The restore's rows of the hardening table, and the snapshot it started from. */
export async function restoreRows(served: Served, count: number, step: (what: string) => void): Promise<{ rows: string[]; snapshot: EmptySnapshot }> {
  const { origin, token, adminToken, server, quick } = served;
  const rows: string[] = [];
  step('restore round trip');
  // 4. A snapshot holding 1,000,000 written accounts: restore, snapshot again, compare the bytes.
  const empty = await call(origin, '/__sim/snapshot', adminToken);
  const snap = JSON.parse(empty.text) as EmptySnapshot;
  const records = generateRecords(accounts, { seed: 7, profile: 'default', counts: { accounts: count }, burst: 150 }).map((r) => ({
    id: r.id,
    createdMs: r.createdMs,
    updatedMs: r.updatedMs,
    attrs: r.attrs,
  }));
  const project = snap.projects.find((p) => p['clientId'] === 'bench');
  records.sort((a, b) => (a.id < b.id ? -1 : 1));
  const projects = snap.projects.map((p) => (p === project ? { ...p, lists: { accounts: { upserts: records, deletes: [] } } } : p));
  // The body as the bytes it is sent as, made before the window with the collection it prompts here (a
  // client's 230 MiB buffer starts a mark-compact of this process's heap, whose threads took the CPU from
  // the server as the upload began), so what the window sees of this process is the upload itself.
  const body = Buffer.from(JSON.stringify({ ...snap, projects, drop_projects: true }));
  gc?.();
  // Another client, in a process of its own (page-child.ts): its page with nothing else running (the
  // floor, in the same run), then beside the restore, answered between its slices; and an idle process's
  // turns while the restore runs.
  const reader = await child<unknown>('./page-child.js', [origin, token]);
  await reader.ask('read');
  await new Promise((done) => setTimeout(done, quick ? 1000 : 3000));
  const { times: alone } = await reader.report<PageTimes>('times');
  const idle = await child<unknown>('./idle-child.js', []);
  await idle.ask('watch');
  await server.ask('lag');
  await server.ask('watch');
  await reader.ask('read');
  const tr = performance.now();
  const restored = await call(origin, '/__sim/restore', adminToken, { method: 'POST', body, fresh: true });
  const restoreMs = performance.now() - tr;
  const { times: beside, retried } = await reader.report<PageTimes>('times');
  reader.stop();
  const turns = await server.report<TurnSummary>('turns');
  // BENCH_TURNS=1: each long turn on stderr, to be read beside the served child's --trace-gc lines (BENCH_RESTORE_FLAGS).
  if (process.env['BENCH_TURNS'] === '1')
    for (const t of turns.each)
      process.stderr.write(`  turn at ${t.at.toFixed(0)} ms: ${t.late.toFixed(1)} ms late, cpu ${t.cpu.toFixed(1)}, waiting ${t.waiting.toFixed(1)}, gc ${t.gc.toFixed(1)}\n`);
  const floor = await idle.report<TurnSummary>('turns');
  idle.stop();
  const restoreLag = await server.ask('lag');
  const ts = performance.now();
  const again = await call(origin, '/__sim/snapshot', adminToken, { fresh: true });
  const snapshotMs = performance.now() - ts;
  const expected = JSON.stringify({ ...snap, projects });
  const same = again.text === expected;
  const ms = (n: number) => (n < 0 ? '—' : n.toFixed(1));
  rows.push(`| restore of a snapshot with ${fmt(count)} written accounts (${fmt(body.length / MiB)} MiB body): status | ${restored.status} in ${fmt(restoreMs)} ms | 200 |`);
  rows.push(
    `| the same restore (body read, parsed, checked, loaded and indexed in slices): the event loop's longest turn while it ran, of it on the CPU / waiting for a CPU; the most CPU one turn took; turns over 50 ms; an idle process's longest turn meanwhile (this machine's floor) and its turns over 50 ms | ${ms(turns.longest)} ms (${ms(turns.longestCpu)} / ${ms(turns.longestWaiting)}); ${ms(turns.mostCpu)} ms; ${fmt(turns.over50)}; floor ${floor.longest === 0 ? 'no turn over 20' : ms(floor.longest)} ms, ${fmt(floor.over50)} | ≤ 50 ms ${turns.longest <= 50 ? '✓' : '✗'} (was the whole restore; then 177 ms) |`,
  );
  rows.push(
    `| of the restore's turns over 20 ms, those with a collector pause in them; the longest pause; the longest event-loop delay (monitorEventLoopDelay) | ${fmt(turns.withGc)} of ${fmt(turns.over20)}; ${ms(turns.longestGc)} ms; ${ms(restoreLag)} ms | — |`,
  );
  // Each long turn named by what held it: a collector pause in it, else waiting for a CPU (the machine), else its own work.
  const named = { collector: [0, 0], waiting: [0, 0], work: [0, 0] };
  for (const t of turns.each) {
    const held = t.gc > 0 ? named.collector : t.waiting > t.cpu ? named.waiting : named.work;
    held[0] = (held[0] ?? 0) + 1;
    if (t.late > 50) held[1] = (held[1] ?? 0) + 1;
  }
  const pair = (n: number[]) => `${fmt(n[0] ?? 0)} (${fmt(n[1] ?? 0)})`;
  rows.push(
    `| the restore's turns over 20 ms (over 50 ms) by what held them: a collector pause in the turn; else mostly waiting for a CPU; else mostly on the CPU (the restore's own work) | ${pair(named.collector)}; ${pair(named.waiting)}; ${pair(named.work)} | none over 50 ms |`,
  );
  rows.push(
    `| another client's page of 25 meanwhile, read from a process of its own (${fmt(beside.length)} reads, ${fmt(retried)} asked again on a new connection): p50 / p99 / max; the same page alone before it (${fmt(alone.length)} reads, the floor): p99 / max | ${percentile(beside, 0.5).toFixed(1)} / ${percentile(beside, 0.99).toFixed(1)} / ${most(beside).toFixed(1)} ms; ${percentile(alone, 0.99).toFixed(1)} / ${most(alone).toFixed(1)} ms | max ≤ 100 ms ${most(beside) <= 100 ? '✓' : '✗'} (was 375 ms) |`,
  );
  rows.push(`| the snapshot taken after it (${fmt(snapshotMs)} ms) is byte-identical to what was restored | ${same ? 'yes' : 'no'} | yes |`);

  return { rows, snapshot: snap };
}

/** `npm run bench -- --only restore`: the same restore, alone, in a simulator started for it. */
export const restoreSection: Section = {
  name: 'restore',
  async run({ quick }) {
    const count = quick ? 200_000 : 1_000_000;
    const server = await child<{ origin: string; token: string; adminToken: string }>(
      './hardening-child.js',
      [String(count), JSON.stringify({ maxProjectRecords: 2_000_000 })],
      // The heap `commerce-sim serve` runs with; BENCH_RESTORE_FLAGS: more node flags for the served process (`--trace-gc` to name the stalls).
      ['--expose-gc', '--max-old-space-size=4096', ...servedHeapFlags(), ...(process.env['BENCH_RESTORE_FLAGS'] ?? '').split(' ').filter((f) => f !== '')],
    );
    const { rows } = await restoreRows({ ...server.message, server, quick }, count, (what) => process.stderr.write(`  restore: ${what}\n`));
    server.stop();
    console.log(`\n### A restore of ${fmt(count)} written accounts beside ${fmt(count)} seeded, served\n`);
    console.log('| measure | value | target |\n|---|---:|---|');
    for (const r of rows) console.log(r);
  },
};
