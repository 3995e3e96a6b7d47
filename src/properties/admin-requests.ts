/**
 * The simulator's admin API (under /__sim/, never /v2) as the properties use it: reseeding data,
 * moving the virtual clock, the operator's soft offset limit, and putting the data back between
 * properties so each starts from the state a fresh simulator has (and a replay finds the same).
 */
import { CodedKitError } from '../kit-errors.js';
import { at, isObject } from '../rules/inspect.js';
import { accounts as accountsResource } from '../store/resources.js';
import { parseJsonOrUndefined, type Target, type TargetRequest, type TargetResponse } from '../port.js';
import type { AdminAccess, PropertyEnv, SeedBody } from './env.js';

const adminHeaders = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** An admin request (the caller sends it, through a Trial when the oracle should see it). */
export function adminRequest(token: string, method: string, path: string, body?: unknown): TargetRequest {
  return { method, url: path, headers: adminHeaders(token), ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
}

/** The admin access of a property marked `admin` (the runner only runs it when there is one). */
export function requireAdmin(env: PropertyEnv): AdminAccess {
  if (env.admin === undefined) throw new AdminError('PROPS_ADMIN_FAILED', 'this property needs the admin API (admin_token)');
  return env.admin;
}

export class AdminError extends CodedKitError<'PROPS_ADMIN_FAILED'> {
  override readonly name = 'AdminError';
}

async function call(target: Target, token: string, method: string, path: string, body?: unknown): Promise<TargetResponse> {
  const res = await target.send(adminRequest(token, method, path, body));
  if (res.status !== 200) throw new AdminError('PROPS_ADMIN_FAILED', `${method} ${path} answered ${res.status}: ${res.body.slice(0, 200)}`);
  return res;
}

/** The simulator's own default burst of the shared-timestamps profile (src/sim/simulator.ts). */
const DEFAULT_BURST = 150;

/**
 * The data options the simulator started with, read once before any property changes them, as the
 * seed body that restores them. Reseeding replaces the options given and keeps the others, so every
 * option is named, defaults included.
 */
export async function readBaseline(target: Target, token: string): Promise<SeedBody> {
  const state = await call(target, token, 'GET', '/__sim/state');
  const snapshot = await call(target, token, 'GET', '/__sim/snapshot');
  const seed = at(parseJsonOrUndefined(state.body), 'data', 'seed');
  const options = at(parseJsonOrUndefined(snapshot.body), 'options');
  const accounts = at(options, 'accounts');
  const counts = at(options, 'counts');
  const profile = at(options, 'profile');
  const burst = at(options, 'burst');
  const countsOut: Record<string, number> = {};
  if (isObject(counts)) for (const [k, v] of Object.entries(counts)) if (typeof v === 'number') countsOut[k] = v;
  return {
    ...(typeof seed === 'number' ? { seed } : {}),
    accounts: typeof accounts === 'number' ? accounts : accountsResource.defaultCount,
    counts: countsOut,
    profile: profile === 'shared-timestamps' ? 'shared-timestamps' : 'default',
    burst: typeof burst === 'number' ? burst : DEFAULT_BURST,
  };
}

/** Every project back to a fresh state of the baseline data (settings, clock and writes forgotten). */
export async function restoreBaseline(target: Target, token: string, baseline: SeedBody): Promise<void> {
  await call(target, token, 'POST', '/__sim/seed', baseline);
}

/** The seed body of a data set on top of the baseline's other options. */
export const seedWith = (baseline: SeedBody, changes: SeedBody): SeedBody => ({ ...baseline, ...changes });
