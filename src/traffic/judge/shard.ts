/**
 * Who a client is, and which shard judges it: `check --shard I/N` splits a day of traffic by client
 * (origin and credential), so each client's walks and sessions stay whole on one machine and the
 * shards' reports merge into the verdicts of one run (`report merge`).
 */
import { authorizationHeader } from '../../rules/inspect.js';
import type { TrafficEntry } from '../entry.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

/** The client an entry belongs to: its origin and its credential, kept in memory only. */
export const sessionKey = (entry: TrafficEntry): string => `${entry.origin}\u0000${authorizationHeader(entry.exchange) ?? ''}`;

/** Whether the client `key` is judged by `shard` (FNV-1a of the key, so every shard agrees without talking). */
export function inShard(key: string, shard: Shard): boolean {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % shard.count) + 1 === shard.index;
}
