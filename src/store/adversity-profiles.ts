/**
 * Named adversarial datasets (`serve --dataset NAME|FILE`) and the one parser of the adversity's wire
 * form, shared by the admin API (PUT /__sim/adversity), dataset files and scenario setup. Each profile
 * switches on one of §4.3's traps (commerce-api.md) on purpose; `hostile` switches on all of them.
 */
import type { Result } from '../result.js';
import { isCount, isJsonObject } from '../engine/json.js';
import { readDatasetFile } from './dataset-file.js';
import { readDatasetFields } from './dataset-spec.js';
import type { DatasetProfile } from './datasets.js';
import { NO_ADVERSITY, type Adversity, type RateWindow } from './project.js';
import { readReadingChoice, type ReadingChoice } from '../rules/readings.js';

/** What a dataset name or file resolves to: the simulator options it sets. */
export interface ResolvedDataset {
  /** The profile name, or the file as given. */
  readonly name: string;
  readonly profile: DatasetProfile;
  readonly burst?: number;
  /** Record counts by collection name (`accounts`, `orders`, ...). */
  readonly counts?: Readonly<Record<string, number>>;
  readonly adversity: Adversity;
  /** What the simulator answers where the document is silent (a dataset file's `readings:`). */
  readonly readings?: ReadingChoice;
}

export { DatasetError } from './dataset-error.js';
import { DatasetError } from './dataset-error.js';

interface ProfileSpec {
  readonly summary: string;
  readonly profile: DatasetProfile;
  readonly burst?: number;
  readonly counts?: Readonly<Record<string, number>>;
  readonly adversity: Partial<Adversity>;
}

/** Bursts larger than the largest page (100), and enough accounts for several of them. */
const BURSTY = { profile: 'shared-timestamps', burst: 150, counts: { accounts: 500 } } as const;
const STAGGERED_WINDOW = { consistencyWindowMs: 10_000, consistencyStagger: true } as const;
const RATE_WINDOW: RateWindow = { requests: 8, window: 10 };

const ADVERSITY_PROFILES: Readonly<Record<string, ProfileSpec>> = {
  default: { summary: 'distinct timestamps, no adversity', profile: 'default', adversity: {} },
  'shared-timestamps': { summary: 'bursts of 150 records sharing one created_at/updated_at (larger than a page)', ...BURSTY, adversity: {} },
  'eventual-consistency': {
    summary: 'records inserted between reads stay hidden for a seeded share of a 10 s window',
    profile: 'default',
    adversity: { ...STAGGERED_WINDOW, insertsPerRead: 2 },
  },
  'updates-during-traversal': { summary: '3 records updated (updated_at moved) after every list read', profile: 'default', adversity: { updatesPerRead: 3 } },
  'inserts-during-traversal': { summary: '2 records inserted after every list read (offset paging repeats records)', profile: 'default', adversity: { insertsPerRead: 2 } },
  'deletes-during-traversal': { summary: '1 record deleted after every list read (an updated_at sync cannot see it)', profile: 'default', adversity: { deletesPerRead: 1 } },
  'rate-limited': {
    summary: '429 with Retry-After on 20% of requests and on 2 of every 10',
    profile: 'default',
    adversity: { rateLimitShare: 0.2, retryAfterSeconds: 1, rateLimitWindow: RATE_WINDOW },
  },
  hostile: {
    summary: 'all of the above at once',
    ...BURSTY,
    adversity: { ...STAGGERED_WINDOW, updatesPerRead: 2, insertsPerRead: 1, deletesPerRead: 1, rateLimitShare: 0.15, retryAfterSeconds: 1, rateLimitWindow: RATE_WINDOW },
  },
};

export const ADVERSITY_PROFILE_NAMES: readonly string[] = Object.keys(ADVERSITY_PROFILES);

/** The whole adversity of a named profile (the admin API's `preset`), or undefined for an unknown name. */
export function adversityPreset(name: string): Adversity | undefined {
  const spec = Object.hasOwn(ADVERSITY_PROFILES, name) ? ADVERSITY_PROFILES[name] : undefined;
  return spec === undefined ? undefined : { ...NO_ADVERSITY, ...spec.adversity };
}

