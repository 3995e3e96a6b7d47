// Mutation testing (docs/developing.md, "Mutation testing"): `npm run mutate [folder or file ...]`
// (scripts/mutate.mjs) runs Stryker over the code below, or the part of it named, and prints the score per
// folder. Not part of `npm test`: a full run takes hours on two cores.
// Each set of targets (MUTATE_TARGETS, set by the script) keeps its own reports and incremental file.
const at = `reports/mutation/${process.env.MUTATE_TARGETS ?? 'all'}`;

// The options: https://stryker-mutator.io/docs/stryker-js/configuration
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts', related: true },
  // Each mutant runs only the tests that reached it in the first run.
  coverageAnalysis: 'perTest',
  mutate: ['src/traffic/client-rules/**/*.ts', 'src/rules/**/*.ts', 'src/engine/**/*.ts', 'src/store/page-walks.ts', 'src/store/json-steps.ts'],
  // Results of unchanged mutants (same code, same covering tests) are kept between runs.
  incremental: true,
  incrementalFile: `${at}/incremental.json`,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `${at}/mutation.json` },
  htmlReporter: { fileName: `${at}/mutation.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  concurrency: 2,
  // Generous: on a shared two-core machine a mutant's tests may run three times slower than in the first run, and
  // a slow run counted as a timeout would count as killed. A mutant that loops forever is stopped by its hit count.
  timeoutMS: 20_000,
  timeoutFactor: 2.5,
  thresholds: { high: 85, low: 70, break: null },
};
