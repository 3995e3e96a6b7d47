/** Bench sections that measure the kit: the shipped suite, the property throughput, the export's overhead. */
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { ruleById } from '../rules/catalogue.js';
import { loadScenarios } from '../scenarios/load.js';
import { runScenarios } from '../scenarios/runner.js';
import { createSimTarget } from '../adapters/simulator.js';
import { createHttpTarget } from '../adapters/http.js';
import { pageArithmeticRunsPerSecond } from './property-speed.js';
import { exportAccounts } from '../client/export.js';
import { isListRecord } from '../client/records.js';
import { isJsonObject } from '../engine/json.js';
import type { ScenarioResult } from '../report/model.js';
import { child, fmt } from './child.js';
import type { Section } from './section.js';
import { hardening } from './hardening.js';
import { restoreSection } from './hardening-restore.js';
import { imports } from './imports.js';
import { coldStart } from './cold-start.js';
import { traffic } from './traffic.js';

export type { Section } from './section.js';

interface SimChild {
  baseUrl: string;
  token: string;
  vars: Record<string, string>;
}

const scenariosDir = fileURLToPath(new URL('../../scenarios', import.meta.url));
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const tally = (rs: readonly ScenarioResult[]) =>
  `${rs.filter((r) => r.status === 'pass').length} pass, ${rs.filter((r) => r.status === 'fail').length} fail, ${rs.filter((r) => r.status === 'skip').length} skip`;

const suite: Section = {
  name: 'suite',
  async run({ quick }) {
    const scenarios = await loadScenarios([scenariosDir], { ruleExists: (id) => ruleById(id) !== undefined });
    const rounds = quick ? 1 : 3;
    const inProcess: number[] = [];
    let lastIn: ScenarioResult[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      const target = await createSimTarget();
      lastIn = await runScenarios(scenarios, { target, ruleById });
      inProcess.push(performance.now() - t0);
    }
    const overHttp: number[] = [];
    let lastHttp: ScenarioResult[] = [];
    for (let i = 0; i < rounds; i++) {
      const { message: s, stop } = await child<SimChild>('./sim-child.js', []);
      const t0 = performance.now();
      const target = await createHttpTarget({ baseUrl: s.baseUrl, token: s.token, vars: s.vars, budget: 1_000_000 });
      lastHttp = await runScenarios(scenarios, { target, ruleById, allowWrites: true, concurrency: 1 });
      overHttp.push(performance.now() - t0);
      await target.close();
      stop();
    }
    console.log(`\n### The shipped suite (${scenarios.length} scenarios; median of ${rounds})\n`);
    console.log('| target | wall time | scenarios |\n|---|---:|---|');
    console.log(`| in-process simulator | ${fmt(median(inProcess))} ms | ${tally(lastIn)} |`);
    console.log(`| simulator over HTTP on loopback | ${fmt(median(overHttp))} ms | ${tally(lastHttp)} |`);
  },
};

const props: Section = {
  name: 'props',
  async run({ quick }) {
    const target = await createSimTarget();
    const r = await pageArithmeticRunsPerSecond(target, quick ? 2_000 : 10_000);
    console.log('\n### Property throughput (in-process simulator)\n');
    console.log('| property | runs | time | runs per second | all passed |\n|---|---:|---:|---:|---|');
    console.log(`| ${r.property} | ${fmt(r.runs)} | ${fmt(r.ms)} ms | ${fmt(r.runsPerSecond)} | ${r.passed ? 'yes' : 'NO'} |`);
  },
};

/** The same keyset pages the export reads, fetched by a bare undici loop: the floor the client is compared with. */
async function bareLoop(origin: string, token: string): Promise<number> {
  const pool = new Pool(origin, { connections: 1 });
  let last: string | undefined;
  let n = 0;
  for (;;) {
    const filter = last === undefined ? '' : `&filter=gt(id,${last})`;
    const res = await pool.request({ method: 'GET', path: `/v2/accounts?page[limit]=100&sort=id${filter}`, headers: { authorization: `Bearer ${token}` } });
    const body: unknown = await res.body.json();
    const data = isJsonObject(body) && Array.isArray(body['data']) ? body['data'].filter(isListRecord) : [];
    if (data.length === 0) break;
    n += data.length;
    last = data[data.length - 1]?.id;
  }
  await pool.close();
  return n;
}

const exportSection: Section = {
  name: 'export',
  async run() {
    const accounts = 100_000;
    const { message: s, stop } = await child<SimChild>('./sim-child.js', [String(accounts)]);
    // A warm-up pass of each: the simulator builds its id index on the first keyset read, and both sides JIT.
    await bareLoop(s.baseUrl, s.token);
    const target = await createHttpTarget({ baseUrl: s.baseUrl, token: s.token, vars: s.vars, budget: 1_000_000, concurrency: 1 });
    let bytes = 0;
    await exportAccounts(target, { write: () => undefined });
    let t0 = performance.now();
    const bare = await bareLoop(s.baseUrl, s.token);
    const bareMs = performance.now() - t0;
    t0 = performance.now();
    const result = await exportAccounts(target, { write: (chunk) => void (bytes += chunk.length) });
    const exportMs = performance.now() - t0;
    await target.close();
    stop();
    console.log(`\n### Export of ${fmt(accounts)} accounts over loopback HTTP (page[limit]=100, sort=id, gt(id,last))\n`);
    console.log('| reader | records | wall time | overhead |\n|---|---:|---:|---:|');
    console.log(`| bare undici loop (parse, take last id) | ${fmt(bare)} | ${fmt(bareMs)} ms | — |`);
    console.log(`| \`exportAccounts\` (reference client, CSV, ${fmt(bytes / 1024)} KiB) | ${fmt(result.records)} | ${fmt(exportMs)} ms | ${(((exportMs - bareMs) / bareMs) * 100).toFixed(0)}% |`);
  },
};

export const extraSections: readonly Section[] = [imports, coldStart, suite, props, exportSection, hardening, restoreSection, traffic];
