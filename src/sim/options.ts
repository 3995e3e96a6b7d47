/** The simulator's options and defaults: one home, so the admin API and snapshots need not import the simulator. */
import type { DatasetProfile } from '../store/datasets.js';
import type { ResolvedDataset } from '../store/adversity-profiles.js';
import type { Adversity } from '../store/project.js';
import type { Surface } from './surface.js';
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
  readonly deviate?: readonly string[];
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
  /** Requests the journal keeps (GET /__sim/requests); default 1,000. */
  readonly journalSize?: number;
  /** Most records one list read may examine one by one (a filter no index answers); default 250,000. */
  readonly maxScan?: number;
}

export const DEFAULT_MAX_PROJECTS = 1000;
/** A scan of this many records costs tens of milliseconds in index order (scattered in memory); past it a read is refused. */
export const DEFAULT_MAX_SCAN = 250_000;

export const DEFAULT_SEED = 42;
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
