/** The simulator's options, their defaults and their one reader: one home, so the admin API and snapshots need not import the simulator. */
import { DEVIATION_IDS, isDeviationId } from '../engine/deviations.js';
import { exceeds, MAX_CLIENT_ID_LENGTH } from '../engine/field-limits.js';
import { PROTOTYPE_KEYS } from '../engine/json.js';
import { DEFAULT_PORT } from '../limits.js';
import type { Problem, Result } from '../result.js';
import { readReadingChoice } from '../rules/readings.js';
import type { RuleId } from '../rules/ids.js';
import { readDatasetFields, type DatasetField, type DatasetFields } from '../store/dataset-spec.js';
import { datasetCounts, MAX_RECORDS, type DatasetProfile } from '../store/datasets.js';
import { defaultMaxRecords, PROJECT_RECORDS, seededRecordCount } from '../store/record-budget.js';
import type { ResolvedDataset } from '../store/adversity-profiles.js';
import type { Adversity } from '../store/project.js';
import { isSurface, SURFACES, type Surface } from './surface.js';
import type { ClientRegistry } from './clients.js';
import type { ReadingChoice } from '../rules/readings.js';

export interface SimulatorOptions {
  readonly seed?: number;
  /** Seed of the data only (admin reseed); tokens and the admin token keep following `seed`. */
  readonly datasetSeed?: number;
  /** Origin of absolute links, e.g. `http://127.0.0.1:4747`. */
  readonly baseUrl?: string;
  /** Number of seeded accounts (default 120). */
  readonly accounts?: number;
  /** Seeded record counts by collection name (`orders`, `files`, ...). */
  readonly counts?: Readonly<Record<string, number>>;
  readonly profile?: DatasetProfile;
  readonly burst?: number;
  readonly clock?: { readonly mode?: 'virtual' | 'wall'; readonly start?: number; readonly stepMs?: number };
  /** Documented rule ids to break on purpose; typed, and checked again at run time (isDeviationId) for callers without types. */
  readonly deviate?: readonly RuleId[];
  /** `documented`: answer only what commerce-api.md states (sim/surface.ts). Default `full`. */
  readonly surface?: Surface;
  /** What to answer where the document is silent (rules/readings.ts); unset points take the public API's. */
  readonly readings?: ReadingChoice;
  readonly adversity?: Partial<Adversity>;
  /** Real time, used only for the token's `expires` (and the clock in wall mode). Injected by adapters. */
  readonly wallClock: () => number;
  readonly defaultClientId?: string;
  /**
   * The key bearer tokens and the admin token are derived from. Default: the seed, which makes them
   * reproducible and so guessable: `serve` passes random bytes (or the user's key).
   */
  readonly tokenKey?: string;
  /** The admin token itself (`serve --admin-token-env`); default derived from the token key. */
  readonly adminToken?: string;
  /** Registered clients (`serve --clients`): unknown ones get 401 from the token endpoint. Default: any client id. */
  readonly clients?: ClientRegistry;
  /** Projects kept at most; past it the least recently used is forgotten (default 1,000). */
  readonly maxProjects?: number;
  /** Records one project may write (default 100,000); past it creates answer 422. */
  readonly maxProjectRecords?: number;
  /**
   * Records the whole simulator may hold: the seeded ones, every project's writes, and a share per project
   * (store/record-budget.ts). Default: what this process's heap limit holds. Past it creates answer 422.
   */
  readonly maxRecords?: number;
  /** Requests the journal keeps (GET /__sim/requests); default 1,000. */
  readonly journalSize?: number;
  /**
   * The work budget of one list read, in records examined with one simple test (engine/read-cost.ts
   * weighs costlier tests); past it the read answers 400. Default 100,000.
   */
  readonly maxScan?: number;
}

export const DEFAULT_MAX_PROJECTS = 1000;
/** Far past any heap: a bound that keeps the arithmetic whole, not a size anyone should ask for. */
const MAX_MAX_RECORDS = 1_000_000_000;
/** The largest --max-scan: a cap whole numbers can count (a full scan of a million records with long patterns is about 80,000,000). */
const MAX_MAX_SCAN = 1_000_000_000_000;

export const DEFAULT_SEED = 42;
/** The origin of absolute links unless told: where `serve` listens by default. */
export const DEFAULT_BASE_URL = `http://127.0.0.1:${DEFAULT_PORT}`;
export const DEFAULT_CLIENT_ID = 'commerce-sim';

