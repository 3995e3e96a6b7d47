/**
 * The dataset options, one type and one validator for every place they arrive as JSON: the admin API
 * (POST /__sim/seed), snapshots, dataset files and the property suites' seed bodies. A refusal names the
 * path of the bad member.
 */
import { MAX_SEED } from '../limits.js';
import type { Result } from '../result.js';
import { isCount, isJsonObject, PROTOTYPE_KEYS } from '../engine/json.js';
import { DATASET_PROFILES, MAX_RECORDS, type DatasetProfile } from './datasets.js';
import { listResources } from './resources.js';

export interface DatasetFields {
  /** Seed of the data (in a snapshot: of tokens too, `dataset_seed` being the data's). */
  readonly seed?: number;
  readonly dataset_seed?: number;
  readonly accounts?: number;
  /** Record counts by list collection name (`orders`, `files`, ...). */
  readonly counts?: Readonly<Record<string, number>>;
  readonly profile?: DatasetProfile;
  readonly burst?: number;
}

export type DatasetField = keyof DatasetFields;

export type Checked<T> = Result<T>;

const refuse = (path: string, message: string): Checked<never> => ({ ok: false, path, message });

/**
 * The dataset members of `value`. `allowed` names the members this place accepts (others are refused,
 * except those in `ignored`, which belong to the caller); `at` prefixes paths (`options.`).
 */
export function readDatasetFields(value: unknown, allowed: readonly DatasetField[], at = '', ignored: readonly string[] = []): Checked<DatasetFields> {
  if (!isJsonObject(value)) return refuse(at.replace(/\.$/, ''), 'must be an object');
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) return refuse(`${at}${key}`, `'${key}' is not allowed as a key`);
    if (!(allowed as readonly string[]).includes(key) && !ignored.includes(key)) return refuse(`${at}${key}`, `unknown field (allowed: ${[...allowed, ...ignored].join(', ')})`);
  }
  const out: { -readonly [K in DatasetField]?: DatasetFields[K] } = {};
  for (const key of ['seed', 'dataset_seed'] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (!isCount(v) || v > MAX_SEED) return refuse(`${at}${key}`, `must be a whole number from 0 to ${MAX_SEED}`);
    out[key] = v;
  }
  const accounts = value['accounts'];
  if (accounts !== undefined) {
    // A billion accounts would hang the next read.
    if (!isCount(accounts) || accounts > MAX_RECORDS) return refuse(`${at}accounts`, `must be a whole number from 0 to ${MAX_RECORDS}`);
    out.accounts = accounts;
  }
  const counts = value['counts'];
  if (counts !== undefined) {
    if (!isJsonObject(counts)) return refuse(`${at}counts`, 'must be an object of collection name to count');
    const read: Record<string, number> = {};
    for (const [name, n] of Object.entries(counts)) {
      if (PROTOTYPE_KEYS.has(name)) return refuse(`${at}counts.${name}`, `'${name}' is not allowed as a key`);
      if (!listResources.some((r) => r.name === name)) return refuse(`${at}counts.${name}`, `is not a list collection (one of ${listResources.map((r) => r.name).join(', ')})`);
      if (!isCount(n) || n > MAX_RECORDS) return refuse(`${at}counts.${name}`, `must be a whole number from 0 to ${MAX_RECORDS}`);
      read[name] = n;
    }
    out.counts = read;
  }
  const profile = value['profile'];
  if (profile !== undefined) {
    const known = DATASET_PROFILES.find((p) => p === profile);
    if (known === undefined) return refuse(`${at}profile`, `must be one of ${DATASET_PROFILES.join(', ')}`);
    out.profile = known;
  }
  const burst = value['burst'];
  if (burst !== undefined) {
    if (!isCount(burst) || burst < 1 || burst > MAX_RECORDS) return refuse(`${at}burst`, `must be a whole number from 1 to ${MAX_RECORDS}`);
    out.burst = burst;
  }
  return { ok: true, value: out };
}
