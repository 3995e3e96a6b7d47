/**
 * `startSimulator()`: the simulator on a free loopback port in one call, with everything a test needs
 * (base URL, a ready token, the seeded ids, the admin operations) and cleanup that works with
 * `await using`. Options are checked: a typo or a bad value is a KitError (SIM_INVALID_OPTION), not a
 * silently different simulator.
 */
import { isJsonObject } from '../engine/json.js';
import { CodedKitError } from '../kit-errors.js';
import { MAX_PORT } from '../limits.js';
import { readingsOfFile, resolveDataset, type ResolvedDataset } from '../store/adversity-profiles.js';
import { isLoopback } from '../sim/clients.js';
import { readSimulatorSettings, recordBudgetProblem, simulatorOptionsOf, withDataset, type SimulatorSetting, type SimulatorSettings } from '../sim/options.js';
import { randomCredentials } from '../sim/tokens.js';
import { DatasetError } from '../store/dataset-error.js';
import { listen } from '../sim/server.js';
import { DEFAULT_CLIENT_ID, DEFAULT_SEED, Simulator, type SeededIds, type SimulatorOptions } from '../sim/simulator.js';
import type { Surface } from '../sim/surface.js';
import type { Snapshot } from '../sim/snapshot.js';
import type { ReadingChoice } from '../rules/readings.js';
import type { RuleId } from '../rules/ids.js';

export class SimulatorOptionError extends CodedKitError<'SIM_INVALID_OPTION'> {
  override readonly name = 'SimulatorOptionError';
}

export class SimulatorAdminError extends CodedKitError<'SIM_ADMIN_FAILED'> {
  override readonly name = 'SimulatorAdminError';
}

export interface StartSimulatorOptions {
  /** Default 0: a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. Another address needs `allowAnyClient` (anyone reaching it gets a token). */
  readonly host?: string;
  readonly allowAnyClient?: boolean;
  /** Seed of the data (default 42). */
  readonly seed?: number;
  /** Seeded accounts (default 120). */
  readonly accounts?: number;
  /** Seeded records of other collections: `{ orders: 500 }`. */
  readonly counts?: Readonly<Record<string, number>>;
  /** A named dataset (`shared-timestamps`, `hostile`, ...) or a JSON/YAML dataset file. */
  readonly dataset?: string;
  /**
   * Documented rule ids to break on purpose (see `commerce-sim rules`): typed, so a typo fails to compile;
   * checked at run time too (SIM_INVALID_OPTION), for JavaScript callers and ids of assumed rules.
   */
  readonly deviate?: readonly RuleId[];
  /** `documented`: answer only what the API document states. Default `full`. */
  readonly surface?: Surface;
  /**
   * What to answer where the document is silent, other than the public API's readings:
   * `{ 'meta.position': 'top', 'timestamps.precision': 'us' }` (see `commerce-sim readings`).
   */
  readonly readings?: ReadingChoice | string;
  /** Client id of `token` (default `commerce-sim`). */
  readonly clientId?: string;
  /** `virtual` (default: fixed start, a step per write) or `wall`. */
  readonly clock?: 'virtual' | 'wall';
  /**
   * Records the whole simulator may hold (seeded, written, and a share per project); past it writes answer
   * 422 and restores 413. Default: what this process's heap limit holds (about 2 KiB a record).
   */
  readonly maxRecords?: number;
}