function fromProfile(name: string, spec: ProfileSpec): ResolvedDataset {
  return {
    name,
    profile: spec.profile,
    ...(spec.burst === undefined ? {} : { burst: spec.burst }),
    ...(spec.counts === undefined ? {} : { counts: { ...spec.counts } }),
    adversity: { ...NO_ADVERSITY, ...spec.adversity },
  };
}

export interface ResolveOptions {
  /** Directory a relative file name is read from (default: the process's). */
  readonly cwd?: string;
  /** Reads and parses a dataset file (JSON or YAML) into a plain value; default: src/store/dataset-file.ts. */
  readonly load?: (path: string) => Promise<unknown>;
}

/**
 * `--dataset NAME|FILE`: a profile of the table, or a JSON/YAML file with the same fields
 * (`extends`, `profile`, `burst`, `accounts`, `counts`, `adversity` in the admin API's wire names).
 */
export async function resolveDataset(nameOrFile: string, options: ResolveOptions = {}): Promise<ResolvedDataset> {
  const named = Object.hasOwn(ADVERSITY_PROFILES, nameOrFile) ? ADVERSITY_PROFILES[nameOrFile] : undefined;
  if (named !== undefined) return fromProfile(nameOrFile, named);
  if (!/[/\\]|\.(json|ya?ml)$/i.test(nameOrFile)) {
    throw new DatasetError('DATASET_UNKNOWN', `unknown dataset '${nameOrFile}': give one of ${ADVERSITY_PROFILE_NAMES.join(', ')}, or a .json/.yaml file`);
  }
  const load = options.load ?? ((path: string) => readDatasetFile(path, options.cwd));
  const value = await load(nameOrFile);
  const parsed = parseDatasetSpec(value, nameOrFile);
  if (!parsed.ok) throw new DatasetError('DATASET_INVALID', `${nameOrFile}: ${parsed.message}`);
  return parsed.value;
}

/** The readings of a dataset file alone (a run's readings.json is one): what a deployment answers where the document is silent. */
export async function readingsOfFile(file: string, options: ResolveOptions = {}): Promise<ReadingChoice> {
  // A path, never a profile's name: `./hostile` is the file, `hostile` the profile.
  const path = /[/\\]/.test(file) ? file : `./${file}`;
  return (await resolveDataset(path, options)).readings ?? {};
}

type Parsed<T> = Result<T, { readonly message: string }>;

/** More changes per read than this would only make every read slow. */
const MAX_PER_READ = 1000;

function unknownKeys(value: Record<string, unknown>, allowed: readonly string[], where: string): string | undefined {
  const extra = Object.keys(value).find((k) => !allowed.includes(k));
  return extra === undefined ? undefined : `${where}${extra}: unknown field (allowed: ${allowed.join(', ')})`;
}

/** A dataset file's content (already parsed from JSON/YAML) into simulator options. */
export function parseDatasetSpec(value: unknown, name: string): Parsed<ResolvedDataset> {
  if (!isJsonObject(value)) return { ok: false, message: 'the file must hold an object with extends, profile, burst, accounts, counts, adversity, readings, notes' };
  // `notes`: anything, for the reader (a readings file says there what its run could not tell).
  const fields = readDatasetFields(value, ['profile', 'burst', 'accounts', 'counts'], '', ['extends', 'adversity', 'readings', 'notes']);
  if (!fields.ok) return { ok: false, message: `${fields.path}: ${fields.message}` };
  const { extends: base, adversity } = value;
  const { profile, burst, accounts, counts } = fields.value;
  let start = fromProfile(name, { summary: '', profile: 'default', adversity: {} });
  if (base !== undefined) {
    const spec = typeof base === 'string' && Object.hasOwn(ADVERSITY_PROFILES, base) ? ADVERSITY_PROFILES[base] : undefined;
    if (spec === undefined) return { ok: false, message: `extends: must be one of ${ADVERSITY_PROFILE_NAMES.join(', ')}` };
    start = fromProfile(name, spec);
  }
  const nextCounts: Record<string, number> = { ...(start.counts ?? {}), ...(counts ?? {}) };
  if (isCount(accounts)) nextCounts['accounts'] = accounts;
  let nextAdversity = start.adversity;
  if (adversity !== undefined) {
    const patch = parseAdversityPatch(adversity, 'adversity.');
    if (!patch.ok) return patch;
    nextAdversity = { ...nextAdversity, ...patch.value };
  }
  let readings: ReadingChoice | undefined;
  if (value['readings'] !== undefined) {
    const read = readReadingChoice(value['readings'], 'readings');
    if (!read.ok) return { ok: false, message: `${read.path}: ${read.message}` };
    readings = read.value;
  }
  const nextProfile = profile ?? start.profile;
  const nextBurst = burst ?? start.burst;
  return {
    ok: true,
    value: {
      ...(readings === undefined ? {} : { readings }),
      name,
      profile: nextProfile,
      ...(nextBurst === undefined ? {} : { burst: nextBurst }),
      ...(Object.keys(nextCounts).length === 0 ? {} : { counts: nextCounts }),
      adversity: nextAdversity,
    },
  };
}

