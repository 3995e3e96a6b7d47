/**
 * `startSimulator()`: the simulator on a free loopback port in one call, with everything a test needs
 * (base URL, a ready token, the seeded ids, the admin operations) and cleanup that works with
 * `await using`. Options are checked: a typo or a bad value is a KitError (SIM_INVALID_OPTION), not a
 * silently different simulator.
 */
import { isDeviationId } from '../engine/deviations.js';
import { exceeds, MAX_CLIENT_ID_LENGTH } from '../engine/field-limits.js';
import { isJsonObject } from '../engine/json.js';
import { KitError } from '../kit-errors.js';
import { resolveDataset, type ResolvedDataset } from '../store/adversity-profiles.js';
import { isLoopback } from '../sim/clients.js';
import { withDataset } from '../sim/options.js';
import { randomCredentials } from '../sim/tokens.js';
import { readDatasetFields } from '../store/dataset-spec.js';
import { DatasetError } from '../store/dataset-error.js';
import { listen } from '../sim/server.js';
import { DEFAULT_CLIENT_ID, DEFAULT_SEED, Simulator, type SeededIds, type SimulatorOptions } from '../sim/simulator.js';
import { isSurface, SURFACES, type Surface } from '../sim/surface.js';
import type { Snapshot } from '../sim/snapshot.js';
import { readReadingChoice, type ReadingChoice } from '../rules/readings.js';

export class SimulatorOptionError extends KitError {
  override readonly name = 'SimulatorOptionError';
  readonly code = 'SIM_INVALID_OPTION' as const;
}

export class SimulatorAdminError extends KitError {
  override readonly name = 'SimulatorAdminError';
  readonly code = 'SIM_ADMIN_FAILED' as const;
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
  /** Documented rule ids to break on purpose (see `commerce-sim rules`). */
  readonly deviate?: readonly string[];
  /** `documented`: answer only what the API document states. Default `full`. */
  readonly surface?: Surface;
  /**
   * What to answer where the document is silent, other than the public API's readings:
   * `{ 'meta.position': 'top', 'timestamps.precision': 'us' }` (see `commerce-sim readings`).
   */
  readonly readings?: ReadingChoice;
  /** Client id of `token` (default `commerce-sim`). */
  readonly clientId?: string;
  /** `virtual` (default: fixed start, a step per write) or `wall`. */
  readonly clock?: 'virtual' | 'wall';
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

const KNOWN = ['port', 'host', 'allowAnyClient', 'seed', 'accounts', 'counts', 'dataset', 'deviate', 'surface', 'readings', 'clientId', 'clock'] as const;
const bad = (message: string): never => {
  throw new SimulatorOptionError(message);
};
const wholeIn = (name: string, v: unknown, max: number): number | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) bad(`${name} must be a whole number from 0 to ${max}, got ${JSON.stringify(v)}`);
  return v as number;
};

/** The options, checked member by member (plain JavaScript callers get the same checks as TypeScript ones). */
function check(options: unknown): StartSimulatorOptions {
  if (options === undefined) return {};
  if (!isJsonObject(options)) return bad('options must be an object');
  const unknown = Object.keys(options).find((k) => !(KNOWN as readonly string[]).includes(k));
  if (unknown !== undefined) bad(`unknown option '${unknown}' (known: ${KNOWN.join(', ')})`);
  const o = options as StartSimulatorOptions;
  wholeIn('port', o.port, 65_535);
  wholeIn('seed', o.seed, 0xffffffff);
  if (o.host !== undefined && (typeof o.host !== 'string' || o.host.length === 0)) bad('host must be a non-empty string');
  if (o.host !== undefined && !isLoopback(o.host) && o.allowAnyClient !== true) bad(`host ${o.host} is reachable from other machines: pass allowAnyClient: true to serve anyone there`);
  const fields = readDatasetFields({ ...(o.accounts === undefined ? {} : { accounts: o.accounts }), ...(o.counts === undefined ? {} : { counts: o.counts }) }, ['accounts', 'counts']);
  if (!fields.ok) bad(`${fields.path} ${fields.message}`);
  if (o.deviate !== undefined) {
    if (!Array.isArray(o.deviate)) bad('deviate must be an array of documented rule ids');
    const wrong = o.deviate.find((id) => typeof id !== 'string' || !isDeviationId(id));
    if (wrong !== undefined) bad(`deviate: '${String(wrong)}' is not a documented rule id (see \`commerce-sim rules\`)`);
  }
  if (o.surface !== undefined && (typeof o.surface !== 'string' || !isSurface(o.surface))) bad(`surface must be ${SURFACES.join(' or ')}`);
  if (o.readings !== undefined) {
    const read = readReadingChoice(o.readings, 'readings');
    if (!read.ok) bad(`${read.path} ${read.message}`);
  }
  if (o.clock !== undefined && o.clock !== 'virtual' && o.clock !== 'wall') bad("clock must be 'virtual' or 'wall'");
  if (o.clientId !== undefined && (typeof o.clientId !== 'string' || o.clientId.length === 0 || exceeds(o.clientId, MAX_CLIENT_ID_LENGTH)))
    bad(`clientId must be a non-empty string of at most ${MAX_CLIENT_ID_LENGTH} characters`);
  if (o.dataset !== undefined && typeof o.dataset !== 'string') bad('dataset must be a dataset name or a file path');
  return o;
}

export async function startSimulator(options?: StartSimulatorOptions): Promise<StartedSimulator> {
  const o = check(options);
  let dataset: ResolvedDataset | undefined;
  if (o.dataset !== undefined) {
    try {
      dataset = await resolveDataset(o.dataset, { cwd: process.cwd() });
    } catch (error) {
      if (error instanceof DatasetError) bad(`dataset: ${error.message}`);
      throw error;
    }
  }
  const clientId = o.clientId ?? DEFAULT_CLIENT_ID;
  const explicit: SimulatorOptions = {
    seed: o.seed ?? DEFAULT_SEED,
    ...(o.accounts === undefined ? {} : { accounts: o.accounts }),
    ...(o.counts === undefined ? {} : { counts: o.counts }),
    ...(o.deviate === undefined ? {} : { deviate: o.deviate }),
    ...(o.surface === undefined ? {} : { surface: o.surface }),
    ...(o.readings === undefined ? {} : { readings: o.readings }),
    clock: { mode: o.clock ?? 'virtual' },
    defaultClientId: clientId,
    // Real time only for the token's `expires` (and the clock in wall mode): the adapter's business.
    wallClock: () => Date.now(),
    // A server on a port: secrets nobody can derive from the seed.
    ...randomCredentials(),
  };
  const simulator = new Simulator(withDataset(explicit, dataset));
  const server = await listen(simulator, o.port ?? 0, o.host ?? '127.0.0.1');
  const token = simulator.issueToken(clientId, 'read-write');
  const admin = (method: string, url: string, body?: unknown) => {
    const res = simulator.handle({
      method,
      url,
      headers: { authorization: `Bearer ${simulator.adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? '' : JSON.stringify(body),
    });
    if (res.status !== 200) throw new SimulatorAdminError(`${method} ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
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
      admin('POST', '/__sim/reset');
    },
    snapshot: async () => admin('GET', '/__sim/snapshot') as Snapshot,
    restore: async (snapshot) => {
      admin('POST', '/__sim/restore', { ...snapshot, drop_projects: true });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
