/**
 * A project: what one client id sees (its own collections, settings and clock), so parallel suites
 * using different client ids never collide. Collections are generated on first use.
 */
import { Collection, type SimRecord, type Ties } from './collection.js';
import { SeededBases } from './seeded-bases.js';
import { RecordTally, recordWeight, type RecordBudget } from './record-budget.js';
import { virtualClock, wallClock, type Clock } from './clock.js';
import { generateRecords, type DatasetOptions } from './datasets.js';
import { createRandom, deriveSeed, type Random } from './random.js';
import { indexedFields, listResources, passwordProfileInfo, realms, userAuthenticationInfo, type ResourceDef } from './resources.js';
import { RECORDS_PER_STEP, type Steps } from './steps.js';
import { DEFAULT_PAGE_LENGTH, OFFSET_LIMIT } from '../engine/pagination.js';

export interface Settings {
  page_length: number;
  /** Read-only through /v2/settings; raised by the operator (the admin API). */
  page_offset_limit: number;
  readonly filter_limit: number;
}

/** At most `requests` API requests served in each run of `window` consecutive ones; the rest answer 429. */
export interface RateWindow {
  readonly requests: number;
  readonly window: number;
}

/**
 * Adversarial behaviours (commerce-api.md §4.3 caveats), all off by default and all seeded. Wire
 * names and parsing: src/store/adversity-profiles.ts (one parser for the admin API and dataset files).
 */
export interface Adversity {
  /** Records created within this many ms of now are not yet visible to list reads. */
  consistencyWindowMs: number;
  /**
   * Each record's lag is a seeded share of the window (by its id) instead of the whole window, so a
   * newer record can show before an older one: a reader that trusts the newest value it saw loses records.
   */
  consistencyStagger: boolean;
  /** Records updated (updated_at moved) after each list read, to meet an updated_at traversal twice. */
  updatesPerRead: number;
  /** Records inserted (created now) after each list read: offset paging repeats records. */
  insertsPerRead: number;
  /** Records deleted after each list read: they vanish, and an updated_at sync cannot see it. */
  deletesPerRead: number;
  /** Share of requests answered 429 with Retry-After (0..1). */
  rateLimitShare: number;
  retryAfterSeconds: number;
  /** A request rate counted in requests, not wall time, so it stays deterministic; null: off. */
  rateLimitWindow: RateWindow | null;
  /** Added to every answer of a faulty route (served over HTTP; in process, time is not spent). */
  latencyMs: number;
  /** Plus a seeded share of this, uniform: 0..latencyJitterMs. */
  latencyJitterMs: number;
  /** Share of requests answered 500 or 503 (seeded), with a JSON error body. */
  errorShare: number;
  /** Share of requests whose connection is reset without an answer. */
  resetShare: number;
  /** Share of answers cut off mid-body (the Content-Length promises more than comes). */
  truncateShare: number;
  /** The path prefix the faults above apply to; null: every API route (never the admin API or the token endpoint). */
  faultPath: string | null;
  /** Latency of particular routes, by path prefix (the longest matching prefix), added to latencyMs. */
  latencyByPath: Readonly<Record<string, number>>;
}

const NO_FAULT: Fault = { delayMs: 0, kind: 'none' };

/** What the transport should do to one answer (decided by the seeded adversity, done by the HTTP adapter). */
export interface Fault {
  readonly delayMs: number;
  readonly kind: 'none' | 'error' | 'reset' | 'truncate';
  /** For `error`: 500 or 503. */
  readonly status?: number;
}

export const NO_ADVERSITY: Adversity = {
  consistencyWindowMs: 0,
  consistencyStagger: false,
  updatesPerRead: 0,
  insertsPerRead: 0,
  deletesPerRead: 0,
  rateLimitShare: 0,
  retryAfterSeconds: 1,
  rateLimitWindow: null,
  latencyMs: 0,
  latencyJitterMs: 0,
  errorShare: 0,
  resetShare: 0,
  truncateShare: 0,
  faultPath: null,
  latencyByPath: {},
};

