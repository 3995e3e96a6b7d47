/**
 * Who a client is, and which shard judges it: `check --shard I/N` splits a day of traffic by client
 * (origin and credential), so each client's walks and sessions stay whole on one machine and the
 * shards' reports merge into the verdicts of one run (`report merge`).
 */
import { authorizationHeader } from '../../rules/inspect.js';
import { shardOfKey, type Shard } from '../../shard.js';
import type { TrafficEntry } from '../entry.js';

export type { Shard };

/** The client an entry belongs to: its origin and its credential, kept in memory only. */
export const sessionKey = (entry: TrafficEntry): string => `${entry.origin}\u0000${authorizationHeader(entry.exchange) ?? ''}`;

/** Whether the client `key` is judged by `shard` (a stable hash of the key, so every shard agrees without talking). */
export const inShard = (key: string, shard: Shard): boolean => shardOfKey(key, shard.count) === shard.index;
