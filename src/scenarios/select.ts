/**
 * Which scenarios a run takes: `--grep` (name or file, case-insensitive), `--tag` (any of), and
 * `--shard i/n` (a stable hash of file and name, so each scenario lands in exactly one shard on
 * every machine and every run).
 */
import type { Result } from '../result.js';
import type { Scenario } from './format.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export interface Selection {
  readonly grep?: string;
  readonly tags?: readonly string[];
  readonly shard?: Shard;
}

export type ShardParse = Result<Shard, { readonly message: string }>;

/** `i/n` with 1 ≤ i ≤ n. */
export function parseShard(text: string): ShardParse {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (m === null || !Number.isSafeInteger(index) || !Number.isSafeInteger(count)) {
    return { ok: false, message: `--shard takes I/N (e.g. 2/4), got '${text}'` };
  }
  if (count < 1 || index < 1 || index > count) return { ok: false, message: `--shard ${text}: need 1 ≤ I ≤ N` };
  return { ok: true, value: { index, count } };
}

/** FNV-1a, 32 bits: small, stable across platforms and Node versions. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The 1-based shard a scenario belongs to among `count`. */
export function shardOf(scenario: Pick<Scenario, 'file' | 'name'>, count: number): number {
  return (stableHash(`${scenario.file}\n${scenario.name}`) % count) + 1;
}

export function matchesSelection(scenario: Scenario, selection: Selection): boolean {
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
