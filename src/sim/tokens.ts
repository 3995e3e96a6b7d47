/**
 * Bearer tokens (docs/api-notes.md "Token endpoint"), derived from a key, the client id and a counter. In
 * process the key is the seed, so runs and fixtures are byte-identical; a served simulator gets a random
 * key (`serve`), so nobody who knows the seed can guess a token or the admin token. Each client id is its
 * own project. A token lives LIFETIME_SECONDS of wall time (`expires_in`; in process the wall clock is
 * pinned, so it never runs out), and the table holds at most MAX_TOKENS: a client that asks for tokens in a
 * loop cannot grow it without bound.
 */
import { createHash, randomBytes } from 'node:crypto';

export type Scope = 'read-write' | 'read-only';

export interface Grant {
  readonly clientId: string;
  readonly scope: Scope;
  /** Wall-clock milliseconds after which the token is refused. */
  readonly expiresAt: number;
}

/** `expires_in` of the token endpoint (docs/api-notes.md: 3600). */
export const LIFETIME_SECONDS = 3600;
/** Live tokens kept at most; past it the oldest is forgotten (its client re-authenticates, as after expiry). */
export const MAX_TOKENS = 10_000;

export class TokenStore {
  private readonly grants = new Map<string, Grant>();
  private issued = 0;

  /** `key`: the seed's text in process (reproducible), random bytes in a served simulator. */
  constructor(private readonly key: string) {}

  issue(clientId: string, scope: Scope, nowMs: number): string {
    this.issued += 1;
    const token = createHash('sha256').update(`${this.key}\u0000${clientId}\u0000${scope}\u0000${this.issued}`).digest('hex').slice(0, 40);
    if (this.grants.size >= MAX_TOKENS) this.evict(nowMs);
    this.grants.set(token, { clientId, scope, expiresAt: nowMs + LIFETIME_SECONDS * 1000 });
    return token;
  }

  lookup(token: string, nowMs: number): Grant | undefined {
    const grant = this.grants.get(token);
    if (grant === undefined || nowMs < grant.expiresAt) return grant;
    this.grants.delete(token);
    return undefined;
  }

  get size(): number {
    return this.grants.size;
  }

  /**
   * Every token lives as long, so the oldest (a Map iterates in insertion order) expire first: drop the
   * expired ones from the front, and if none has expired, the oldest.
   */
  private evict(nowMs: number): void {
    for (const [token, grant] of this.grants) {
      if (grant.expiresAt > nowMs) break;
      this.grants.delete(token);
    }
    if (this.grants.size < MAX_TOKENS) return;
    const oldest = this.grants.keys().next();
    if (oldest.done !== true) this.grants.delete(oldest.value);
  }
}

/** The admin token: one per simulator, derived from the token key, never valid under /v2. */
export function adminTokenFor(key: string): string {
  return `sim-admin-${createHash('sha256').update(`admin\u0000${key}`).digest('hex').slice(0, 32)}`;
}

/** Secrets of a simulator on a port: nobody can derive them from the seed. */
export function randomCredentials(): { tokenKey: string; adminToken: string } {
  return { tokenKey: randomBytes(32).toString('hex'), adminToken: `sim-admin-${randomBytes(16).toString('hex')}` };
}

/** `Authorization: Bearer <token>` → token; undefined when absent or of another scheme. */
export function bearer(headers: Readonly<Record<string, string>>): string | undefined {
  const value = headers['authorization'];
  if (value === undefined) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}
