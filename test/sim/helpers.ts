import { expect } from 'vitest';
/** A simulator with a fixed wall clock, a read-write token, and small helpers to call it and read JSON. */
import { DEFAULT_CLIENT_ID, Simulator, type SeededIds, type SimulatorOptions } from '../../src/sim/simulator.js';
import type { SimResponse } from '../../src/sim/messages.js';

/** The "real time" the tests hand to the simulator: only the token's `expires` may depend on it. */
export const FIXED_NOW = Date.UTC(2025, 5, 1, 12, 0, 0);

export interface Reply extends SimResponse {
  /** The parsed body, or undefined when it is empty or not JSON. */
  readonly json: unknown;
}

interface CallOptions {
  /** A string is sent as is; anything else as JSON. */
  readonly body?: unknown;
  /** `null`: no Authorization header; a string: that token instead of the harness's. */
  readonly token?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Harness {
  readonly sim: Simulator;
  readonly token: string;
  readonly ids: SeededIds;
  call(method: string, url: string, options?: CallOptions): Reply;
  get(url: string, options?: CallOptions): Reply;
  post(url: string, body: unknown, options?: CallOptions): Reply;
  put(url: string, body: unknown, options?: CallOptions): Reply;
  del(url: string, options?: CallOptions): Reply;
  /** The admin API with the admin token. */
  admin(method: string, url: string, body?: unknown): Reply;
}

export function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function harness(options: Partial<SimulatorOptions> = {}, clientId = DEFAULT_CLIENT_ID): Harness {
  const sim = new Simulator({ seed: 42, wallClock: () => FIXED_NOW, ...options });
  const token = sim.issueToken(clientId, 'read-write');
  const call = (method: string, url: string, o: CallOptions = {}): Reply => {
    const headers: Record<string, string> = {};
    if (o.token !== null) headers['authorization'] = `Bearer ${o.token ?? token}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    for (const [k, v] of Object.entries(o.headers ?? {})) headers[k.toLowerCase()] = v;
    const body = o.body === undefined ? '' : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    const res = sim.handle({ method, url, headers, body });
    return { ...res, json: parseJson(res.body) };
  };
  return {
    sim,
    token,
    ids: sim.seededIds(),
    call,
    get: (url, o) => call('GET', url, o),
    post: (url, body, o) => call('POST', url, { ...o, body }),
    put: (url, body, o) => call('PUT', url, { ...o, body }),
    del: (url, o) => call('DELETE', url, o),
    admin: (method, url, body) => call(method, url, { token: sim.adminToken, ...(body === undefined ? {} : { body }) }),
  };
}

/** Value at a dotted path (`meta.page.limit`, `data.0.id`), or undefined. */
export function at(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const key of path.split('.')) {
    if (Array.isArray(cur)) cur = cur[Number(key)];
    else if (typeof cur === 'object' && cur !== null) cur = (cur as Record<string, unknown>)[key];
    else return undefined;
  }
  return cur;
}

export function str(value: unknown, path: string): string {
  const v = at(value, path);
  if (typeof v !== 'string') throw new Error(`expected a string at ${path}, got ${JSON.stringify(v)}`);
  return v;
}

export function num(value: unknown, path: string): number {
  const v = at(value, path);
  if (typeof v !== 'number') throw new Error(`expected a number at ${path}, got ${JSON.stringify(v)}`);
  return v;
}

/** The `data` array of a list reply, as objects. */
export function items(reply: Reply): Record<string, unknown>[] {
  const data = at(reply.json, 'data');
  if (!Array.isArray(data)) throw new Error(`expected a data array, got ${reply.status} ${reply.body.slice(0, 200)}`);
  return data.map((d: unknown) => {
    if (typeof d !== 'object' || d === null || Array.isArray(d)) throw new Error('expected objects in data');
    return d as Record<string, unknown>;
  });
}

export const ids = (reply: Reply): string[] => items(reply).map((d) => str(d, 'id'));

/** The query parameters of a link, as a map (links are compared parsed, never as strings). */
export function linkParams(link: unknown): Map<string, string> | null {
  if (link === null) return null;
  if (typeof link !== 'string') throw new Error(`expected a link, got ${JSON.stringify(link)}`);
  return new Map(new URL(link).searchParams);
}

export function expectErrorShape(reply: Reply, status: number): void {
  expect(reply.status, reply.body.slice(0, 300)).toBe(status);
  expect(reply.headers['content-type'] ?? '').toMatch(/^application\/json/);
  const first = at(reply.json, 'errors.0');
  expect(first, reply.body).toBeTypeOf('object');
  expect([status, String(status)]).toContain(at(first, 'status'));
  expect(at(first, 'title')).toBeTypeOf('string');
}

/** The create path of the seeded realm and user-authentication-info. */
export function profilePath(ids: SeededIds): string {
  return `/v2/authentication-realms/${ids.realm_id}/user-authentication-info/${ids.user_authentication_info_id}/user-authentication-password-profile-info`;
}

export function profileBody(ids: SeededIds, overrides: Record<string, unknown> = {}): { data: Record<string, unknown> } {
  return {
    data: {
      type: 'user_authentication_password_profile_info',
      password_profile_id: ids.password_profile_id,
      username: 'jane.doe@example.com',
      password: 'correct-horse-9',
      ...overrides,
    },
  };
}