/** A client that writes in a loop fills its own project, not the machine: past this, creates answer 422. */
export const DEFAULT_MAX_PROJECT_RECORDS = 100_000;

/** Why a project may store no more: its own cap, or the simulator's record budget it shares with every other. */
export type Fullness = { readonly kind: 'project' | 'budget'; readonly limit: number } | undefined;

export interface ProjectOptions {
  readonly clientId: string;
  readonly dataset: DatasetOptions;
  readonly clock: { readonly mode: 'virtual' | 'wall'; readonly start: number; readonly stepMs: number; readonly read?: () => number };
  readonly adversity: Adversity;
  /** Most records the project may write (inserted, changed or deleted seeded ones); default 100,000. */
  readonly maxRecords?: number;
  /** The simulator's record budget, shared by every project; none: only maxRecords bounds this one. */
  readonly budget?: RecordBudget;
  /** Where the shared seeded records come from; projects of one simulator pass the same one. */
  readonly bases?: SeededBases;
  /** How records sharing a sort value are ordered (the reading `order.ties`); default by ascending id. */
  readonly ties?: Ties;
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
  /** The rate window being counted, and how many requests it has seen. */
  private windowOf: RateWindow | null = null;
  private windowCount = 0;
  /** Seeded records of a project made on its own (tests); projects of a simulator share theirs. */
  private ownBases: SeededBases | undefined;
  /** What this project holds beyond the seed, in budgeted records (store/record-budget.ts). */
  private readonly tally: RecordTally;

  constructor(readonly options: ProjectOptions) {
    const c = options.clock;
    this.clock = c.mode === 'wall' && c.read !== undefined ? wallClock(c.read) : virtualClock(c.start, c.stepMs);
    this.random = createRandom(deriveSeed(options.dataset.seed, `writes:${options.clientId}`));
    this.adversityRandom = createRandom(deriveSeed(options.dataset.seed, `adversity:${options.clientId}`));
    this.adversity = { ...options.adversity };
    this.tally = new RecordTally(options.budget);
    const seeded = seedAuth(options.dataset, options.ties ?? 'asc');
    this.auth = seeded.auth;
    this.realms = seeded.realms;
    for (const [realm, coll] of seeded.uai) this.uai.set(realm, coll);
  }

  /**
   * The collection behind a list resource: this project's writes over the seeded records it shares with
   * every other project of the same dataset (copy-on-write), made on first use.
   */
  list(resource: ResourceDef): Collection {
    let coll = this.lists.get(resource.name);
    if (coll === undefined) {
      coll = new Collection(resource.filter, this.bases().list(resource), undefined, this.tally);
      this.lists.set(resource.name, coll);
    }
    return coll;
  }

  /** The seeded records this project reads: the simulator's shared ones when they are of its dataset, else its own. */
  private bases(): SeededBases {
    const shared = this.options.bases;
    if (shared !== undefined && shared.holds(this.options.dataset)) return shared;
    return (this.ownBases ??= new SeededBases(this.options.dataset, this.options.ties));
  }

  /** Nothing here but the seed (no writes, default settings and adversity): dropping it loses nothing. */
  get pristine(): boolean {
    const s = this.settings;
    const a = this.adversity;
    const calm = (Object.keys(NO_ADVERSITY) as (keyof Adversity)[]).every((k) => a[k] === NO_ADVERSITY[k]);
    return calm && s.page_length === DEFAULT_PAGE_LENGTH && s.page_offset_limit === OFFSET_LIMIT && this.tally.count === 0;
  }

  /** Why this project may store no more records, or undefined while it may (ProjectOptions.maxRecords and budget). */
  get full(): Fullness {
    const own = this.options.maxRecords ?? DEFAULT_MAX_PROJECT_RECORDS;
    if (this.tally.count >= own) return { kind: 'project', limit: own };
    const budget = this.tally.budget;
    return budget !== undefined && budget.free <= 0 ? { kind: 'budget', limit: budget.limit } : undefined;
  }