/** The ids a client needs to call the create operation, and the admin token. */
export interface SeededIds {
  readonly realm_id: string;
  readonly user_authentication_info_id: string;
  readonly password_profile_id: string;
}

/**
 * A dataset (named or from a file) under the options given explicitly: the dataset sets profile, burst,
 * counts, adversity and readings; counts, adversity fields and readings given explicitly win over the dataset's.
 */
export function withDataset<O extends Pick<SimulatorOptions, 'counts' | 'adversity' | 'profile' | 'burst' | 'readings'>>(options: O, dataset: ResolvedDataset | undefined): O {
  if (dataset === undefined) return options;
  return {
    ...options,
    ...(dataset.readings === undefined ? {} : { readings: { ...dataset.readings, ...(options.readings ?? {}) } }),
    profile: dataset.profile,
    ...(dataset.burst === undefined ? {} : { burst: dataset.burst }),
    counts: { ...(dataset.counts ?? {}), ...(options.counts ?? {}) },
    adversity: { ...dataset.adversity, ...(options.adversity ?? {}) },
  };
}

/**
 * The simulator options a person or a program sets, in one vocabulary for every door they come in by:
 * `serve`'s flags, `startSimulator()`'s object and the admin API's reseed body. One reader checks them
 * all, so a bound or a message is written once.
 */
export interface SimulatorSettings extends DatasetFields {
  readonly deviate?: readonly RuleId[];
  readonly surface?: Surface;
  readonly readings?: ReadingChoice;
  readonly clock?: 'virtual' | 'wall';
  readonly clockStepMs?: number;
  readonly clientId?: string;
  readonly maxProjects?: number;
  readonly maxProjectRecords?: number;
  readonly maxRecords?: number;
  readonly maxScan?: number;
}

export type SimulatorSetting = Exclude<keyof SimulatorSettings, 'dataset_seed'>;

const DATASET_SETTINGS: readonly SimulatorSetting[] = ['seed', 'accounts', 'counts', 'profile', 'burst'];

const refuse = (path: string, message: string): Result<never> => ({ ok: false, path, message });

/** A whole number in [min, max], or the refusal naming the bounds and what came. */
function whole(path: string, v: unknown, min: number, max: number): Result<number | undefined> {
  if (v === undefined) return { ok: true, value: undefined };
  if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return { ok: true, value: v };
  return refuse(path, `must be a whole number from ${min} to ${max}, got ${typeof v === 'string' ? `'${v}'` : JSON.stringify(v)}`);
}

/** `value`'s members among `allowed`, checked; the refusal names the path of the first bad one. */
export function readSimulatorSettings(value: unknown, allowed: readonly SimulatorSetting[]): Result<SimulatorSettings> {
  const datasetAllowed = DATASET_SETTINGS.filter((k) => allowed.includes(k)) as DatasetField[];
  const dataset = readDatasetFields(
    value,
    datasetAllowed,
    '',
    allowed.filter((k) => !DATASET_SETTINGS.includes(k)),
  );
  if (!dataset.ok) return dataset;
  const o = value as Record<string, unknown>;
  const out: { -readonly [K in keyof SimulatorSettings]?: SimulatorSettings[K] } = { ...dataset.value };
  const numbers = [
    ['clockStepMs', 0, 86_400_000],
    ['maxProjects', 1, 1_000_000],
    ['maxProjectRecords', 1, MAX_RECORDS],
    ['maxRecords', 1, MAX_MAX_RECORDS],
    ['maxScan', 1, MAX_MAX_SCAN],
  ] as const;
  for (const [key, min, max] of numbers) {
    const n = whole(key, o[key], min, max);
    if (!n.ok) return n;
    if (n.value !== undefined) out[key] = n.value;
  }
  const deviate = o['deviate'];
  if (deviate !== undefined) {
    if (!Array.isArray(deviate)) return refuse('deviate', 'must be a list of documented rule ids');
    const wrong: unknown = deviate.find((id) => typeof id !== 'string' || !isDeviationId(id));
    if (wrong !== undefined) return refuse('deviate', `'${String(wrong)}' is not a deviation the simulator has (one of: ${DEVIATION_IDS.join(', ')})`);
    out.deviate = deviate as RuleId[];
  }
  const surface = o['surface'];
  if (surface !== undefined) {
    if (typeof surface !== 'string' || !isSurface(surface)) return refuse('surface', `must be ${SURFACES.join(' or ')}, got '${String(surface)}'`);
    out.surface = surface;
  }
  if (o['readings'] !== undefined) {
    const readings = readReadingChoice(o['readings'], 'readings');
    if (!readings.ok) return readings;
    out.readings = readings.value;
  }
  const clock = o['clock'];
  if (clock !== undefined) {
    if (clock !== 'virtual' && clock !== 'wall') return refuse('clock', `must be virtual or wall, got '${String(clock)}'`);
    out.clock = clock;
  }
  const clientId = o['clientId'];
  if (clientId !== undefined) {
    if (typeof clientId !== 'string' || clientId.length === 0 || exceeds(clientId, MAX_CLIENT_ID_LENGTH) || PROTOTYPE_KEYS.has(clientId))
      return refuse('clientId', `must be a non-empty string of at most ${MAX_CLIENT_ID_LENGTH} characters, and not __proto__, constructor or prototype`);
    out.clientId = clientId;
  }
  return { ok: true, value: out };
}

