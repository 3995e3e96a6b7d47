/**
 * Shards: `--shard I/N` splits one run over N machines so that every piece lands in exactly one shard,
 * on every machine and every run. Scenarios are sharded by file and name (scenarios/select.ts), traffic by
 * client (traffic/judge/shard.ts); `report merge` joins the shards' reports.
 */
import type { Result } from './result.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
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

/** The 1-based shard `key` belongs to among `count`. */
export const shardOfKey = (key: string, count: number): number => (stableHash(key) % count) + 1;
