/**
 * A project: what one client id sees (its own collections, settings and clock), so parallel suites
 * using different client ids never collide. Collections are generated on first use.
 */
import { Collection, type SimRecord } from './collection.js';
import { virtualClock, wallClock, type Clock } from './clock.js';
import { generateRecords, type DatasetOptions } from './datasets.js';
import { createRandom, deriveSeed, type Random } from './random.js';
import { listResources, passwordProfileInfo, realms, userAuthenticationInfo, type ResourceDef } from './resources.js';
import { DEFAULT_PAGE_LENGTH, OFFSET_LIMIT } from '../engine/pagination.js';

export interface Settings {
  page_length: number;
  /** Read-only through /v2/settings; raised by the operator (the admin API). */
  page_offset_limit: number;
  readonly filter_limit: number;
}

/** Adversarial behaviours (commerce-api.md §4.3 caveats), all off by default and all seeded. */
export interface Adversity {
  /** Records created within this many ms of now are not yet visible to list reads. */
  consistencyWindowMs: number;
  /** Records updated (updated_at moved) after each list read, to meet an updated_at traversal twice. */
  updatesPerRead: number;
  /** Share of requests answered 429 with Retry-After (0..1). */
  rateLimitShare: number;
  retryAfterSeconds: number;
}

export const NO_ADVERSITY: Adversity = { consistencyWindowMs: 0, updatesPerRead: 0, rateLimitShare: 0, retryAfterSeconds: 1 };

export interface ProjectOptions {
  readonly clientId: string;
  readonly dataset: DatasetOptions;
  readonly clock: { readonly mode: 'virtual' | 'wall'; readonly start: number; readonly stepMs: number; readonly read?: () => number };
  readonly adversity: Adversity;
}

/** Ids of the seeded authentication objects, the same for every project of a seed. */
export interface SeededAuth {
  readonly realmIds: readonly string[];
  readonly uaiIds: ReadonlyMap<string, readonly string[]>;
  readonly passwordProfileIds: ReadonlyMap<string, string>;
}

export class Project {
  readonly settings: Settings = { page_length: DEFAULT_PAGE_LENGTH, page_offset_limit: OFFSET_LIMIT, filter_limit: 10 };
  clock: Clock;
  /** Randomness of writes (ids, salts, adversity) — separate from seeding so reads never shift it. */
  readonly random: Random;
  /** Randomness of adversarial behaviour (429s, updates between reads), apart so it never shifts ids. */
  readonly adversityRandom: Random;
  readonly adversity: Adversity;
  readonly auth: SeededAuth;
  private readonly lists = new Map<string, Collection>();
  readonly realms: Collection;
  private readonly uai = new Map<string, Collection>();
  private readonly profileInfos = new Map<string, Collection>();

  constructor(readonly options: ProjectOptions) {
    const c = options.clock;
    this.clock = c.mode === 'wall' && c.read !== undefined ? wallClock(c.read) : virtualClock(c.start, c.stepMs);
    this.random = createRandom(deriveSeed(options.dataset.seed, `writes:${options.clientId}`));
    this.adversityRandom = createRandom(deriveSeed(options.dataset.seed, `adversity:${options.clientId}`));
    this.adversity = { ...options.adversity };
    const seeded = seedAuth(options.dataset);
    this.auth = seeded.auth;
    this.realms = seeded.realms;
    for (const [realm, coll] of seeded.uai) this.uai.set(realm, coll);
  }

  /** The seeded collection behind a list resource, generated on first use. */
  list(resource: ResourceDef): Collection {
    let coll = this.lists.get(resource.name);
    if (coll === undefined) {
      coll = new Collection(resource.filter);
      coll.load(generateRecords(resource, this.options.dataset));
      this.lists.set(resource.name, coll);
    }
    return coll;
  }

  userAuthenticationInfo(realmId: string): Collection | undefined {
    return this.uai.get(realmId);
  }

  /** Profile-info records under one user-authentication-info; undefined when the parents do not exist. */
  passwordProfileInfos(realmId: string, uaiId: string): Collection | undefined {
    if (this.uai.get(realmId)?.get(uaiId) === undefined) return undefined;
    const key = `${realmId}/${uaiId}`;
    let coll = this.profileInfos.get(key);
    if (coll === undefined) {
      coll = new Collection(passwordProfileInfo.filter);
      this.profileInfos.set(key, coll);
    }
    return coll;
  }