/** The adversity's wire names (admin API, dataset files, scenarios). */
const ADVERSITY_FIELDS = [
  'consistency_window_ms',
  'consistency_stagger',
  'updates_per_read',
  'inserts_per_read',
  'deletes_per_read',
  'rate_limit_share',
  'retry_after_seconds',
  'rate_limit_per_window',
  'latency_ms',
  'latency_jitter_ms',
  'error_share',
  'reset_share',
  'truncate_share',
  'fault_path',
  'latency_by_path',
] as const;

/** Injected latency above this would only stall the caller's test (and hold a connection open). */
const MAX_LATENCY_MS = 60_000;

/** A partial adversity in wire form → the fields it sets; unknown fields and bad values are refused. */
export function parseAdversityPatch(value: unknown, where = ''): Parsed<Partial<Adversity>> {
  if (!isJsonObject(value)) return { ok: false, message: `${where || 'the body'}: must be an object` };
  const extra = unknownKeys(value, ADVERSITY_FIELDS, where);
  if (extra !== undefined) return { ok: false, message: extra };
  const out: Partial<Adversity> = {};
  const bad = (field: string, what: string): Parsed<never> => ({ ok: false, message: `${where}${field}: must be ${what}` });
  const v = value;
  const window = v['consistency_window_ms'];
  if (window !== undefined) {
    if (!isCount(window)) return bad('consistency_window_ms', 'a non-negative whole number');
    out.consistencyWindowMs = window;
  }
  const stagger = v['consistency_stagger'];
  if (stagger !== undefined) {
    if (typeof stagger !== 'boolean') return bad('consistency_stagger', 'true or false');
    out.consistencyStagger = stagger;
  }
  const perRead = [
    ['updates_per_read', 'updatesPerRead'],
    ['inserts_per_read', 'insertsPerRead'],
    ['deletes_per_read', 'deletesPerRead'],
  ] as const;
  for (const [wire, key] of perRead) {
    const n = v[wire];
    if (n === undefined) continue;
    if (!isCount(n) || n > MAX_PER_READ) return bad(wire, `a whole number from 0 to ${MAX_PER_READ}`);
    out[key] = n;
  }
  const share = v['rate_limit_share'];
  if (share !== undefined) {
    if (typeof share !== 'number' || !(share >= 0 && share <= 1)) return bad('rate_limit_share', 'a number from 0 to 1');
    out.rateLimitShare = share;
  }
  const retry = v['retry_after_seconds'];
  if (retry !== undefined) {
    if (!isCount(retry)) return bad('retry_after_seconds', 'a non-negative whole number');
    out.retryAfterSeconds = retry;
  }
  const rate = v['rate_limit_per_window'];
  if (rate !== undefined) {
    if (rate === null) out.rateLimitWindow = null;
    else {
      const what = 'null or {requests, window_requests}: at most `requests` served of every `window_requests` consecutive requests (1 ≤ window_requests, requests < window_requests)';
      if (!isJsonObject(rate) || unknownKeys(rate, ['requests', 'window_requests'], '') !== undefined) return bad('rate_limit_per_window', what);
      const { requests, window_requests: span } = rate;
      if (!isCount(requests) || !isCount(span) || span < 1 || requests >= span) return bad('rate_limit_per_window', what);
      out.rateLimitWindow = { requests, window: span };
    }
  }
  for (const [wire, key] of [
    ['latency_ms', 'latencyMs'],
    ['latency_jitter_ms', 'latencyJitterMs'],
  ] as const) {
    const n = v[wire];
    if (n === undefined) continue;
    if (!isCount(n) || n > MAX_LATENCY_MS) return bad(wire, `a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}`);
    out[key] = n;
  }
  for (const [wire, key] of [
    ['error_share', 'errorShare'],
    ['reset_share', 'resetShare'],
    ['truncate_share', 'truncateShare'],
  ] as const) {
    const n = v[wire];
    if (n === undefined) continue;
    if (typeof n !== 'number' || !(n >= 0 && n <= 1)) return bad(wire, 'a number from 0 to 1');
    out[key] = n;
  }
  const faultPath = v['fault_path'];
  if (faultPath !== undefined) {
    if (faultPath !== null && (typeof faultPath !== 'string' || !faultPath.startsWith('/') || faultPath.length > 256)) return bad('fault_path', "null or a path prefix starting with '/'");
    out.faultPath = faultPath;
  }
  const byPath = v['latency_by_path'];
  if (byPath !== undefined) {
    const what = "an object of path prefix (starting with '/') to milliseconds";
    if (!isJsonObject(byPath)) return bad('latency_by_path', what);
    const entries = Object.entries(byPath);
    if (entries.length > 100) return bad('latency_by_path', `${what}, at most 100 of them`);
    const read: Record<string, number> = {};
    for (const [prefix, ms] of entries) {
      if (!prefix.startsWith('/') || prefix.length > 256) return bad(`latency_by_path.${prefix}`, "a path prefix starting with '/'");
      if (!isCount(ms) || ms > MAX_LATENCY_MS) return bad(`latency_by_path.${prefix}`, `a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}`);
      Object.defineProperty(read, prefix, { value: ms, enumerable: true, writable: true, configurable: true });
    }
    // An empty table is the shared default, so a project without route latency stays on the fast path.
    out.latencyByPath = entries.length === 0 ? NO_ADVERSITY.latencyByPath : read;
  }
  return { ok: true, value: out };
}

