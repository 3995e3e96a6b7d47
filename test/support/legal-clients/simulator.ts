/**
 * The simulator a legal-client case plays against: its seed, dataset and readings, 241 accounts (past two
 * pages of the document's maximum, 100, so every walk pages), a fixed wall clock. A `clamped-advance` trap
 * needs a server that clamps a page[limit] above 100, so it gets that reading. Shared by the legal-clients
 * property (test/traffic/clients.test.ts) and the verdicts-unchanged corpus (test/support/verdict-corpus.ts).
 */
import type { Readings } from '../../../src/rules/readings.js';
import { Simulator } from '../../../src/sim/simulator.js';
import { resolveDataset } from '../../../src/store/adversity-profiles.js';
import type { Trap } from './plan.js';

/** 2025-06-01T00:00:00Z: the wall clock of every case. */
export const CASE_WALL = Date.UTC(2025, 5, 1);

export async function caseSimulator(c: { readonly seed: number; readonly dataset: string; readonly readings: Readings | undefined }, trap: Trap | undefined): Promise<Simulator> {
  const dataset = await resolveDataset(c.dataset);
  const readings = trap?.kind === 'clamped-advance' ? { ...(c.readings ?? {}), 'limit.above-max': 'clamp' as const } : c.readings;
  return new Simulator({
    seed: c.seed,
    profile: dataset.profile,
    ...(dataset.burst === undefined ? {} : { burst: dataset.burst }),
    counts: { ...(dataset.counts ?? {}), accounts: 241 },
    adversity: dataset.adversity,
    wallClock: () => CASE_WALL,
    ...(readings === undefined ? {} : { readings }),
  });
}