export interface StartedSimulator {
  readonly baseUrl: string;
  /** A read-write bearer token of `clientId`. */
  readonly token: string;
  readonly adminToken: string;
  readonly clientId: string;
  /** The ids the create operation needs. */
  readonly ids: SeededIds;
  /** The simulator itself, for in-process calls (`simulator.handle(request)`). */
  readonly simulator: Simulator;
  /** Every project back to the seeded data; tokens stay valid. */
  reset(): Promise<void>;
  snapshot(): Promise<Snapshot>;
  restore(snapshot: Snapshot): Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const KNOWN = ['port', 'host', 'allowAnyClient', 'seed', 'accounts', 'counts', 'dataset', 'deviate', 'surface', 'readings', 'clientId', 'clock', 'maxRecords'] as const;
const SETTINGS: readonly SimulatorSetting[] = ['seed', 'accounts', 'counts', 'deviate', 'surface', 'readings', 'clientId', 'clock', 'maxRecords'];
const bad = (message: string): never => {
  throw new SimulatorOptionError('SIM_INVALID_OPTION', message);
};

/** The options, checked member by member (plain JavaScript callers get the same checks as TypeScript ones). */
function check(options: unknown): { readonly o: StartSimulatorOptions; readonly settings: SimulatorSettings } {
  if (options === undefined) return { o: {}, settings: {} };
  if (!isJsonObject(options)) return bad('options must be an object');
  const unknown = Object.keys(options).find((k) => !(KNOWN as readonly string[]).includes(k));
  if (unknown !== undefined) bad(`unknown option '${unknown}' (known: ${KNOWN.join(', ')})`);
  const o = options as StartSimulatorOptions;
  if (o.port !== undefined && (typeof o.port !== 'number' || !Number.isInteger(o.port) || o.port < 0 || o.port > MAX_PORT))
    bad(`port must be a whole number from 0 to ${MAX_PORT}, got ${JSON.stringify(o.port)}`);
  if (o.host !== undefined && (typeof o.host !== 'string' || o.host.length === 0)) bad('host must be a non-empty string');
  if (o.host !== undefined && !isLoopback(o.host) && o.allowAnyClient !== true) bad(`host ${o.host} is reachable from other machines: pass allowAnyClient: true to serve anyone there`);
  if (o.dataset !== undefined && typeof o.dataset !== 'string') bad('dataset must be a dataset name or a file path');
  const picked = Object.fromEntries(Object.entries(options).filter(([k]) => (SETTINGS as readonly string[]).includes(k)));
  const read = readSimulatorSettings(picked, SETTINGS);
  if (!read.ok) bad(`${read.path} ${read.message}`);
  return { o, settings: read.ok ? read.value : {} };
}

/** A readings file (readings.json beside a run's report; a dataset file, read by the one dataset reader): its readings only. */
async function readingsFile(file: string): Promise<ReadingChoice> {
  try {
    return await readingsOfFile(file, { cwd: process.cwd() });
  } catch (error) {
    if (error instanceof DatasetError) return bad(`readings: ${error.message}`);
    throw error;
  }
}

export async function startSimulator(options?: StartSimulatorOptions): Promise<StartedSimulator> {
  const { o, settings } = check(typeof options?.readings === 'string' ? { ...options, readings: await readingsFile(options.readings) } : options);
  let dataset: ResolvedDataset | undefined;
  if (o.dataset !== undefined) {
    try {
      dataset = await resolveDataset(o.dataset, { cwd: process.cwd() });
    } catch (error) {
      if (error instanceof DatasetError) bad(`dataset: ${error.message}`);
      throw error;
    }
  }
  const clientId = settings.clientId ?? DEFAULT_CLIENT_ID;
  const explicit: SimulatorOptions = {
    ...simulatorOptionsOf({ seed: DEFAULT_SEED, clock: 'virtual', clientId, ...settings }),
    // Real time only for the token's `expires` (and the clock in wall mode): the adapter's business.
    wallClock: () => Date.now(),
    // A server on a port: secrets nobody can derive from the seed.
    ...randomCredentials(),
  };
  const resolved = withDataset(explicit, dataset);
  const budget = recordBudgetProblem(resolved);
  if (budget !== undefined) bad(`${budget.path} ${budget.message}`);
  const simulator = new Simulator(resolved);
  const server = await listen(simulator, o.port ?? 0, o.host ?? '127.0.0.1');
  const token = simulator.issueToken(clientId, 'read-write');
  const admin = async (method: string, url: string, body?: unknown) => {
    const handled = simulator.handle({
      method,
      url,
      headers: { authorization: `Bearer ${simulator.adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? '' : JSON.stringify(body),
    });
    // Served, a restore runs in slices between requests: its answer (and the data restored) comes when it is done.
    const res = handled.deferred === undefined ? handled : await handled.deferred;
    if (res.status !== 200) throw new SimulatorAdminError('SIM_ADMIN_FAILED', `${method} ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as unknown;
  };
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= server.close());
  return {
    baseUrl: server.baseUrl,
    token,
    adminToken: simulator.adminToken,
    clientId,
    ids: simulator.seededIds(),
    simulator,
    reset: async () => {
      await admin('POST', '/__sim/reset');
    },
    snapshot: async () => (await admin('GET', '/__sim/snapshot')) as Snapshot,
    restore: async (snapshot) => {
      await admin('POST', '/__sim/restore', { ...snapshot, drop_projects: true });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