/**
 * A whole adversity as a snapshot holds it (the Adversity fields, src/store/project.ts) → checked with the
 * same limits as the wire form, so a restore cannot switch on what PUT /__sim/adversity would refuse
 * (a million updates per read would hang every list read). undefined when a field is out of bounds.
 */
export function readStoredAdversity(value: unknown): Adversity | undefined {
  if (!isJsonObject(value)) return undefined;
  const w = value['rateLimitWindow'];
  const parsed = parseAdversityPatch({
    consistency_window_ms: value['consistencyWindowMs'],
    consistency_stagger: value['consistencyStagger'],
    updates_per_read: value['updatesPerRead'],
    inserts_per_read: value['insertsPerRead'],
    deletes_per_read: value['deletesPerRead'],
    rate_limit_share: value['rateLimitShare'],
    retry_after_seconds: value['retryAfterSeconds'],
    rate_limit_per_window: isJsonObject(w) ? { requests: w['requests'], window_requests: w['window'] } : w,
    latency_ms: value['latencyMs'],
    latency_jitter_ms: value['latencyJitterMs'],
    error_share: value['errorShare'],
    reset_share: value['resetShare'],
    truncate_share: value['truncateShare'],
    fault_path: value['faultPath'],
    latency_by_path: value['latencyByPath'],
  });
  return parsed.ok ? { ...NO_ADVERSITY, ...parsed.value } : undefined;
}

/** The adversity in wire form (the admin API's answer). */
export function adversityView(a: Adversity): Record<string, unknown> {
  return {
    consistency_window_ms: a.consistencyWindowMs,
    consistency_stagger: a.consistencyStagger,
    updates_per_read: a.updatesPerRead,
    inserts_per_read: a.insertsPerRead,
    deletes_per_read: a.deletesPerRead,
    rate_limit_share: a.rateLimitShare,
    retry_after_seconds: a.retryAfterSeconds,
    rate_limit_per_window: a.rateLimitWindow === null ? null : { requests: a.rateLimitWindow.requests, window_requests: a.rateLimitWindow.window },
    latency_ms: a.latencyMs,
    latency_jitter_ms: a.latencyJitterMs,
    error_share: a.errorShare,
    reset_share: a.resetShare,
    truncate_share: a.truncateShare,
    fault_path: a.faultPath,
    latency_by_path: { ...a.latencyByPath },
  };
}
