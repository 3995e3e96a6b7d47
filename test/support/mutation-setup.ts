/**
 * Set up for each test file under mutation testing (vitest.stryker.config.ts): a property that fails
 * has killed its mutant, so fast-check stops there instead of shrinking the counterexample, which on
 * the slow properties takes longer than the mutant's time limit (it counted as a timeout, at its cost).
 *
 * It also activates the mutant before the test file imports the code. Stryker 9.6.1 activates a mutant in
 * a beforeAll hook whenever the run names its tests, as every run of `--testFiles` does (scripts/mutate.mjs
 * DEDICATED): a static mutant (a rule's meta, a module's constant) is then evaluated at import with no mutant
 * active and survives whatever the tests assert (stryker-js issue 6144). Each test file loads the code
 * afresh, so activating it this early changes nothing for the other mutants.
 */
import fc from 'fast-check';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    globalNamespace: string;
    mode: 'dry-run' | 'mutant';
    activeMutant: string;
  }
}

fc.configureGlobal({ ...fc.readConfigureGlobal(), endOnFailure: true });

if (inject('mode') === 'mutant') {
  const g = globalThis as unknown as Record<string, { activeMutant?: string } | undefined>;
  const ns = (g[inject('globalNamespace')] ??= {});
  ns.activeMutant = inject('activeMutant');
}
