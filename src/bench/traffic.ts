/**
 * Bench section `traffic`: what judging real traffic costs. The proxy's CPU against the floor (the relay
 * parsing each answer once) and its memory under steady load (traffic-proxy.ts); `commerce-sim check`'s
 * throughput on recorded traffic against the HAR reader alone, the reader's share of it and
 * the peak RSS of a large HAR (traffic-check-child.ts); and the memory and time of the judge's ground
 * truth over a simulator of 1,000,000 accounts (traffic-truth-child.ts). Every HAR is made here, in a
 * temporary directory: the simulator's own traffic (traffic-recorded.ts) and a generated large one
 * (traffic-har.ts). --quick: one round, smaller files, 200,000 accounts for the ground truth.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { child, fmt, percentile } from './child.js';
import type { Section } from './section.js';
import type { CheckFigures } from './traffic-check-child.js';
import { writeLargeHar } from './traffic-har.js';
import { memoryRows, proxyRows, PROXY_ACCOUNTS } from './traffic-proxy.js';
import { WALK_ACCOUNTS, writeKeysetHar, writeSuiteHar } from './traffic-recorded.js';
import type { TruthFigures } from './traffic-truth-child.js';

/** Issue 34: `check` at least 0.8× the HAR reader alone (judging costs at most a quarter on top of reading). */
const CHECK_GOAL = 0.8;
/** Issue 34: `check`'s peak RSS on a HAR of about 1 GiB. */
const LARGE_RSS_GOAL_MIB = 256;

/** One file read (or read and judged) in a fresh process, `rounds` times: the round of median speed. */
async function checkRun(mode: 'read' | 'judge', file: string, rounds: number): Promise<CheckFigures> {
  const runs: CheckFigures[] = [];
  for (let i = 0; i < rounds; i++) runs.push((await child<CheckFigures>('./traffic-check-child.js', [mode, file])).message);
  return [...runs].sort((a, b) => a.entries / a.ms - b.entries / b.ms)[Math.floor(runs.length / 2)] ?? { entries: 0, ms: 1, cpuMs: 1, maxRssMiB: 0, findings: 0, walks: 0 };
}

const rate = (f: CheckFigures) => `${fmt((f.entries / f.ms) * 1000)} entries/s (${fmt((f.entries / f.cpuMs) * 1000)} per CPU s)`;
const sizeOf = async (file: string) => `${fmt((await stat(file)).size / 1e6)} MB`;

/** Rows of `| traffic | entries | reader alone | its peak RSS | check | its peak RSS | ÷ reader | goal |`. */
async function checkRows(quick: boolean, step: (what: string) => void, dir: string): Promise<string[]> {
  const rounds = quick ? 1 : 3;
  const rows: string[] = [];
  const measure = async (what: string, file: string, n: number, goal: string, judgedBy: 'ratio' | 'rss') => {
    step(`check: ${what}`);
    const read = await checkRun('read', file, n);
    const judged = await checkRun('judge', file, n);
    const judgedWhat = `${fmt(judged.walks)} walk${judged.walks === 1 ? '' : 's'}, ${fmt(judged.findings)} findings kept`;
    const ratio = judged.entries / judged.ms / (read.entries / read.ms);
    const met = judgedBy === 'ratio' ? ratio >= CHECK_GOAL : judged.maxRssMiB <= LARGE_RSS_GOAL_MIB;
    const verdict = ` ${met ? '✓' : '✗'}`;
    rows.push(
      `| ${what} | ${fmt(judged.entries)} (${await sizeOf(file)}) | ${rate(read)} | ${fmt(read.maxRssMiB)} MiB | ${rate(judged)}; ${judgedWhat} | ${fmt(judged.maxRssMiB)} MiB | ${ratio.toFixed(2)}× | ${goal}${verdict} |`,
    );
  };
  step('recording the keyset walk and the suite');
  const keyset = join(dir, 'keyset.har');
  const walks = quick ? 5 : 30;
  await writeKeysetHar(keyset, walks);
  const suite = join(dir, 'suite.har');
  const mix = await writeSuiteHar(suite, quick ? 5_000 : 20_000);
  await measure(`a keyset walk by id, pages of 100, to the end of ${fmt(WALK_ACCOUNTS)} accounts, ${walks} times`, keyset, rounds, `≥ ${CHECK_GOAL}× the reader`, 'ratio');
  await measure(`the shipped suite's traffic (${fmt(mix.perSuite)} exchanges), repeated`, suite, rounds, `≥ ${CHECK_GOAL}× the reader`, 'ratio');
  const entries = quick ? 20_000 : 200_000;
  step(`generating a HAR of ${fmt(entries)} entries`);
  const large = join(dir, 'large.har');
  const generated = performance.now();
  await writeLargeHar(large, entries, 4500);
  const seconds = (performance.now() - generated) / 1000;
  await measure(`generated list reads of about 4,500 bytes (\`traffic-har.ts\`, written in ${seconds.toFixed(0)} s)`, large, 1, `peak RSS ≤ ${LARGE_RSS_GOAL_MIB} MiB`, 'rss');
  return rows;
}

