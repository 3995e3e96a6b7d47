/**
 * Incremental sync on updated_at (commerce-api.md §4.3: "updated_at allows keeping another system in
 * sync with changes, but deletes are not visible"). Each call returns the records created or changed
 * since a checkpoint, each once in its latest version, and the checkpoint to pass next time.
 */
import { isJsonObject } from '../engine/json.js';
import type { Target } from '../port.js';
import { iterate, type IterateOptions, type IterationStats, type ListRecord } from './keyset.js';
import { createRequester } from './retry.js';

/** Plain JSON: store it between runs as it is. */
export interface SyncCheckpoint {
  readonly attribute: 'updated_at';
  /** The newest updated_at delivered so far, exactly as the target wrote it. */
  readonly value: string;
  /** Ids delivered at that timestamp, so the next ge(updated_at, value) read does not deliver them twice. */
  readonly ids: readonly string[];
}

export interface SyncResult {
  /** Records created or updated since the checkpoint, one per id in its latest version, oldest change first. */
  readonly upserts: readonly ListRecord[];
  /** undefined only when nothing has been delivered yet (the next call starts from the beginning again). */
  readonly checkpoint: SyncCheckpoint | undefined;
  /** Always false: a deleted record simply stops being listed; no updated_at read can show it. */
  readonly deletesVisible: false;
  readonly note: string;
  readonly stats: Readonly<IterationStats>;
}

export type SyncOptions = Omit<IterateOptions, 'attribute' | 'after' | 'from' | 'requester'>;

export const DELETES_NOTE =
  'Deletes are not visible to an updated_at sync (commerce-api.md §4.3): a deleted record simply stops being listed. ' +
  'To find deletions, compare the ids you hold with a full id export (exportAccounts or iterate with attribute id).';

export async function syncSince(target: Target, path: string, checkpoint: SyncCheckpoint | undefined, options: SyncOptions = {}): Promise<SyncResult> {
  const reader = iterate(target, path, {
    ...options,
    attribute: 'updated_at',
    requester: createRequester(target, options),
    ...(checkpoint === undefined ? {} : { from: { value: checkpoint.value, ids: checkpoint.ids } }),
  });
  // A record updated during the traversal is met again with a later updated_at: keep its last version.
  const latest = new Map<string, ListRecord>();
  for await (const record of reader) {
    latest.delete(record.id);
    latest.set(record.id, record);
  }
  const position = reader.position();
  const from = position.attribute === 'id' ? undefined : position.from;
  return {
    upserts: [...latest.values()],
    checkpoint: from === undefined ? checkpoint : { attribute: 'updated_at', value: from.value, ids: [...from.ids].sort() },
    deletesVisible: false,
    note: DELETES_NOTE,
    stats: reader.stats,
  };
}

/** A checkpoint read back from storage (JSON), or undefined when the value is not one. */
export function readCheckpoint(value: unknown): SyncCheckpoint | undefined {
  if (!isJsonObject(value)) return undefined;
  const { attribute, value: at, ids } = value;
  if (attribute !== 'updated_at' || typeof at !== 'string' || Number.isNaN(Date.parse(at))) return undefined;
  if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string')) return undefined;
  return { attribute, value: at, ids };
}
