/**
 * Bench section `imports`: what entering the library and the CLI costs. Each figure is the median of
 * several fresh processes, measured in the same run as the baseline (undici imported alone).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Section } from './section.js';

const DIST = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** ms to import `specifier` in a fresh node, and the RSS it adds over an empty process (MiB). */
function importCost(specifier: string, rounds: number): { ms: number; addedMiB: number } {
  const code = `const base=process.memoryUsage().rss;const t=performance.now();import(${JSON.stringify(specifier)}).then(()=>process.stdout.write(JSON.stringify({ms:performance.now()-t,added:(process.memoryUsage().rss-base)/1048576})))`;
  const runs: { ms: number; added: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    const out = spawnSync(process.execPath, ['-e', code], { cwd: DIST, encoding: 'utf8' });
    runs.push(JSON.parse(out.stdout) as { ms: number; added: number });
  }
  return { ms: median(runs.map((r) => r.ms)), addedMiB: median(runs.map((r) => r.added)) };
}

/** Wall ms of a whole `commerce-sim ...` process. */
function wall(args: readonly string[], rounds: number): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
    times.push(performance.now() - started);
  }
  return median(times);
}

export const imports: Section = {
  name: 'imports',
  run: ({ quick }) => {
    const rounds = quick ? 3 : 7;
    const undici = importCost('undici', rounds);
    const rows: [string, string, string][] = [];
    const entry = (name: string) => {
      const c = importCost(name, rounds);
      rows.push([`import('${name}')`, `${c.ms.toFixed(0)} ms (${(c.ms / undici.ms).toFixed(2)}× undici), +${c.addedMiB.toFixed(0)} MiB`, name === 'commerce-sim' ? '≤ 1.5× undici, ≤ 60 MiB' : '—']);
    };
    rows.push([`import('undici') (baseline)`, `${undici.ms.toFixed(0)} ms, +${undici.addedMiB.toFixed(0)} MiB`, '—']);
    // By name, from inside the package: what its `exports` point to (the bundle), as a user's import loads.
    for (const name of ['commerce-sim', 'commerce-sim/client', 'commerce-sim/properties']) entry(name);
    for (const args of [['--version'], ['props', '--no-such-option'], ['run', '--no-such-option'], ['mutation', '--no-such-option']]) {
      rows.push([`commerce-sim ${args.join(' ')}`, `${wall(args, rounds).toFixed(0)} ms wall`, '≤ 200 ms']);
    }
    console.log(`\n### Entering the library and the CLI (median of ${rounds} fresh processes)\n`);
    console.log('| what | cost | goal |\n|---|---:|---|');
    for (const [what, cost, goal] of rows) console.log(`| ${what} | ${cost} | ${goal} |`);
    return Promise.resolve();
  },
};
