/**
 * Where a served list page's time goes beyond the static floor of the same bytes: the simulator and the
 * floor (servers-child.ts) each run under `node --cpu-prof` and take the same load (load.ts) as in
 * `npm run bench -- --only list`; then each profile's samples are summed by where they fell (the
 * simulator's own modules, node:http and the streams under it, the collector, ...) and divided by the
 * requests answered: µs per request, side by side. Sampling adds its own cost to both; read the shares.
 *
 *   npm run build && node dist/bench/profile-list.js [25|100|both] [seconds]
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from './load.js';

interface Ready {
  origin: string;
  token: string;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const which = process.argv[2] ?? 'both';
const seconds = Number(process.argv[3] ?? 4);
const CONNECTIONS = 64;
const server = fileURLToPath(new URL('./servers-child.js', import.meta.url));

/** Fork a server child with the profiler on; `done()` stops it and resolves with its profile. */
async function profiled<T>(args: readonly string[]): Promise<{ message: T; ask(m: 'cpu' | 'mark'): Promise<number>; done(): Promise<Profile> }> {
  const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-prof-'));
  const proc = fork(server, [...args], { execArgv: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const message = await new Promise<T>((resolve) => proc.once('message', (m) => resolve(m as T)));
  const ask = (question: 'cpu' | 'mark') =>
    new Promise<number>((resolve) => {
      proc.once('message', (m) => resolve(Number(m)));
      proc.send(question);
    });
  const done = async () => {
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.send('stop');
    await exited;
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error(`no profile in ${dir}`);
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
    rmSync(dir, { recursive: true, force: true });
    return profile;
  };
  return { message, ask, done };
}

/** Where a sample fell, coarsely: the simulator's module folder, node's http or streams, the collector, ... */
function bucketOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') return functionName === '' ? '(native)' : functionName;
  const ours = /\/dist\/(.+)\.js$/.exec(url);
  if (ours !== null) return ours[1] as string;
  if (url.startsWith('node:')) {
    const m = url.slice(5);
    if (m.startsWith('_http') || m.startsWith('internal/http') || m === 'http') return 'node:http';
    if (m.includes('streams') || m === 'stream') return 'node:streams';
    if (m === 'net' || m.startsWith('internal/stream_base') || m === 'internal/net') return 'node:net';
    if (m.includes('timers') || m.includes('process/task_queues')) return 'node:timers/ticks';
    if (m === 'events') return 'node:events';
    if (m.includes('buffer')) return 'node:buffer';
    return `node:${m}`;
  }
  return url;
}

interface Tally {
  readonly byBucket: Map<string, number>;
  readonly byFunction: Map<string, number>;
  /** Sampled time with the process busy (idle excluded), µs. */
  readonly busy: number;
}

/** Self time per profile node over the samples taken between `from` and `to` (µs of the monotonic clock). */
function tally(profile: Profile, from: number, to: number): Tally {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) continue;
    const id = profile.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const byBucket = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const frame = (nodes.get(id) as ProfileNode).callFrame;
    if (frame.functionName === '(idle)') continue;
    busy += us;
    const bucket = bucketOf(frame);
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + us);
    const name = `${frame.functionName || '(anonymous)'} ${bucket}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  return { byBucket, byFunction, busy };
}

async function run(limit: 25 | 100): Promise<void> {
  const path = limit === 25 ? '/v2/accounts?page[limit]=25&page[offset]=100' : '/v2/accounts?page[limit]=100&page[offset]=500';
  const sim = await profiled<Ready>(['sim', '100000']);
  const headers = { authorization: `Bearer ${sim.message.token}` };
  const floor = await profiled<Ready>(['static', JSON.stringify({ origin: sim.message.origin, token: sim.message.token, answers: [{ key: 'GET /p', method: 'GET', path }] })]);
  const measured: { name: string; requests: number; cpu: number; tally: Tally }[] = [];
  for (const [name, s, origin, p] of [
    ['floor', floor, floor.message.origin, '/p'],
    ['simulator', sim, sim.message.origin, path],
  ] as const) {
    // A warm-up second, then the measured load.
    await load({ connections: CONNECTIONS, seconds: 1, headers, origin, request: () => ({ method: 'GET', path: p }) });
    const from = await s.ask('mark');
    const before = await s.ask('cpu');
    const r = await load({ connections: CONNECTIONS, seconds, headers, origin, request: () => ({ method: 'GET', path: p }) });
    const cpu = ((await s.ask('cpu')) - before) / r.requests;
    const to = await s.ask('mark');
    measured.push({ name, requests: r.requests, cpu, tally: tally(await s.done(), from, to) });
  }
  const [f, m] = measured as [(typeof measured)[0], (typeof measured)[0]];
  // Only the measured window's samples: start-up (seeding, indexes) and the warm-up are left out.
  const perRequest = (t: Tally, us: number) => us / t.busy;
  console.log(`\n### Served page of ${limit}: where the CPU goes (sampled; µs per request = share of the process's busy time × its CPU per request)\n`);
  console.log(`CPU per request under load: simulator ${m.cpu.toFixed(1)} µs, floor ${f.cpu.toFixed(1)} µs (${(m.cpu / f.cpu).toFixed(2)}×), with the profiler on.\n`);
  const buckets = new Set([...m.tally.byBucket.keys(), ...f.tally.byBucket.keys()]);
  const rows = [...buckets].map((b) => ({ b, sim: perRequest(m.tally, m.tally.byBucket.get(b) ?? 0) * m.cpu, floor: perRequest(f.tally, f.tally.byBucket.get(b) ?? 0) * f.cpu }));
  rows.sort((a, b) => b.sim - b.floor - (a.sim - a.floor));
  console.log('| where | simulator µs/req | floor µs/req | beyond the floor |\n|---|---:|---:|---:|');
  for (const r of rows) if (Math.max(r.sim, r.floor) >= 0.3) console.log(`| ${r.b} | ${r.sim.toFixed(1)} | ${r.floor.toFixed(1)} | ${(r.sim - r.floor).toFixed(1)} |`);
  console.log(`\nTop functions of the simulator (self time, µs per request):\n`);
  const top = [...m.tally.byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [name, us] of top) console.log(`- ${(perRequest(m.tally, us) * m.cpu).toFixed(2)} ${name}`);
}

if (which === '25' || which === 'both') await run(25);
if (which === '100' || which === 'both') await run(100);
