// npm run mutate [-- <folder or file under src/> ...] [Stryker options]: mutation testing (docs/developing.md,
// "Mutation testing"). Runs Stryker (stryker.config.mjs) over the folders and files named, or over all it
// mutates when none is, then prints the mutation score per folder. Each set of targets keeps its own
// reports and incremental file under reports/mutation/<targets>/, so a later run of the same targets
// re-tests only the mutants whose code or covering tests changed, and the scores printed gather every
// file's latest run. `npm run mutate -- --scores` prints them without running anything.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import config from '../stryker.config.mjs';

const root = resolve(import.meta.dirname, '..');
const reports = join(root, 'reports', 'mutation');
const args = process.argv.slice(2);
const scoresOnly = args.includes('--scores');
// Arguments naming a file or folder under src/ are targets; the rest go to Stryker as they are (--force, --concurrency 1).
const targets = args.filter((a) => a !== '--scores' && /^(\.\/)?src\//.test(a) && existsSync(resolve(root, a)));
const passed = args.filter((a) => a !== '--scores' && !targets.includes(a));

/**
 * Targets whose every related test file would take hours per run (every list read reaches the page walks)
 * run the test files written for them instead: the score is then what those alone kill, a floor of the
 * whole suite's. `--testFiles a,b` names others.
 */
const DEDICATED = {
  'src/traffic/client-rules/**/*.ts': [
    'test/traffic/client-rules.test.ts',
    'test/traffic/client-rule-boundaries.test.ts',
    'test/traffic/client-rule-shape.test.ts',
    'test/traffic/create-rules.test.ts',
    'test/traffic/literal-readings.test.ts',
    'test/traffic/traps.test.ts',
    // The rules' meta (level, section, quote, evidence) as the README's table shows it.
    'test/readme.test.ts',
  ],
  'src/store/page-walks.ts': ['test/store/*.test.ts', 'test/sim/long-reads.test.ts', 'test/sim/pagination.test.ts', 'test/sim/sort-filter.test.ts'],
  'src/store/json-steps.ts': [
    'test/store/json-steps.test.ts',
    'test/sim/restore-limits.test.ts',
    'test/sim/snapshot-shape.test.ts',
    'test/sim/body-shape.test.ts',
    'test/sim/admin.test.ts',
    'test/sim/prototype-ids.test.ts',
  ],
};

if (!scoresOnly) {
  const globs = targets.map((t) => {
    const path = relative(root, resolve(root, t));
    return statSync(resolve(root, t)).isDirectory() ? `${path}/**/*.ts` : path;
  });
  const name =
    targets.length === 0
      ? 'all'
      : globs
          .map((g) =>
            g
              .replace(/^src\//, '')
              .replace(/(\/\*\*\/\*)?\.ts$/, '')
              .replace(/[^\w.-]+/g, '-'),
          )
          .join('+');
  const stryker = join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  // A file inside a folder of DEDICATED (src/traffic/client-rules/keyset.ts) runs that folder's test files.
  const dedicatedOf = (g) => DEDICATED[g] ?? Object.entries(DEDICATED).find(([k]) => k.endsWith('/**/*.ts') && g.startsWith(k.slice(0, -'**/*.ts'.length)))?.[1];
  const dedicated = passed.some((a) => a === '--testFiles' || a === '-t') || globs.some((g) => dedicatedOf(g) === undefined) ? [] : [...new Set(globs.flatMap((g) => dedicatedOf(g)))];
  const testFiles = dedicated.length === 0 ? [] : ['--testFiles', dedicated.join(',')];
  const run = spawnSync(process.execPath, [stryker, 'run', ...(globs.length === 0 ? [] : ['--mutate', globs.join(',')]), ...testFiles, ...passed], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MUTATE_TARGETS: name },
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
printScores();

/** Every file's mutants from the newest report that holds it, then the score per folder. */
function printScores() {
  const latest = new Map();
  const found = existsSync(reports)
    ? readdirSync(reports)
        .map((d) => join(reports, d, 'mutation.json'))
        .filter((f) => existsSync(f))
    : [];
  for (const file of found.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)) {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    for (const [path, result] of Object.entries(report.files)) latest.set(path, result.mutants);
  }
  if (latest.size === 0) {
    console.log('No mutation report yet: run npm run mutate first.');
    return;
  }
  const folders = new Map();
  for (const [path, mutants] of latest) {
    // A file the configuration names on its own (src/store/page-walks.ts) is its own row; the rest go by folder.
    const folder = config.mutate.includes(path) ? path : dirname(path);
    const row = folders.get(folder) ?? { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, errors: 0, Ignored: 0 };
    for (const { status } of mutants) {
      if (status in row) row[status]++;
      else if (status === 'CompileError' || status === 'RuntimeError') row.errors++;
    }
    folders.set(folder, row);
  }
  const lines = [['folder', 'score', 'killed', 'timeout', 'survived', 'no cover', 'errors', 'ignored']];
  for (const [folder, r] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
    const detected = r.Killed + r.Timeout;
    const valid = detected + r.Survived + r.NoCoverage;
    const score = valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(2)}%`;
    lines.push([folder, score, r.Killed, r.Timeout, r.Survived, r.NoCoverage, r.errors, r.Ignored].map(String));
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(`\nMutation score per folder (killed + timed out of all valid mutants; ${found.length} report(s) under ${relative(root, reports)}):`);
  for (const l of lines) console.log(l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
}
