/**
 * Which scenarios a run takes: `--grep` (name or file, case-insensitive), `--tag` (any of), and
 * `--shard i/n` (a stable hash of file and name, so each scenario lands in exactly one shard on
 * every machine and every run).
 */
import { shardOfKey, type Shard } from '../shard.js';
import type { Scenario } from './format.js';

export interface Selection {
  readonly grep?: string;
  readonly tags?: readonly string[];
  readonly shard?: Shard;
}

/** The 1-based shard a scenario belongs to among `count`. */
export function shardOf(scenario: Pick<Scenario, 'file' | 'name'>, count: number): number {
  return shardOfKey(`${scenario.file}\n${scenario.name}`, count);
}

function matchesSelection(scenario: Scenario, selection: Selection): boolean {
  const grep = selection.grep?.toLowerCase();
  if (grep !== undefined && grep !== '' && !scenario.name.toLowerCase().includes(grep) && !scenario.file.toLowerCase().includes(grep)) {
    return false;
  }
  const tags = selection.tags ?? [];
  if (tags.length > 0 && !tags.some((t) => scenario.tags.includes(t))) return false;
  const { shard } = selection;
  return shard === undefined || shardOf(scenario, shard.count) === shard.index;
}

/** The selected scenarios, in their original order. */
export function selectScenarios(scenarios: readonly Scenario[], selection: Selection): Scenario[] {
  return scenarios.filter((s) => matchesSelection(s, selection));
}
