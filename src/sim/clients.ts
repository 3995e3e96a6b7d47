/**
 * Registered client credentials (`serve --clients FILE`): with a registry, the token endpoint answers
 * 401 to an unknown client id, a wrong secret or a grant the client may not use, as the real API does.
 * Without one (the default on loopback) any client id gets a token: its own project.
 */
import type { Result } from '../result.js';
import { timingSafeEqual, createHash } from 'node:crypto';
import { exceeds, MAX_CLIENT_ID_LENGTH, MAX_SECRET_LENGTH } from '../engine/field-limits.js';
import { isJsonObject, PROTOTYPE_KEYS } from '../engine/json.js';
import type { Scope } from './tokens.js';

export interface RegisteredClient {
  readonly secret: string;
  /** read-write: the client_credentials grant; read-only: the implicit grant. */
  readonly scopes: readonly Scope[];
}

export type ClientRegistry = ReadonlyMap<string, RegisteredClient>;

export type ClientsReading = Result<ClientRegistry>;

const SCOPES: readonly Scope[] = ['read-write', 'read-only'];
const MIN_SECRET_LENGTH = 16;

/** `{"clients": [{"client_id", "client_secret", "scopes": ["read-write", "read-only"]}]}`; scopes default to both. */
export function readClients(value: unknown): ClientsReading {
  const bad = (path: string, message: string): ClientsReading => ({ ok: false, path, message });
  if (!isJsonObject(value) || !Array.isArray(value['clients'])) return bad('clients', 'must be a list of {client_id, client_secret, scopes}');
  const out = new Map<string, RegisteredClient>();
  for (const [i, entry] of (value['clients'] as unknown[]).entries()) {
    const path = `clients.${i}`;
    if (!isJsonObject(entry)) return bad(path, 'must be an object');
    const id = entry['client_id'];
    const secret = entry['client_secret'];
    const scopes = entry['scopes'] ?? SCOPES;
    if (typeof id !== 'string' || id.length === 0 || exceeds(id, MAX_CLIENT_ID_LENGTH) || PROTOTYPE_KEYS.has(id))
      return bad(`${path}.client_id`, `must be a non-empty string of at most ${MAX_CLIENT_ID_LENGTH} characters, and not __proto__, constructor or prototype`);
    if (out.has(id)) return bad(`${path}.client_id`, `duplicates ${id}`);
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || exceeds(secret, MAX_SECRET_LENGTH))
      return bad(`${path}.client_secret`, `must be a string of ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters`);
    if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((s) => SCOPES.some((known) => known === s))) return bad(`${path}.scopes`, `must list some of ${SCOPES.join(', ')}`);
    out.set(id, { secret, scopes: scopes as Scope[] });
  }
  if (out.size === 0) return bad('clients', 'must register at least one client');
  return { ok: true, value: out };
}

/** Whether the registry lets this client have a token of this scope (the secret is checked for read-write). */
export function admits(registry: ClientRegistry, clientId: string, secret: string | undefined, scope: Scope): boolean {
  const client = registry.get(clientId);
  if (client === undefined || !client.scopes.includes(scope)) return false;
  if (scope === 'read-only') return true;
  // Equal-length digests, so the comparison takes the same time whatever the guess.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return secret !== undefined && timingSafeEqual(digest(secret), digest(client.secret));
}

/** Addresses only this machine can reach: the open mode (any client id gets a token) is safe there. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}
