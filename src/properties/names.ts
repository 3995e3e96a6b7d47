/**
 * What the CLI says about the property suites before loading any of them (fast-check takes most of a
 * second to load): their names, in the order they run, and the words of their results. A test keeps the
 * names equal to the registry's.
 */
export const PROPERTY_NAMES = ['page-arithmetic', 'offset-limits', 'keyset', 'keyset-reads', 'sort-filter', 'page-length', 'create', 'robustness', 'model'] as const;

export const DEFAULT_RUNS = 100;
export const SKIP_WRITES = 'writes data: pass --allow-writes';
/** Start of the skip reason of a property that broke rather than judged (the CLI exits 2 on it). */
export const NOT_RUN = 'the property could not run';
/** A property a target error stopped before its runs were done: not a skip, an incomplete result. */
export const STOPPED = 'stopped';
export const SKIP_ADMIN = "needs the simulator's admin API (--target sim, or --var admin_token=... for a served simulator)";