  /**
   * Why a change to `before` may not be stored, or undefined: once the project or the budget is full, only
   * changes that hold nothing more pass. `after` is the record as the change leaves it; none for a delete
   * (deleting a seeded record keeps a tombstone, changing one a copy; a longer field may weigh more).
   */
  refusal(coll: Collection, before: SimRecord, after?: Pick<SimRecord, 'id' | 'attrs' | 'credential'>): Fullness {
    const full = this.full;
    if (full === undefined) return undefined;
    return coll.shares(before.id) || (after !== undefined && recordWeight(after) > recordWeight(before)) ? full : undefined;
  }

  /** Records this project wrote, in budgeted records: what it costs beyond the shared seed. */
  get ownRecordCount(): number {
    return this.tally.count;
  }

  /** A project restored off to the side (counted by itself) joins the simulator's record budget. */
  joinBudget(budget: RecordBudget): void {
    this.tally.join(budget);
  }

  /** The project is being forgotten: what it held goes back to the budget. */
  forget(): void {
    this.tally.release();
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
      coll = new Collection(passwordProfileInfo.filter, undefined, this.options.ties, this.tally);
      this.profileInfos.set(key, coll);
    }
    return coll;
  }

  /**
   * Whether this API request is rate limited (adversity): the seconds for Retry-After, or undefined
   * when it is served. The window counts requests from when it was set, so runs replay exactly.
   */
  throttle(): number | undefined {
    const a = this.adversity;
    const w = a.rateLimitWindow;
    if (w !== null) {
      if (this.windowOf !== w) {
        this.windowOf = w;
        this.windowCount = 0;
      }
      const at = this.windowCount++ % Math.max(1, w.window);
      if (at >= w.requests) return a.retryAfterSeconds;
    }
    if (a.rateLimitShare > 0 && this.adversityRandom.next() < a.rateLimitShare) return a.retryAfterSeconds;
    return undefined;
  }

  /**
   * The fault injected into this request, if any: seeded latency, a 5xx, a reset connection or a
   * truncated answer. Draws from the adversity's random source only when a fault is switched on, so
   * turning none on shifts nothing else.
   */
  fault(path: string): Fault {
    const a = this.adversity;
    // The common case, first and allocation-free: no fault switched on.
    if (a.latencyMs === 0 && a.latencyJitterMs === 0 && a.errorShare === 0 && a.resetShare === 0 && a.truncateShare === 0 && a.latencyByPath === NO_ADVERSITY.latencyByPath) return NO_FAULT;
    if (a.faultPath !== null && !path.startsWith(a.faultPath)) return NO_FAULT;
    const r = this.adversityRandom;
    const delayMs = a.latencyMs + routeLatency(a.latencyByPath, path) + (a.latencyJitterMs > 0 ? Math.floor(r.next() * (a.latencyJitterMs + 1)) : 0);
    if (a.errorShare > 0 && r.next() < a.errorShare) return { delayMs, kind: 'error', status: r.next() < 0.5 ? 500 : 503 };
    if (a.resetShare > 0 && r.next() < a.resetShare) return { delayMs, kind: 'reset' };
    if (a.truncateShare > 0 && r.next() < a.truncateShare) return { delayMs, kind: 'truncate' };
    return { delayMs, kind: 'none' };
  }

  /**
   * Whether the project changes its own data between reads (updates, inserts, deletes of its adversity) or
   * shows new records only after a while (the consistency window): a writer no traffic shows.
   */
  changesItself(): boolean {
    return this.changesOnRead() || this.adversity.consistencyWindowMs > 0;
  }

  /** Whether a list read changes the project's records (§4.3's caveats as adversity: updates, inserts, deletes after each read). */
  changesOnRead(): boolean {
    const a = this.adversity;
    return a.updatesPerRead > 0 || a.insertsPerRead > 0 || a.deletesPerRead > 0;
  }

  /** Which records list reads show at `now` (eventual consistency; default the clock's now); undefined when every record is visible. */
  visibility(now: number = this.clock.now()): ((record: SimRecord) => boolean) | undefined {
    const window = this.adversity.consistencyWindowMs;
    if (window <= 0) return undefined;
    if (!this.adversity.consistencyStagger) {
      const horizon = now - window;
      return (r) => r.createdMs <= horizon;
    }
    const seed = this.options.dataset.seed;
    return (r) => r.createdMs + lagOf(seed, r.id, window) <= now;
  }

  /**
   * §4.3's caveats, between reads: seeded updates (updated_at moves), inserts (created now, so hidden
   * for the consistency window) and deletes. Inserts and deletes touch the seeded list collections only,
   * never the authentication objects a client needs.
   */
  afterListRead(resource: ResourceDef, collection: Collection): void {
    const a = this.adversity;
    const seeded = listResources.includes(resource);
    const random = this.adversityRandom;
    // Changing or deleting a shared seeded record stores a copy or a tombstone: none once the project is full.
    for (let i = 0; i < a.updatesPerRead && collection.size > 0; i++) {
      const record = nthById(collection, random.int(collection.size));
      if (record === undefined || (this.full !== undefined && collection.shares(record.id))) continue;
      const now = this.clock.tick();
      collection.update(record, (r) => {
        r.updatedMs = now;
      });
    }
    if (!seeded) return;
    for (let i = 0; i < a.insertsPerRead && this.full === undefined; i++) {
      const now = this.clock.tick();
      collection.insert({ id: random.uuid(), createdMs: now, updatedMs: now, attrs: insertedAttributes(resource, random, now) });
    }
    for (let i = 0; i < a.deletesPerRead && collection.size > 0; i++) {
      const record = nthById(collection, random.int(collection.size));
      if (record !== undefined && !(this.full !== undefined && collection.shares(record.id))) collection.remove(record.id);
    }
  }

  /**
   * Replace state from a snapshot (admin API), as steps: a few thousand records a step, their indexes built
   * with them. The state's records are taken as they are, not copied: a restore's own parse made them
   * (sim/snapshot.ts), and nothing else holds them.
   */
  *restoreSteps(state: ProjectState): Steps<void> {
    Object.assign(this.settings, { page_length: state.settings.page_length, page_offset_limit: state.settings.page_offset_limit });
    Object.assign(this.adversity, state.adversity);
    const c = this.options.clock;
    this.clock = c.mode === 'wall' && c.read !== undefined ? wallClock(c.read) : virtualClock(state.now, c.stepMs);
    // The collections dropped here give back what they held; the loads below count what replaces it.
    this.tally.release();
    this.lists.clear();
    for (const [name, delta] of Object.entries(state.lists)) {
      const resource = listResources.find((r) => r.name === name);
      if (resource === undefined) continue;
      const coll = this.list(resource);
      yield* coll.loadSteps(delta.upserts as SimRecord[]);
      for (let i = 0; i < delta.deletes.length; i++) {
        coll.hide(delta.deletes[i] as string);
        if ((i & (RECORDS_PER_STEP - 1)) === RECORDS_PER_STEP - 1) yield;
      }
      // The restored records' indexes now, with the restore, rather than on the first read after it.
      yield* coll.warmSteps(indexedFields(resource));
    }
    this.profileInfos.clear();
    for (const [key, records] of Object.entries(state.profileInfos)) {
      const coll = new Collection(passwordProfileInfo.filter, undefined, this.options.ties, this.tally);
      yield* coll.loadSteps(records as SimRecord[]);
      this.profileInfos.set(key, coll);
    }
  }

  state(): ProjectState {
    const lists: Record<string, ListDelta> = {};
    // Only what this project changed: the seeded records follow from the dataset options.
    for (const [name, coll] of this.lists) lists[name] = { upserts: coll.ownRecords().map(storedRecord), deletes: coll.deletedBaseIds() };
    const profileInfos: Record<string, StoredRecord[]> = {};
    for (const [key, coll] of this.profileInfos) profileInfos[key] = coll.index('id', 'asc').map(storedRecord);
    return { clientId: this.options.clientId, settings: { ...this.settings }, adversity: { ...this.adversity }, now: this.clock.now(), lists, profileInfos };
  }

  /** Everything that changed since seeding, for snapshots (passwords only as their salted hashes). */
  profileInfoEntries(): IterableIterator<[string, Collection]> {
    return this.profileInfos.entries();
  }
}

