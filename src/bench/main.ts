/**
 * `npm run bench`: every speed figure of the project, measured in one run, with ratios against a raw
 * node:http baseline measured in the same run. Prints Markdown tables (pasted into docs/performance.md).
 * Options: --quick (shorter loads), --only imports,cold,list,scale,suite,props,export,hardening,restore,traffic
 * (restore: the hardening section's restore alone, not run by default)
 */
import { parseArgs } from 'node:util';
import { load, type LoadResult } from './load.js';
import { extraSections } from './sections.js';
import { child, fmt, servedHeapFlags } from './child.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } }, strict: true });
const only = new Set((values.only ?? 'imports,cold,list,scale,suite,props,export,hardening,traffic').split(','));
const seconds = values.quick ? 1 : 3;

interface Ready {
  origin: string;
  token: string;
  deep: string;
  realm_id: string;
  user_authentication_info_id: string;
  password_profile_id: string;
}

const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 64);

type Req = (i: number) => { method: 'GET' | 'POST'; path: string; body?: string };

interface HandlerRow {
  readonly name: string;
  readonly handle: number;
  readonly stringify: number;
}

async function listReads(work: readonly HandlerRow[]): Promise<void> {
  const accounts = 100_000;
  const sim = await child<Ready>('./servers-child.js', ['sim', String(accounts)], servedHeapFlags());
  const base = await child<Ready>('./servers-child.js', ['baseline', String(accounts)]);
  const s = { ...sim.message, deep: base.message.deep };
  const headers = { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' };
  const create = `/v2/authentication-realms/${s.realm_id}/user-authentication-info/${s.user_authentication_info_id}/user-authentication-password-profile-info`;
  const body = (i: number) =>
    JSON.stringify({ data: { type: 'user_authentication_password_profile_info', username: `user${i}`, password: 'correct horse', password_profile_id: s.password_profile_id } });
  // `worked`: the floor sending the same bytes after as much CPU work as `Simulator.handle` does in process
  // for the request (handler-child.ts, this run): node:http's own cost at the simulator's pace, whatever the
  // work is. The simulator above it is what its adapter and the garbage of its work add.
  const cases: { name: string; sim: Req; base: Req; floor: Req; worked?: Req }[] = [
    {
      name: 'page of 25 at offset 100',
      sim: () => ({ method: 'GET', path: '/v2/accounts?page[limit]=25&page[offset]=100' }),
      base: () => ({ method: 'GET', path: '/accounts?limit=25&offset=100' }),
      floor: () => ({ method: 'GET', path: '/p25' }),
      worked: () => ({ method: 'GET', path: '/p25w' }),
    },
    {
      name: 'page of 100',
      sim: () => ({ method: 'GET', path: '/v2/accounts?page[limit]=100&page[offset]=500' }),
      base: () => ({ method: 'GET', path: '/accounts?limit=100&offset=500' }),
      floor: () => ({ method: 'GET', path: '/p100' }),
      worked: () => ({ method: 'GET', path: '/p100w' }),
    },
    {
      name: 'keyset page deep in the set (sort=id, gt(id,X), 100)',
      sim: () => ({ method: 'GET', path: `/v2/accounts?sort=id&filter=gt(id,${s.deep})&page[limit]=100` }),
      base: () => ({ method: 'GET', path: `/accounts?after=${s.deep}&limit=100` }),
      floor: () => ({ method: 'GET', path: '/keyset' }),
      worked: () => ({ method: 'GET', path: '/keysetw' }),
    },
    {
      name: 'create (password profile info)',
      sim: (i) => ({ method: 'POST', path: create, body: body(i) }),
      base: (i) => ({ method: 'POST', path: '/profile', body: body(i) }),
      floor: (i) => ({ method: 'POST', path: '/create', body: body(i) }),
    },
  ];
  // The floor: a static node:http server sending the simulator's own bytes for each case.
  const handleUs = (i: number) => work.find((w) => w.name === (cases[i] as (typeof cases)[0]).name)?.handle ?? 0;
  const writePaths = ['cork', 'string'] as const;
  const answers = [
    { key: 'GET /p25', method: 'GET', path: (cases[0] as (typeof cases)[0]).sim(0).path },
    { key: 'GET /p100', method: 'GET', path: (cases[1] as (typeof cases)[0]).sim(0).path },
    { key: 'GET /keyset', method: 'GET', path: (cases[2] as (typeof cases)[0]).sim(0).path },
    { key: 'GET /p25w', method: 'GET', path: (cases[0] as (typeof cases)[0]).sim(0).path, spinUs: handleUs(0) },
    { key: 'GET /p100w', method: 'GET', path: (cases[1] as (typeof cases)[0]).sim(0).path, spinUs: handleUs(1) },
    { key: 'GET /keysetw', method: 'GET', path: (cases[2] as (typeof cases)[0]).sim(0).path, spinUs: handleUs(2) },
    { key: 'POST /create', method: 'POST', path: create, body: body(-1) },
    // Issue 36 item 4: the same bytes written by the other write paths (servers-child.ts WritePath).
    ...writePaths.flatMap((write) => [
      { key: `GET /p25${write}`, method: 'GET', path: (cases[0] as (typeof cases)[0]).sim(0).path, write },
      { key: `GET /p100${write}`, method: 'GET', path: (cases[1] as (typeof cases)[0]).sim(0).path, write },
    ]),
  ];
  const floor = await child<{ origin: string }>('./servers-child.js', ['static', JSON.stringify({ origin: s.origin, token: s.token, answers })]);
  // Alternating rounds, median of each: the servers see the same machine weather. Besides req/s (which on
  // 2 cores also depends on the client and the kernel), each server's own CPU time per request.
  const rounds = seconds > 1 ? 3 : 1;
  const rows: string[] = [];
  const pathRows: string[] = [];
  const floorCpuOf = (runs: readonly { floor: { cpuPerRequest: number } }[]) => median(runs.map((r) => r.floor.cpuPerRequest));
  const measure = async (server: { cpu(): Promise<number> }, origin: string, request: Req) => {
    const before = await server.cpu();
    const r: LoadResult = await load({ connections: CONNECTIONS, seconds: seconds > 1 ? 2 : 1, headers, origin, request });
    return { rate: r.perSecond, cpuPerRequest: ((await server.cpu()) - before) / r.requests, bad: r.non2xx };
  };
  for (const c of cases) {
    type Measured = Awaited<ReturnType<typeof measure>>;
    const runs: { sim: Measured; base: Measured; floor: Measured; worked: Measured | undefined; paths: Measured[] }[] = [];
    const pathsOf = cases.indexOf(c) < 2 ? writePaths : [];
    for (let r = 0; r < rounds; r++) {
      const f = await measure(floor, floor.message.origin, c.floor);
      const paths: Measured[] = [];
      for (const write of pathsOf) paths.push(await measure(floor, floor.message.origin, () => ({ method: 'GET', path: `${c.floor(0).path}${write}` })));
      const w = c.worked === undefined ? undefined : await measure(floor, floor.message.origin, c.worked);
      const b = await measure(base, base.message.origin, c.base);
      const m = await measure(sim, s.origin, c.sim);
      runs.push({ sim: m, base: b, floor: f, worked: w, paths });
    }
    const simRate = median(runs.map((r) => r.sim.rate));
    const baseRate = median(runs.map((r) => r.base.rate));
    const simCpu = median(runs.map((r) => r.sim.cpuPerRequest));
    const baseCpu = median(runs.map((r) => r.base.cpuPerRequest));
    const floorCpu = median(runs.map((r) => r.floor.cpuPerRequest));
    const workedCpu = c.worked === undefined ? undefined : median(runs.map((r) => r.worked?.cpuPerRequest ?? 0));
    const bad = runs.reduce((n, r) => n + r.sim.bad + r.base.bad + r.floor.bad + (r.worked?.bad ?? 0) + r.paths.reduce((k, p) => k + p.bad, 0), 0);
    if (pathsOf.length > 0) {
      const cells = pathsOf.map((_, k) => {
        const cpu = median(runs.map((r) => r.paths[k]?.cpuPerRequest ?? 0));
        return `${cpu.toFixed(1)} µs (${(cpu / floorCpuOf(runs)).toFixed(2)}×; simulator ÷ it ${(median(runs.map((r) => r.sim.cpuPerRequest)) / cpu).toFixed(2)}×)`;
      });
      pathRows.push(`| ${c.name} | ${floorCpuOf(runs).toFixed(1)} µs | ${cells.join(' | ')} |`);
    }
    const worked = workedCpu === undefined ? '— | —' : `${workedCpu.toFixed(0)} µs | ${(simCpu / workedCpu).toFixed(2)}×`;
    rows.push(
      `| ${c.name} | ${fmt(simRate)} | ${fmt(baseRate)} | ${simCpu.toFixed(0)} µs | ${baseCpu.toFixed(0)} µs | ${floorCpu.toFixed(0)} µs | ${(simCpu / floorCpu).toFixed(2)}× ${c.worked === undefined ? '' : simCpu / floorCpu <= 1.5 ? '✓' : '✗'} | ${(baseCpu / simCpu).toFixed(2)}× ${c.worked === undefined ? '' : baseCpu / simCpu >= 1.1 ? '✓' : '✗'} | ${worked} |${bad > 0 ? ` non-2xx: ${bad}` : ''}`,
    );
  }
  sim.stop();
  base.stop();
  floor.stop();
  console.log(`\n### List reads and create over HTTP (${fmt(accounts)} accounts, ${CONNECTIONS} connections, median of ${rounds} alternating rounds)\n`);
  console.log(
    "CPU per request of each server process. The floor is a static node:http server sending the simulator's own bytes for the request; the raw slicer builds the same page from plain records with `JSON.stringify`. Goals: simulator ≤ 1.5× the floor on list reads, and the raw slicer ≥ 1.1× the simulator. The worked floor is the floor spending, before each answer, as much CPU as `Simulator.handle` takes in process for the request (table below): node:http's cost at the simulator's pace.\n",
  );
  console.log(
    '| request | simulator req/s | raw slicer req/s | simulator CPU | raw slicer CPU | floor CPU | simulator ÷ floor | raw slicer ÷ simulator | worked floor CPU | simulator ÷ worked floor |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) console.log(r);
  console.log(
    "\nThe floor's own CPU per request by the way it writes the same bytes, in the same rounds (issue 36 item 4): `res.end(buffer)` after `writeHead` (the floor above, and what the simulator does), the socket corked across both, and one write of head and body (the body as a latin1 string node appends to its head). A path cheaper than the first would lower the simulator's cost too.\n",
  );
  console.log('| request | `writeHead` + `end(buffer)` | corked | one write (latin1 string) |\n|---|---:|---:|---:|');
  for (const r of pathRows) console.log(r);
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function handlerRows(): Promise<readonly HandlerRow[]> {
  return (await child<HandlerRow[]>('./handler-child.js', [])).message;
}

function handlerWork(rows: readonly HandlerRow[]): void {
  console.log('\n### Work per request without sockets (100,000 accounts, in-process)\n');
  console.log('| request | `Simulator.handle` (whole request: route, auth, query, page, links, body) | baseline `JSON.stringify` of the same records | ratio |\n|---|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${r.handle.toFixed(1)} µs | ${r.stringify.toFixed(1)} µs | ${(r.stringify / r.handle).toFixed(1)}× |`);
}

interface ScaleReport {
  count: number;
  startupMs: number;
  heapMiB: number;
  rssMiB: number;
  keysetStartUs: number;
  keysetEndUs: number;
}

async function scale(): Promise<void> {
  console.log('\n### Scale (in-process, keyset page of 100 by id)\n');
  console.log('| accounts | start-up (generate + id index) | heap used | RSS | keyset page at start | keyset page at end |\n|---:|---:|---:|---:|---:|---:|');
  for (const count of [100_000, 1_000_000]) {
    const { message: r } = await child<ScaleReport>('./scale-child.js', [String(count)], ['--expose-gc']);
    console.log(`| ${fmt(r.count)} | ${fmt(r.startupMs)} ms | ${fmt(r.heapMiB)} MiB | ${fmt(r.rssMiB)} MiB | ${r.keysetStartUs.toFixed(1)} µs | ${r.keysetEndUs.toFixed(1)} µs |`);
  }
}

console.log(`# commerce-sim bench (node ${process.version}, ${values.quick ? 'quick' : 'full'})`);
if (only.has('list')) {
  // The in-process work first: the list table's worked floor spends as much per request.
  const work = await handlerRows();
  await listReads(work);
  handlerWork(work);
}
if (only.has('scale')) await scale();
for (const section of extraSections) if (only.has(section.name)) await section.run({ seconds, quick: values.quick === true });
process.exit(0);