/** Checked settings as the simulator's options (its clock and default client in their own shapes). */
export function simulatorOptionsOf(s: SimulatorSettings): Omit<SimulatorOptions, 'wallClock'> {
  return {
    ...(s.seed === undefined ? {} : { seed: s.seed }),
    ...(s.accounts === undefined ? {} : { accounts: s.accounts }),
    ...(s.counts === undefined || Object.keys(s.counts).length === 0 ? {} : { counts: s.counts }),
    ...(s.profile === undefined ? {} : { profile: s.profile }),
    ...(s.burst === undefined ? {} : { burst: s.burst }),
    ...(s.deviate === undefined || s.deviate.length === 0 ? {} : { deviate: s.deviate }),
    ...(s.surface === undefined || s.surface === 'full' ? {} : { surface: s.surface }),
    ...(s.readings === undefined ? {} : { readings: s.readings }),
    ...(s.clock === undefined && s.clockStepMs === undefined ? {} : { clock: { mode: s.clock ?? 'virtual', ...(s.clockStepMs === undefined ? {} : { stepMs: s.clockStepMs }) } }),
    ...(s.clientId === undefined ? {} : { defaultClientId: s.clientId }),
    ...(s.maxProjects === undefined ? {} : { maxProjects: s.maxProjects }),
    ...(s.maxProjectRecords === undefined ? {} : { maxProjectRecords: s.maxProjectRecords }),
    ...(s.maxRecords === undefined ? {} : { maxRecords: s.maxRecords }),
    ...(s.maxScan === undefined ? {} : { maxScan: s.maxScan }),
  };
}

/** The record budget of these options: theirs, or what the heap holds. */
export function maxRecordsOf(o: Pick<SimulatorOptions, 'maxRecords'>): number {
  return o.maxRecords ?? defaultMaxRecords();
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/**
 * Whether the seeded records of these options, and the share set aside for their projects, fit the record
 * budget: the path of the setting that breaks it and why, in the same words at every door (serve, startSimulator(), reseed).
 */
export function recordBudgetProblem(o: Pick<SimulatorOptions, 'accounts' | 'counts' | 'maxProjects' | 'maxRecords'>): Problem | undefined {
  const limit = maxRecordsOf(o);
  const projects = o.maxProjects ?? DEFAULT_MAX_PROJECTS;
  const reserved = projects * PROJECT_RECORDS;
  // Formatted only for a refusal: the first toLocaleString of a process loads ICU's locale data (tens of ms of a cold start).
  const budget = () => `the record budget (max records) is ${fmt(limit)}`;
  if (reserved >= limit) return { path: 'maxProjects', message: `sets aside ${fmt(reserved)} records for ${fmt(projects)} projects (${PROJECT_RECORDS} each), and ${budget()}` };
  const seeded = seededRecordCount(datasetCounts(o));
  if (seeded + reserved > limit) {
    return {
      path: o.counts !== undefined && Object.keys(o.counts).length > 0 ? 'counts' : 'accounts',
      message: `would seed ${fmt(seeded)} records; ${budget()}, of which ${fmt(reserved)} are set aside for ${fmt(projects)} projects, so at most ${fmt(limit - reserved)} may be seeded`,
    };
  }
  return undefined;
}