/** The latency of the longest path prefix that matches, 0 when none does. */
function routeLatency(byPath: Readonly<Record<string, number>>, path: string): number {
  let best = -1;
  let ms = 0;
  for (const [prefix, value] of Object.entries(byPath)) {
    if (prefix.length > best && path.startsWith(prefix)) {
      best = prefix.length;
      ms = value;
    }
  }
  return ms;
}

/** The record at position k in id order, found by the index, not by listing every record. */
function nthById(collection: Collection, k: number): SimRecord | undefined {
  return collection.page({ clauses: [], sort: { field: 'id', direction: 'asc' }, offset: k, limit: 1 }).records[0];
}

/** A record's share of the consistency window, 0..window ms, fixed by the seed and its id. */
function lagOf(seed: number, id: string, window: number): number {
  return Math.floor((deriveSeed(seed, id) / 4294967296) * (window + 1));
}

/** Attributes of a record inserted by the adversity, unique where the resource wants it (registration_id). */
function insertedAttributes(resource: ResourceDef, random: Random, now: number): Record<string, string | null> {
  const tag = `${now.toString(36)}-${random.hex(3)}`;
  if (resource.name !== 'accounts') return { name: `Inserted ${tag}` };
  return { name: `Inserted ${tag}`, legal_name: `Inserted ${tag} Ltd`, registration_id: `REG-NEW-${tag}`, external_ref: `ext-${random.hex(4)}` };
}

