/**
 * Bearer tokens (docs/api-notes.md "Token endpoint"), derived from a key, the client id and a counter. In
 * process the key is the seed, so runs and fixtures are byte-identical; a served simulator gets a random
 * key (`serve`), so nobody who knows the seed can guess a token or the admin token. Each client id is its
 * own project. A token lives LIFETIME_SECONDS of wall time (`expires_in`; in process the wall clock is
 * pinned, so it never runs out), and each client id holds at most MAX_TOKENS_PER_CLIENT: a client that
 * asks for tokens in a loop pushes out its own oldest, never another client's.
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
/** Live tokens one client id holds at most; past it that client's own oldest is forgotten, never another's. */
export const MAX_TOKENS_PER_CLIENT = 100;
/** Client ids holding tokens at most (as many as projects, by default); past it the one that asked least recently loses its tokens. */
const DEFAULT_MAX_TOKEN_CLIENTS = 1000;

/**
 * Live tokens by client id. Each client's tokens form their own queue, so a client asking for tokens
 * in a loop pushes out only its own oldest; the table holds at most MAX_TOKENS_PER_CLIENT × maxClients.
 */
export class TokenStore {
  private readonly grants = new Map<string, Grant>();
  /** Each client id's live tokens, oldest first; the Map's order is that of the clients' latest issue. */
  private readonly byClient = new Map<string, string[]>();
  private issued = 0;

  /** `key`: the seed's text in process (reproducible), random bytes in a served simulator. */
  constructor(
    private readonly key: string,
    private readonly maxClients = DEFAULT_MAX_TOKEN_CLIENTS,
  ) {}

  issue(clientId: string, scope: Scope, nowMs: number): string {
    this.issued += 1;
    const token = createHash('sha256').update(`${this.key}\u0000${clientId}\u0000${scope}\u0000${this.issued}`).digest('hex').slice(0, 40);
    let own = this.byClient.get(clientId);
    if (own === undefined) own = [];
    else this.byClient.delete(clientId); // re-inserted below: the most recent asker goes last
    this.byClient.set(clientId, own);
    // Expired tokens first (all live as long, so they lead the queue), then the client's own oldest.
    while (own.length > 0 && ((this.grants.get(own[0] as string)?.expiresAt ?? 0) <= nowMs || own.length >= MAX_TOKENS_PER_CLIENT)) this.grants.delete(own.shift() as string);
    own.push(token);
    this.grants.set(token, { clientId, scope, expiresAt: nowMs + LIFETIME_SECONDS * 1000 });
    if (this.byClient.size > this.maxClients) this.forgetClient(this.byClient.keys().next().value as string);
    return token;
  }

  lookup(token: string, nowMs: number): Grant | undefined {
    const grant = this.grants.get(token);
    if (grant === undefined || nowMs < grant.expiresAt) return grant;
    this.grants.delete(token);
    const own = this.byClient.get(grant.clientId);
    const at = own?.indexOf(token) ?? -1;
    if (own !== undefined && at >= 0) own.splice(at, 1);
    if (own !== undefined && own.length === 0) this.byClient.delete(grant.clientId);
    return undefined;
  }

  get size(): number {
    return this.grants.size;
  }

  private forgetClient(clientId: string): void {
    for (const token of this.byClient.get(clientId) ?? []) this.grants.delete(token);
    this.byClient.delete(clientId);
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
