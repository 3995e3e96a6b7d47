/**
 * Bench section `cold`: a test file's cold start, the simulator beside msw (issue 35). Each round starts
 * one fresh process of each, alternating, so both see the same machine; each figure is the median of the
 * rounds. Measured inside the process from before the import to the first answer read: Node's own boot,
 * the same for both, is left out.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Section } from './section.js';

interface Phases {
  readonly import: number;
  readonly start: number;
  readonly first: number;
  readonly total: number;
}

/** The cold start is at most this share of msw's. */
const COLD_START_GOAL = 0.5;

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

function once(file: string): Phases {
  const out = spawnSync(process.execPath, [fileURLToPath(new URL(file, import.meta.url))], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`${file} exited with ${String(out.status)}: ${out.stderr}`);
  return JSON.parse(out.stdout) as Phases;
}

const medians = (runs: readonly Phases[]): Phases => ({
  import: median(runs.map((r) => r.import)),
  start: median(runs.map((r) => r.start)),
  first: median(runs.map((r) => r.first)),
  total: median(runs.map((r) => r.total)),
});

export const coldStart: Section = {
  name: 'cold',
  run: ({ quick }) => {
    const rounds = quick ? 5 : 15;
    const sim: Phases[] = [];
    const msw: Phases[] = [];
    for (let i = 0; i < rounds; i++) {
      sim.push(once('./cold-sim-child.js'));
      msw.push(once('./cold-msw-child.js'));
    }
    const s = medians(sim);
    const m = medians(msw);
    const ratio = s.total / m.total;
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    console.log(`\n#### A test file's cold start (fresh processes, median of ${rounds} alternating rounds)\n`);
    console.log('| | import | start | first answer | total | ÷ msw |\n|---|---:|---:|---:|---:|---:|');
    console.log(`| msw: \`setupServer(handler).listen()\`, one intercepted fetch | ${ms(m.import)} | ${ms(m.start)} | ${ms(m.first)} | ${ms(m.total)} | 1.00× |`);
    console.log(
      `| commerce-sim: \`startSimulator()\`, one list read over loopback | ${ms(s.import)} | ${ms(s.start)} | ${ms(s.first)} | ${ms(s.total)} | ${ratio.toFixed(2)}× ${ratio <= COLD_START_GOAL ? '✓' : '✗'} |`,
    );
    console.log(`\nGoal: commerce-sim's total ≤ ${COLD_START_GOAL}× msw's.`);
    return Promise.resolve();
  },
};