function seedAuth(dataset: DatasetOptions, ties: Ties): { auth: SeededAuth; realms: Collection; uai: Map<string, Collection> } {
  const realmColl = new Collection(realms.filter, undefined, ties);
  const realmRecords = generateRecords(realms, dataset, 'authentication-realms');
  realmColl.load(realmRecords);
  const uai = new Map<string, Collection>();
  const uaiIds = new Map<string, readonly string[]>();
  const profiles = new Map<string, string>();
  const random = createRandom(deriveSeed(dataset.seed, 'password-profiles'));
  for (const realm of realmRecords) {
    const coll = new Collection(userAuthenticationInfo.filter, undefined, ties);
    const records: SimRecord[] = generateRecords(userAuthenticationInfo, dataset, `user-authentication-info:${realm.id}`);
    coll.load(records);
    uai.set(realm.id, coll);
    uaiIds.set(
      realm.id,
      records.map((r) => r.id),
    );
    profiles.set(realm.id, random.uuid());
  }
  return { auth: { realmIds: realmRecords.map((r) => r.id), uaiIds, passwordProfileIds: profiles }, realms: realmColl, uai };
}

/** A record as it appears in a snapshot: the password only as its salted hash. */
export interface StoredRecord {
  readonly id: string;
  readonly createdMs: number;
  readonly updatedMs: number;
  readonly attrs: Readonly<Record<string, string | null>>;
  readonly credential?: string;
}

export interface ListDelta {
  readonly upserts: readonly StoredRecord[];
  readonly deletes: readonly string[];
}

export interface ProjectState {
  readonly clientId: string;
  readonly settings: Settings;
  readonly adversity: Adversity;
  readonly now: number;
  /** Per list collection, the records this project inserted or changed and the seeded ids it deleted. */
  readonly lists: Readonly<Record<string, ListDelta>>;
  readonly profileInfos: Readonly<Record<string, readonly StoredRecord[]>>;
}

function storedRecord(r: SimRecord): StoredRecord {
  return { id: r.id, createdMs: r.createdMs, updatedMs: r.updatedMs, attrs: { ...r.attrs }, ...(r.credential === undefined ? {} : { credential: r.credential }) };
}
