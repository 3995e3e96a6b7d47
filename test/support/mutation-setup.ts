/**
 * Set up for each test file under mutation testing (vitest.stryker.config.ts): a property that fails
 * has killed its mutant, so fast-check stops there instead of shrinking the counterexample, which on
 * the slow properties takes longer than the mutant's time limit (it counted as a timeout, at its cost).
 */
import fc from 'fast-check';

fc.configureGlobal({ ...fc.readConfigureGlobal(), endOnFailure: true });
