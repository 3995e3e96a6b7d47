import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One file per core: left to its default, vitest ran one file at a time on the 2-core machine.
    maxWorkers: '100%',
    // dist/ is built once here, not by the test files (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    // The JSON summary lets .ci/run print a plain "N passed, N failed" line; the last lists the slowest files.
    reporters: ['default', 'json', './test/support/slowest-files.ts'],
    outputFile: { json: 'reports/vitest.json' },
  },
});
