/** The in-process simulator as a Target: no socket, the same handler the HTTP server calls. */
import { TargetError } from '../port.js';
import { DEFAULT_CLOCK_START } from '../store/clock.js';
import { DEFAULT_CLIENT_ID, Simulator, type SimulatorOptions } from '../sim/simulator.js';
import { DEFAULT_BASE_URL, withDataset } from '../sim/options.js';
import type { DatasetProfile } from '../store/datasets.js';
import type { Adversity } from '../store/project.js';
import { resolveDataset } from '../store/adversity-profiles.js';
import type { Surface } from '../sim/surface.js';
import type { ReadingChoice } from '../rules/readings.js';
import type { Target, TargetRequest, TargetResponse } from '../port.js';
import type { RuleId } from '../rules/ids.js';

export interface SimTargetOptions {
  readonly seed?: number;
  readonly deviate?: readonly RuleId[];
  /** `documented`: the simulator answers only what the API document states. */
  readonly surface?: Surface;
  /** What the simulator answers where the document is silent (rules/readings.ts). */
  readonly readings?: ReadingChoice;
  readonly accounts?: number;
  readonly counts?: Readonly<Record<string, number>>;
  readonly dataset?: string;
  /** Directory a relative dataset file is read from (default: the process's). */
  readonly cwd?: string;
  readonly adversity?: Partial<Adversity>;
  readonly baseUrl?: string;
  readonly clientId?: string;
  /** The time the token's `expires` is counted from (default: the virtual clock's fixed start). */
  readonly wallClock?: () => number;
}

export const SIM_BASE_URL = DEFAULT_BASE_URL;

function simulatorOptions(options: SimTargetOptions): SimulatorOptions {
  const profile: DatasetProfile | undefined = options.dataset === 'shared-timestamps' ? 'shared-timestamps' : options.dataset === 'default' ? 'default' : undefined;
  return {
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.deviate === undefined ? {} : { deviate: options.deviate }),
    ...(options.surface === undefined ? {} : { surface: options.surface }),
    ...(options.readings === undefined ? {} : { readings: options.readings }),
    ...(options.accounts === undefined ? {} : { accounts: options.accounts }),
    ...(options.counts === undefined ? {} : { counts: options.counts }),
    ...(profile === undefined ? {} : { profile }),
    ...(options.adversity === undefined ? {} : { adversity: options.adversity }),
    baseUrl: options.baseUrl ?? SIM_BASE_URL,
    // In process nothing compares `expires` with a real clock, so it is pinned: same seed, same bytes.
    wallClock: options.wallClock ?? (() => DEFAULT_CLOCK_START),
  };
}

/** Wrap an existing simulator (tests that also poke the store). */
export function simTargetOf(sim: Simulator, clientId = DEFAULT_CLIENT_ID): Target & { readonly sim: Simulator } {
  const token = sim.issueToken(clientId, 'read-write');
  const ids = sim.seededIds();
  const vars = { ...ids, admin_token: sim.adminToken, client_id: clientId, base_url: sim.baseUrl };
  return {
    kind: 'sim',
    sim,
    get baseUrl() {
      return sim.baseUrl;
    },
    vars,
    send(request: TargetRequest): Promise<TargetResponse> {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(request.headers ?? {})) headers[k.toLowerCase()] = v;
      if (request.auth !== 'none' && headers['authorization'] === undefined) headers['authorization'] = `Bearer ${token}`;
      const response = sim.handle({ method: request.method, url: request.url, headers, body: request.body ?? '' });
      // An injected reset or truncation is what an HTTP client sees as a transport error; latency takes no time here.
      const cut = response.transport?.cut;
      if (cut !== undefined)
        return Promise.reject(new TargetError('TARGET_UNREACHABLE', `${request.method} ${request.url}: connection ${cut === 'reset' ? 'reset' : 'closed mid-answer'} (injected fault)`));
      return Promise.resolve({ status: response.status, headers: response.headers, body: response.body });
    },
    close: () => Promise.resolve(),
  };
}

/** `dataset` names a profile of src/store/adversity-profiles.ts (or a file); explicit options win over it. */
export async function createSimTarget(options: SimTargetOptions = {}): Promise<Target & { readonly sim: Simulator }> {
  const dataset = options.dataset === undefined ? undefined : await resolveDataset(options.dataset, options.cwd === undefined ? {} : { cwd: options.cwd });
  const sim = new Simulator(withDataset(simulatorOptions(options), dataset));
  return simTargetOf(sim, options.clientId ?? DEFAULT_CLIENT_ID);
}
