/**
 * Snapshots of the whole simulator state (admin API): the dataset options, and per project its records,
 * settings, clock and the positions of its random sources, so that after a restore the same requests
 * give byte-identical responses. A snapshot arrives as JSON: it is checked field by field, never cast.
 */
import type { Problem, Result } from '../result.js';
import { MAX_PAGE_LENGTH } from '../limits.js';
import { exceeds, MAX_CLIENT_ID_LENGTH, MAX_PASSWORD_LENGTH, MAX_TEXT_LENGTH } from '../engine/field-limits.js';
import { MAX_FILTERS } from '../engine/filter.js';
import { isCount, isJsonObject, PROTOTYPE_KEYS } from '../engine/json.js';
import type { ShapeLimits } from '../engine/json-shape.js';
import { readStoredAdversity } from '../store/adversity-profiles.js';
import { isTimeMs } from '../store/clock.js';
import { datasetCounts, MAX_RECORDS } from '../store/datasets.js';
import { PROJECT_RECORDS, recordWeight, seededRecordCount } from '../store/record-budget.js';
import { readDatasetFields, type DatasetFields } from '../store/dataset-spec.js';
import { NO_ADVERSITY, type ListDelta, type Project, type ProjectState, type StoredRecord } from '../store/project.js';
import { listResources, passwordProfileInfo, type ResourceDef } from '../store/resources.js';
import { isRandomState, type RandomState } from '../store/random.js';
import { RECORDS_PER_STEP, type Steps } from '../store/steps.js';
import { IdSet } from '../store/id-map.js';
import type { AdminPort, PreparedData } from './admin-port.js';
import { recordBudgetProblem, type SimulatorOptions } from './options.js';

/** 2: each project holds only its changes over the seeded records (copy-on-write); 1 held every record. */
const SNAPSHOT_VERSION = 2;

/** How deep a snapshot nests: body › projects › project › lists › delta › upserts › record › attrs. */
export const SNAPSHOT_DEPTH = 8;
/** Values (as engine/json-shape.ts counts them) one stored record takes at most: an account's eleven. */
const VALUES_PER_RECORD = 11;
/** Values of a project besides its records: settings, adversity with 100 path latencies, 19 list deltas, random states. */
export const VALUES_PER_PROJECT = 256;
/** Values of the body besides its projects: version, the dataset options with a count per collection. */
export const VALUES_OF_BODY = 64;

/**
 * The shape of the largest snapshot `records` records (of the budget) and `projects` projects make:
 * a body past it is refused before it is parsed (a parse costs by the values, not by the bytes).
 */
export function snapshotShapeLimits(records: number, projects: number): ShapeLimits {
  return { maxDepth: SNAPSHOT_DEPTH, maxValues: VALUES_PER_RECORD * records + VALUES_PER_PROJECT * projects + VALUES_OF_BODY };
}

/** What a restore may bring: the simulator's record budget and caps (options.ts). */
export interface RestoreLimits {
  readonly maxRecords: number;
  readonly maxProjects: number;
  /** Records one project may hold (--max-project-records). */
  readonly maxProjectRecords: number;
}

/** The dataset options a snapshot was taken with (the store's one type of them). */
export type DatasetView = DatasetFields;

export interface ProjectSnapshot extends ProjectState {
  readonly random?: RandomState;
  readonly adversityRandom?: RandomState;
}

export interface Snapshot {
  readonly version: typeof SNAPSHOT_VERSION;
  readonly options: DatasetView;
  readonly projects: readonly ProjectSnapshot[];
}

export function takeSnapshot(sim: AdminPort): Snapshot {
  const o = sim.settings;
  const options: DatasetView = {
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    dataset_seed: o.datasetSeed ?? sim.seed,
    ...(o.accounts === undefined ? {} : { accounts: o.accounts }),
    ...(o.counts === undefined ? {} : { counts: o.counts }),
    ...(o.profile === undefined ? {} : { profile: o.profile }),
    ...(o.burst === undefined ? {} : { burst: o.burst }),
  };
  const projects = sim.projectIds().flatMap((id) => {
    const p = sim.existingProject(id);
    return p === undefined ? [] : [{ ...p.state(), random: p.random.save(), adversityRandom: p.adversityRandom.save() }];
  });
  return { version: SNAPSHOT_VERSION, options, projects };
}

/**
 * The same as steps: the snapshot's projects built off to the side, records loaded and indexed a few
 * thousand a step (reads meanwhile see the current state); then the returned swap installs them at once.
 */