async function truthRows(quick: boolean, step: (what: string) => void): Promise<{ count: number; rows: string[] }> {
  const count = quick ? 200_000 : 1_000_000;
  step(`ground truth over ${fmt(count)} accounts, 100 walks`);
  const { message: f } = await child<TruthFigures>('./traffic-truth-child.js', [String(count)], ['--expose-gc', '--max-old-space-size=4096']);
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const pass = (xs: readonly number[]) => `${percentile(xs, 0.5).toFixed(0)} ms / ${(sum(xs) / 1000).toFixed(1)} s`;
  return {
    count,
    rows: [
      `| the simulator alone, id index built: RSS after a full collection (peak while building it) | ${fmt(f.simRssMiB)} MiB (${fmt(f.peakBeforeMiB)} MiB) | — |`,
      `| peak RSS with the judge's ground truth (\`simulatorTruth(sim)\`) over ${f.walks} concurrent keyset walks by id (100 clients, 20 pages of 100 each, interleaved: ${fmt(f.pages)} pages) | ${fmt(f.peakMiB)} MiB | < 1,536 MiB |`,
      `| a walk's start pass over the records (those matching and visible at its first page): median / sum over the ${f.startMs.length} walks | ${pass(f.startMs)} | — |`,
      `| a walk's end pass (visible at its end, set against what it was sent): median / sum over the ${f.endMs.length} walks | ${pass(f.endMs)} | — |`,
      `| judging the ${fmt(f.pages)} pages with ground truth, passes included (every \`observe\` and \`finish\`) | ${fmt(f.judgeMs)} ms | — |`,
      `| walks given a ground-truth count; the first | ${f.counted} of ${f.walks}; ${f.example.split(' (')[0] ?? ''} | ${f.walks} |`,
    ],
  };
}

export const traffic: Section = {
  name: 'traffic',
  async run({ quick }) {
    const step = (what: string) => process.stderr.write(`  traffic: ${what}\n`);
    const dir = await mkdtemp(join(tmpdir(), 'commerce-sim-bench-traffic-'));
    let proxy: Awaited<ReturnType<typeof proxyRows>>;
    let memory: string[];
    let check: string[];
    try {
      proxy = await proxyRows({ quick, step, dir });
      memory = await memoryRows({ quick, step });
      check = await checkRows(quick, step, dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const truth = await truthRows(quick, step);
    const rounds = quick ? 1 : 3;
    console.log(`\n### Judging proxy overhead (simulator of ${fmt(PROXY_ACCOUNTS)} accounts, \`GET /v2/accounts?page[limit]=100\`; median of ${rounds} alternating round${rounds === 1 ? '' : 's'})\n`);
    console.log(
      "Each proxy runs alone in its process and its CPU time (every thread's) is its own, read once its judge has caught up; the simulator runs in another, the clients (an undici Pool, each client sending its next request when the last answer is read) in the bench's. The floor is the relay capturing every exchange and parsing each answer once, judging nothing: what any judging proxy costs at least.\n",
    );
    console.log('| path | p50 | p99 | req/s | p50 added vs direct | proxy CPU per exchange | ÷ floor | goal |\n|---|---:|---:|---:|---:|---:|---:|---|');
    for (const r of proxy.rows) console.log(r);
    for (const n of proxy.notes) console.log(`\n${n}`);
    console.log('\n### The judging proxy under steady load (memory)\n');
    console.log('| measure | value | goal |\n|---|---:|---|');
    for (const r of memory) console.log(r);
    console.log(`\n### \`commerce-sim check\` throughput and memory (each figure a fresh process${quick ? '' : '; the recorded files median of 3'})\n`);
    console.log('As check runs them, less the report: `readTraffic` alone, then `readTraffic` + `createTrafficJudge`.\n');
    console.log('| traffic | entries | reader alone | its peak RSS | check (read + judge) | its peak RSS | ÷ reader | goal |\n|---|---:|---:|---:|---:|---:|---:|---|');
    for (const r of check) console.log(r);
    console.log(`\n### Ground truth over a simulator of ${fmt(truth.count)} accounts (in-process, one child)\n`);
    console.log('| measure | value | goal |\n|---|---:|---|');
    for (const r of truth.rows) console.log(r);
  },
};