  /** Replace state from a snapshot (admin API). */
  restore(state: ProjectState): void {
    Object.assign(this.settings, { page_length: state.settings.page_length, page_offset_limit: state.settings.page_offset_limit });
    Object.assign(this.adversity, state.adversity);
    const c = this.options.clock;
    this.clock = c.mode === 'wall' && c.read !== undefined ? wallClock(c.read) : virtualClock(state.now, c.stepMs);
    this.lists.clear();
    for (const [name, records] of Object.entries(state.lists)) {
      const resource = listResources.find((r) => r.name === name);
      if (resource === undefined) continue;
      const coll = new Collection(resource.filter);
      coll.load(records.map(cloneRecord));
      this.lists.set(name, coll);
    }
    this.profileInfos.clear();
    for (const [key, records] of Object.entries(state.profileInfos)) {
      const coll = new Collection(passwordProfileInfo.filter);
      coll.load(records.map(cloneRecord));
      this.profileInfos.set(key, coll);
    }
  }

  state(): ProjectState {
    const lists: Record<string, StoredRecord[]> = {};
    for (const [name, coll] of this.lists) lists[name] = [...coll.index('id', 'asc')].map(storedRecord);
    const profileInfos: Record<string, StoredRecord[]> = {};
    for (const [key, coll] of this.profileInfos) profileInfos[key] = [...coll.index('id', 'asc')].map(storedRecord);
    return { clientId: this.options.clientId, settings: { ...this.settings }, adversity: { ...this.adversity }, now: this.clock.now(), lists, profileInfos };
  }

  /** Everything that changed since seeding, for snapshots (passwords only as their salted hashes). */
  profileInfoEntries(): IterableIterator<[string, Collection]> {
    return this.profileInfos.entries();
  }
}

function seedAuth(dataset: DatasetOptions): { auth: SeededAuth; realms: Collection; uai: Map<string, Collection> } {
  const realmColl = new Collection(realms.filter);
  const realmRecords = generateRecords(realms, dataset, 'authentication-realms');
  realmColl.load(realmRecords);
  const uai = new Map<string, Collection>();
  const uaiIds = new Map<string, readonly string[]>();
  const profiles = new Map<string, string>();
  const random = createRandom(deriveSeed(dataset.seed, 'password-profiles'));
  for (const realm of realmRecords) {
    const coll = new Collection(userAuthenticationInfo.filter);
    const records: SimRecord[] = generateRecords(userAuthenticationInfo, dataset, `user-authentication-info:${realm.id}`);
    coll.load(records);
    uai.set(realm.id, coll);
    uaiIds.set(realm.id, records.map((r) => r.id));
    profiles.set(realm.id, random.uuid());
  }
  return { auth: { realmIds: realmRecords.map((r) => r.id), uaiIds, passwordProfileIds: profiles }, realms: realmColl, uai };
}

export { listResources };

/** A record as it appears in a snapshot: the password only as its salted hash. */
export interface StoredRecord {
  readonly id: string;
  readonly createdMs: number;
  readonly updatedMs: number;
  readonly attrs: Readonly<Record<string, string | null>>;
  readonly credential?: string;
}

export interface ProjectState {
  readonly clientId: string;
  readonly settings: Settings;
  readonly adversity: Adversity;
  readonly now: number;
  readonly lists: Readonly<Record<string, readonly StoredRecord[]>>;
  readonly profileInfos: Readonly<Record<string, readonly StoredRecord[]>>;
}

function storedRecord(r: SimRecord): StoredRecord {
  return { id: r.id, createdMs: r.createdMs, updatedMs: r.updatedMs, attrs: { ...r.attrs }, ...(r.credential === undefined ? {} : { credential: r.credential }) };
}

function cloneRecord(r: StoredRecord): SimRecord {
  return { id: r.id, createdMs: r.createdMs, updatedMs: r.updatedMs, attrs: { ...r.attrs }, ...(r.credential === undefined ? {} : { credential: r.credential }) };
}