export function* restoreSnapshotSteps(sim: AdminPort, snapshot: Snapshot, prepared?: PreparedData): Steps<() => void> {
  const options = restoredOptions(sim, snapshot);
  const projects: Project[] = [];
  for (const state of snapshot.projects) {
    const project = sim.detachedProject(state.clientId, options, prepared);
    yield* project.restoreSteps(state);
    if (state.random !== undefined) project.random.load(state.random);
    if (state.adversityRandom !== undefined) project.adversityRandom.load(state.adversityRandom);
    projects.push(project);
  }
  return () => sim.install(options, prepared, projects);
}

/** The simulator's options once the snapshot is restored: its dataset over everything else as it is. */
export function restoredOptions(sim: AdminPort, snapshot: Snapshot): SimulatorOptions {
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
  return next;
}

// ---- Checking a snapshot that came in as JSON: the first bad member, by its path ----

class Bad extends Error {
  constructor(
    readonly path: string,
    message: string,
    /** The snapshot is well formed but holds more than the record budget: a 413, not a 400. */
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

const fail = (path: string, message: string): never => {
  throw new Bad(path, message);
};

/** Records still allowed while a snapshot is read: in all (the budget) and in the project being read. */
interface Room {
  left: number;
  project: number;
  readonly limits: RestoreLimits;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** Take `n` records from the room, or refuse at `path` with a 413 naming the limit passed. */
function take(room: Room, n: number, path: string): void {
  if (n > room.project) throw new Bad(path, `brings more records than one project may write (max project records: ${fmt(room.limits.maxProjectRecords)})`, true);
  if (n > room.left) throw new Bad(path, `brings more records than the record budget leaves for the projects' writes (max records: ${fmt(room.limits.maxRecords)})`, true);
  room.left -= n;
  room.project -= n;
}
const need = (cond: boolean, path: string, message: string): void => {
  if (!cond) fail(path, message);
};

function keysOf(v: Record<string, unknown>, path: string): string[] {
  const keys = Object.keys(v);
  for (const k of keys) need(!PROTOTYPE_KEYS.has(k), `${path}.${k}`, `'${k}' is not allowed as a key`);
  return keys;
}

// An id can become a key (a client's project, a collection's map): the prototype's names are never one.
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && !exceeds(v, MAX_TEXT_LENGTH) && !PROTOTYPE_KEYS.has(v);
const ID_RULE = `must be a non-empty string of at most ${MAX_TEXT_LENGTH} characters, and not __proto__, constructor or prototype`;

const RECORD_MEMBERS: ReadonlySet<string> = new Set(['id', 'createdMs', 'updatedMs', 'attrs', 'credential']);

/**
 * The first problem of a stored record, as [the member's path below the record, message], or undefined.
 * A restore checks a million records: paths are built only for the one that is wrong.
 */
function recordProblem(v: unknown, resource: ResourceDef): readonly [string, string] | undefined {
  if (!isJsonObject(v)) return ['', 'must be a record object'];
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    if (PROTOTYPE_KEYS.has(k)) return [`.${k}`, `'${k}' is not allowed as a key`];
    if (!RECORD_MEMBERS.has(k)) return [`.${k}`, 'is not a member of a stored record'];
  }
  if (!isId(v['id'])) return ['.id', ID_RULE];
  // Instants iso() can write: a record past year 9999 would make every read of its list throw.
  if (!isTimeMs(v['createdMs'])) return ['.createdMs', 'must be milliseconds within years 0000-9999'];
  if (!isTimeMs(v['updatedMs'])) return ['.updatedMs', 'must be milliseconds within years 0000-9999'];
  const attrs = v['attrs'];
  if (!isJsonObject(attrs)) return ['.attrs', 'must be an object'];
  for (const k in attrs) {
    if (!Object.hasOwn(attrs, k)) continue;
    if (PROTOTYPE_KEYS.has(k)) return [`.attrs.${k}`, `'${k}' is not allowed as a key`];
    if (!resource.attributes.includes(k)) return [`.attrs.${k}`, `is not an attribute of ${resource.type}`];
    const a = attrs[k];
    if (!(a === null || (typeof a === 'string' && !exceeds(a, MAX_TEXT_LENGTH)))) return [`.attrs.${k}`, `must be null or a string of at most ${MAX_TEXT_LENGTH} characters`];
  }
  const credential = v['credential'];
  if (!(credential === undefined || (typeof credential === 'string' && !exceeds(credential, MAX_PASSWORD_LENGTH)))) return ['.credential', 'must be a stored password hash'];
  return undefined;
}

/** Records checked between steps. */
const STEP = RECORDS_PER_STEP;

/** Records with ids unique within the list, taken from the room by weight (store/record-budget.ts). */
function* readRecords(v: unknown, path: string, resource: ResourceDef, room: Room): Steps<readonly StoredRecord[]> {
  need(Array.isArray(v), path, 'must be an array of records');
  const list = v as unknown[];
  // Each record weighs one at least: a list longer than the room is refused before any record is read.
  take(room, list.length, path);
  let weight = 0;
  const seen = new IdSet();
  for (let i = 0; i < list.length; i++) {
    const problem = recordProblem(list[i], resource);
    if (problem !== undefined) fail(`${path}.${i}${problem[0]}`, problem[1]);
    const id = (list[i] as StoredRecord).id;
    if (seen.has(id)) fail(`${path}.${i}.id`, `duplicates the id ${id}`);
    seen.add(id);
    weight += recordWeight(list[i] as StoredRecord) - 1;
    if ((i & (STEP - 1)) === STEP - 1) yield;
  }
  take(room, weight, path);
  return list as StoredRecord[];
}

function* readDelta(v: unknown, path: string, resource: ResourceDef, room: Room): Steps<ListDelta> {
  need(isJsonObject(v), path, 'must be an object with upserts and deletes');
  const d = v as Record<string, unknown>;
  for (const k of keysOf(d, path)) need(k === 'upserts' || k === 'deletes', `${path}.${k}`, 'is not a member of a list delta');
  const upserts = yield* readRecords(d['upserts'] ?? [], `${path}.upserts`, resource, room);
  const deletes = d['deletes'] ?? [];
  need(Array.isArray(deletes), `${path}.deletes`, 'must be an array of ids');
  take(room, (deletes as unknown[]).length, `${path}.deletes`);
  const written = new IdSet();
  for (let i = 0; i < upserts.length; i++) {
    written.add((upserts[i] as StoredRecord).id);
    if ((i & (STEP - 1)) === STEP - 1) yield;
  }
  const gone = new IdSet();
  const ids = deletes as unknown[];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    // The path is built only for the id that is wrong (a delta may hold a million).
    if (!isId(id)) return fail(`${path}.deletes.${i}`, ID_RULE);
    if (gone.has(id) || written.has(id)) fail(`${path}.deletes.${i}`, `${id} is deleted twice or also written`);
    gone.add(id);
    if ((i & (STEP - 1)) === STEP - 1) yield;
  }
  // Every id checked once and none twice: the list itself, not a copy of the set (a million ids copied at once held the loop).
  return { upserts, deletes: ids as string[] };
}

function readSettings(v: unknown, path: string): ProjectState['settings'] {
  need(isJsonObject(v), path, 'must be an object');
  const s = v as Record<string, unknown>;
  for (const k of keysOf(s, path)) need(['page_length', 'page_offset_limit', 'filter_limit'].includes(k), `${path}.${k}`, 'is not a setting');
  const length = s['page_length'];
  need(isCount(length) && length >= 1 && length <= MAX_PAGE_LENGTH, `${path}.page_length`, `must be a whole number from 1 to ${MAX_PAGE_LENGTH}`);
  const offsetLimit = s['page_offset_limit'];
  need(isCount(offsetLimit) && offsetLimit >= 1 && offsetLimit <= MAX_RECORDS, `${path}.page_offset_limit`, `must be a whole number from 1 to ${MAX_RECORDS}`);
  need(s['filter_limit'] === undefined || s['filter_limit'] === MAX_FILTERS, `${path}.filter_limit`, `must be ${MAX_FILTERS}`);
  return { page_length: length as number, page_offset_limit: offsetLimit as number, filter_limit: MAX_FILTERS };
}

function* readProject(v: unknown, path: string, room: Room): Steps<ProjectSnapshot> {
  need(isJsonObject(v), path, 'must be a project object');
  const p = v as Record<string, unknown>;
  const known = ['clientId', 'settings', 'adversity', 'now', 'lists', 'profileInfos', 'random', 'adversityRandom'];
  for (const k of keysOf(p, path)) need(known.includes(k), `${path}.${k}`, 'is not a member of a project');
  const clientId = p['clientId'];
  need(
    typeof clientId === 'string' && clientId.length > 0 && !exceeds(clientId, MAX_CLIENT_ID_LENGTH) && !PROTOTYPE_KEYS.has(clientId),
    `${path}.clientId`,
    `must be a non-empty string of at most ${MAX_CLIENT_ID_LENGTH} characters, and not __proto__, constructor or prototype`,
  );
  room.project = room.limits.maxProjectRecords;
  const settings = readSettings(p['settings'], `${path}.settings`);
  // The adversity is checked by its own module, with the limits PUT /__sim/adversity applies.
  const adversity = readStoredAdversity(p['adversity']);
  if (adversity === undefined) fail(`${path}.adversity`, 'is not an adversity PUT /__sim/adversity would accept');
  need(isTimeMs(p['now']), `${path}.now`, 'must be milliseconds within years 0000-9999');
  need(isJsonObject(p['lists']), `${path}.lists`, 'must be an object of list deltas by collection name');
  const lists: Record<string, ListDelta> = {};
  for (const name of keysOf(p['lists'] as Record<string, unknown>, `${path}.lists`)) {
    const resource = listResources.find((r) => r.name === name);
    if (resource === undefined) fail(`${path}.lists.${name}`, 'is not a list collection');
    lists[name] = yield* readDelta((p['lists'] as Record<string, unknown>)[name], `${path}.lists.${name}`, resource as ResourceDef, room);
  }
  need(isJsonObject(p['profileInfos']), `${path}.profileInfos`, 'must be an object of records by realm/user-authentication-info');
  const profileInfos: Record<string, readonly StoredRecord[]> = {};
  for (const key of keysOf(p['profileInfos'] as Record<string, unknown>, `${path}.profileInfos`)) {
    need(
      /^[^/]+\/[^/]+$/.test(key) && key.split('/').every((id) => !PROTOTYPE_KEYS.has(id)),
      `${path}.profileInfos.${key}`,
      'must be named <realm id>/<user-authentication-info id>, neither __proto__, constructor nor prototype',
    );
    // A collection of its own, empty or not: it counts as a record.
    take(room, 1, `${path}.profileInfos.${key}`);
    profileInfos[key] = yield* readRecords((p['profileInfos'] as Record<string, unknown>)[key], `${path}.profileInfos.${key}`, passwordProfileInfo, room);
  }
  const random = p['random'];
  need(random === undefined || isRandomState(random), `${path}.random`, 'must be four 32-bit words');
  const adversityRandom = p['adversityRandom'];
  need(adversityRandom === undefined || isRandomState(adversityRandom), `${path}.adversityRandom`, 'must be four 32-bit words');
  return {
    clientId: clientId as string,
    settings,
    adversity: adversity ?? NO_ADVERSITY,
    now: p['now'] as number,
    lists,
    profileInfos,
    ...(random === undefined ? {} : { random: random as RandomState }),
    ...(adversityRandom === undefined ? {} : { adversityRandom: adversityRandom as RandomState }),
  };
}

function readOptions(v: unknown, path: string): DatasetView {
  const fields = readDatasetFields(v, ['seed', 'dataset_seed', 'accounts', 'counts', 'profile', 'burst'], `${path}.`);
  if (!fields.ok) fail(fields.path, fields.message);
  return (fields as { value: DatasetView }).value;
}

export type SnapshotReading = Result<Snapshot, Problem & { readonly tooLarge: boolean }>;

/** The same reading as steps: a few thousand records a step (a served restore reads a million between other requests). */
export function* readSnapshotSteps(value: unknown, limits: RestoreLimits): Steps<SnapshotReading> {
  try {
    need(isJsonObject(value), '', 'The body must be a snapshot object taken by GET /__sim/snapshot');
    const v = value as Record<string, unknown>;
    for (const k of keysOf(v, '')) need(['version', 'options', 'projects', 'drop_projects'].includes(k), k, 'is not a member of a snapshot');
    if (v['version'] === 1) fail('version', 'version 1 snapshots (every record) were written by an older commerce-sim; take a new snapshot');
    need(v['version'] === SNAPSHOT_VERSION, 'version', `must be ${SNAPSHOT_VERSION}`);
    need(v['options'] !== undefined, 'options', 'is required: the dataset the projects start from');
    const options = readOptions(v['options'], 'options');
    const budget = recordBudgetProblem({ ...options, maxRecords: limits.maxRecords, maxProjects: limits.maxProjects });
    if (budget !== undefined) fail(`options.${budget.path}`, budget.message);
    const room: Room = { left: limits.maxRecords - limits.maxProjects * PROJECT_RECORDS - seededRecordCount(datasetCounts(options)), project: limits.maxProjectRecords, limits };
    need(Array.isArray(v['projects']), 'projects', 'must be an array of projects');
    const seen = new Set<string>();
    const projects: ProjectSnapshot[] = [];
    for (const [i, p] of (v['projects'] as unknown[]).entries()) {
      const project = yield* readProject(p, `projects.${i}`, room);
      need(!seen.has(project.clientId), `projects.${i}.clientId`, `duplicates the client id ${project.clientId}`);
      seen.add(project.clientId);
      projects.push(project);
    }
    return { ok: true, value: { version: SNAPSHOT_VERSION, options, projects } };
  } catch (e) {
    if (e instanceof Bad) return { ok: false, path: e.path, message: e.message, tooLarge: e.tooLarge };
    throw e;
  }
}
