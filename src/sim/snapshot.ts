/**
 * Snapshots of the whole simulator state (admin API): the dataset options, and per project its records,
 * settings, clock and the positions of its random sources, so that after a restore the same requests
 * give byte-identical responses. A snapshot arrives as JSON: it is checked field by field, never cast.
 */
import { isCount, isJsonObject } from '../engine/json.js';
import { readStoredAdversity } from '../store/adversity-profiles.js';
import { isTimeMs } from '../store/clock.js';
import { DATASET_PROFILES, MAX_RECORDS, type DatasetProfile } from '../store/datasets.js';
import { NO_ADVERSITY, type ProjectState, type StoredRecord } from '../store/project.js';
import { isRandomState, type RandomState } from '../store/random.js';
import type { Simulator, SimulatorOptions } from './simulator.js';

export const SNAPSHOT_VERSION = 1;

interface DatasetView {
  readonly seed?: number;
  readonly dataset_seed?: number;
  readonly accounts?: number;
  readonly counts?: Readonly<Record<string, number>>;
  readonly profile?: DatasetProfile;
  readonly burst?: number;
}

interface ProjectSnapshot extends ProjectState {
  readonly random?: RandomState;
  readonly adversityRandom?: RandomState;
}

export interface Snapshot {
  readonly version: typeof SNAPSHOT_VERSION;
  readonly options: DatasetView;
  readonly projects: readonly ProjectSnapshot[];
}

export function takeSnapshot(sim: Simulator): Snapshot {
  const o = sim.settings;
  const options: DatasetView = {
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    dataset_seed: o.datasetSeed ?? sim.seed,
    ...(o.accounts === undefined ? {} : { accounts: o.accounts }),
    ...(o.counts === undefined ? {} : { counts: o.counts }),
    ...(o.profile === undefined ? {} : { profile: o.profile }),
    ...(o.burst === undefined ? {} : { burst: o.burst }),
  };
  const projects = sim.projectIds().map((id) => {
    const p = sim.project(id);
    return { ...p.state(), random: p.random.save(), adversityRandom: p.adversityRandom.save() };
  });
  return { version: SNAPSHOT_VERSION, options, projects };
}

/** Replace the whole state: projects absent from the snapshot start afresh. Tokens stay valid. */
export function restoreSnapshot(sim: Simulator, snapshot: Snapshot): void {
  const { accounts: _a, counts: _c, profile: _p, burst: _b, datasetSeed: _d, ...kept } = sim.settings;
  const o = snapshot.options;
  const next: SimulatorOptions = {
    ...kept,
    datasetSeed: o.dataset_seed ?? o.seed ?? sim.seed,
    ...(o.accounts === undefined ? {} : { accounts: o.accounts }),
    ...(o.counts === undefined ? {} : { counts: o.counts }),
    ...(o.profile === undefined ? {} : { profile: o.profile }),
    ...(o.burst === undefined ? {} : { burst: o.burst }),
  };
  sim.reconfigure(next);
  for (const state of snapshot.projects) {
    const project = sim.project(state.clientId);
    project.restore(state);
    if (state.random !== undefined) project.random.load(state.random);
    if (state.adversityRandom !== undefined) project.adversityRandom.load(state.adversityRandom);
  }
}

// ---- Checking a snapshot that came in as JSON ----

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optional = (v: unknown, guard: (x: unknown) => boolean): boolean => v === undefined || guard(v);
const isRecordCount = (v: unknown): v is number => isCount(v) && v <= MAX_RECORDS;

function isStoredRecord(v: unknown): v is StoredRecord {
  if (!isJsonObject(v)) return false;
  const { id, createdMs, updatedMs, attrs, credential } = v;
  return (
    typeof id === 'string' &&
    // Instants iso() can write: a record past year 9999 would make every read of its list throw.
    isTimeMs(createdMs) &&
    isTimeMs(updatedMs) &&
    isJsonObject(attrs) &&
    Object.values(attrs).every((a) => a === null || typeof a === 'string') &&
    optional(credential, (c) => typeof c === 'string')
  );
}

function isRecordTable(v: unknown): v is Readonly<Record<string, readonly StoredRecord[]>> {
  return isJsonObject(v) && Object.values(v).every((list) => Array.isArray(list) && list.every(isStoredRecord));
}

function isProjectSnapshot(v: unknown): v is ProjectSnapshot {
  if (!isJsonObject(v)) return false;
  const { clientId, settings, adversity, now, lists, profileInfos, random, adversityRandom } = v;
  if (typeof clientId !== 'string' || !isTimeMs(now) || !isRecordTable(lists) || !isRecordTable(profileInfos)) return false;
  // The adversity is checked by its own module, with the limits PUT /__sim/adversity applies.
  if (!isJsonObject(settings) || readStoredAdversity(adversity) === undefined) return false;
  const length = settings['page_length'];
  if (!isCount(length) || length < 1 || length > 100 || !isCount(settings['page_offset_limit']) || settings['page_offset_limit'] < 1 || !isNumber(settings['filter_limit'])) return false;
  return optional(random, isRandomState) && optional(adversityRandom, isRandomState);
}

function isDatasetView(v: unknown): v is DatasetView {
  if (!isJsonObject(v)) return false;
  const { seed, dataset_seed, accounts, counts, profile, burst } = v;
  return (
    optional(seed, isCount) &&
    optional(dataset_seed, isCount) &&
    // The limits of POST /__sim/seed: a billion accounts would hang the next read.
    optional(accounts, isRecordCount) &&
    optional(counts, (c) => isJsonObject(c) && Object.values(c).every(isRecordCount)) &&
    optional(profile, (p) => DATASET_PROFILES.some((known) => known === p)) &&
    optional(burst, (b) => isCount(b) && b >= 1)
  );
}

/** The snapshot, or undefined when the value is not one taken by GET /__sim/snapshot. */
export function readSnapshot(value: unknown): Snapshot | undefined {
  if (!isJsonObject(value) || value['version'] !== SNAPSHOT_VERSION) return undefined;
  const options = value['options'] ?? {};
  const projects = value['projects'];
  if (!isDatasetView(options) || !Array.isArray(projects) || !projects.every(isProjectSnapshot)) return undefined;
  // Only the known adversity fields go on: a restore assigns them onto the project's own.
  return { version: SNAPSHOT_VERSION, options, projects: projects.map((p) => ({ ...p, adversity: readStoredAdversity(p.adversity) ?? NO_ADVERSITY })) };
}
