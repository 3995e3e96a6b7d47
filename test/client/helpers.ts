/** An in-process simulator built from a dataset profile, its ground truth, and targets that misbehave on purpose. */
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { resolveDataset } from '../../src/store/adversity-profiles.js';
import type { SimRecord } from '../../src/store/collection.js';
import type { Project } from '../../src/store/project.js';
import { accounts } from '../../src/store/resources.js';
import { simTargetOf } from '../../src/adapters/simulator.js';
import type { Target, TargetResponse } from '../../src/port.js';

export const FIXED_NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
export const noSleep = (): Promise<void> => Promise.resolve();

export interface SimSetup {
  readonly sim: Simulator;
  readonly target: Target;
  readonly project: Project;
  /** The simulator's virtual clock: the client's `now` for the consistency buffer. */
  readonly now: () => number;
  /** Calls the admin API (adversity, clock) with the admin token. */
  admin(method: string, url: string, body?: unknown): TargetResponse;
}

export async function simFor(profile: string, options: { seed: number; accounts?: number }): Promise<SimSetup> {
  const dataset = await resolveDataset(profile);
  const sim = new Simulator({
    seed: options.seed,
    profile: dataset.profile,
    ...(dataset.burst === undefined ? {} : { burst: dataset.burst }),
    counts: { ...(dataset.counts ?? {}), ...(options.accounts === undefined ? {} : { accounts: options.accounts }) },
    adversity: dataset.adversity,
    wallClock: () => FIXED_NOW,
  });
  const project = sim.project(DEFAULT_CLIENT_ID);
  const admin = (method: string, url: string, body?: unknown) =>
    sim.handle({ method, url, headers: { authorization: `Bearer ${sim.adminToken}`, 'content-type': 'application/json' }, body: body === undefined ? '' : JSON.stringify(body) });
  return { sim, target: simTargetOf(sim), project, now: () => project.clock.now(), admin };
}

/** The accounts a list read would show now (ground truth from the store, with the consistency window applied). */
export function visibleAccounts(project: Project): Map<string, SimRecord> {
  const visible = project.visibility();
  const out = new Map<string, SimRecord>();
  for (const r of project.list(accounts).values()) if (visible === undefined || visible(r)) out.set(r.id, r);
  return out;
}

/** Switch every adversity off but the consistency window (which only time cures). */
export function calm(setup: SimSetup): void {
  const res = setup.admin('PATCH', '/__sim/adversity', {
    updates_per_read: 0,
    inserts_per_read: 0,
    deletes_per_read: 0,
    rate_limit_share: 0,
    rate_limit_per_window: null,
  });
  if (res.status !== 200) throw new Error(`PATCH /__sim/adversity answered ${res.status}`);
}

/** Move the virtual clock past the consistency window, so every record is visible. */
export function passWindow(setup: SimSetup): void {
  const res = setup.admin('POST', '/__sim/clock', { advance_ms: setup.project.adversity.consistencyWindowMs + 1 });
  if (res.status !== 200) throw new Error(`POST /__sim/clock answered ${res.status}`);
}

/** A target that, after every list read of /v2/accounts, sends one more request (an insert, a delete). */
export function between(target: Target, after: (read: number) => Promise<void>): Target {
  let reads = 0;
  return {
    ...target,
    kind: target.kind,
    baseUrl: target.baseUrl,
    vars: target.vars,
    async send(request) {
      const response = await target.send(request);
      if (request.method === 'GET' && request.url.startsWith('/v2/accounts?') && response.status === 200) {
        reads += 1;
        await after(reads);
      }
      return response;
    },
    close: () => target.close(),
  };
}

export function insertAccount(target: Target, name: string): Promise<TargetResponse> {
  return target.send({ method: 'POST', url: '/v2/accounts', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { type: 'account', name } }) });
}

/** Ids of a list answer's data (the tests' own minimal reading). */
export function idsOf(body: string): string[] {
  const parsed: unknown = JSON.parse(body);
  const data = typeof parsed === 'object' && parsed !== null && 'data' in parsed && Array.isArray(parsed.data) ? parsed.data : [];
  return data.map((item: unknown) => (typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'string' ? item.id : ''));
}

/** `data.id` of a create answer. */
export function createdId(body: string): string {
  const parsed: unknown = JSON.parse(body);
  const data = typeof parsed === 'object' && parsed !== null && 'data' in parsed ? parsed.data : undefined;
  if (typeof data !== 'object' || data === null || !('id' in data) || typeof data.id !== 'string') throw new Error(`no data.id in ${body.slice(0, 80)}`);
  return data.id;
}
