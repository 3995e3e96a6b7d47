/**
 * Bearer tokens (API-NOTES.md "Token endpoint"), derived from a key, the client id and a counter. In
 * process the key is the seed, so runs and fixtures are byte-identical; a served simulator gets a random
 * key (`serve`), so nobody who knows the seed can guess a token or the admin token. Each client id is its
 * own project. Tokens stay valid for the simulator's life; `expires` is real time because clients compare
 * it with their own clock.
 */
import { createHash } from 'node:crypto';

export type Scope = 'read-write' | 'read-only';

export interface Grant {
  readonly clientId: string;
  readonly scope: Scope;
}

export class TokenStore {
  private readonly grants = new Map<string, Grant>();
  private issued = 0;

  /** `key`: the seed's text in process (reproducible), random bytes in a served simulator. */
  constructor(private readonly key: string) {}

  issue(clientId: string, scope: Scope): string {
    this.issued += 1;
    const token = createHash('sha256').update(`${this.key}\u0000${clientId}\u0000${scope}\u0000${this.issued}`).digest('hex').slice(0, 40);
    this.grants.set(token, { clientId, scope });
    return token;
  }

  lookup(token: string): Grant | undefined {
    return this.grants.get(token);
  }
}

/** The admin token: one per simulator, derived from the token key, never valid under /v2. */
export function adminTokenFor(key: string): string {
  return `sim-admin-${createHash('sha256').update(`admin\u0000${key}`).digest('hex').slice(0, 32)}`;
}

/** `Authorization: Bearer <token>` → token; undefined when absent or of another scheme. */
export function bearer(headers: Readonly<Record<string, string>>): string | undefined {
  const value = headers['authorization'];
  if (value === undefined) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}
