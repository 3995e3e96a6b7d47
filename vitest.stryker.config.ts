import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` (Stryker, stryker.config.mjs) runs against each mutant: those that import the
 * code in process. Tests of the built CLI and package (dist/, child processes) never load a mutant, so
 * they are left out, and so is the build that serves them (test/global-setup.ts).
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: [
      'test/e2e/**',
      'test/cli/**',
      'test/docs-sources.test.ts',
      'test/readme-commands.test.ts',
      'test/kit/ci-output.test.ts',
      'test/kit/third-server.test.ts',
      'test/report/browser.test.ts',
      'test/traffic/har-large.test.ts',
      'test/traffic/independent-clients.test.ts',
    ],
    setupFiles: ['test/support/mutation-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
