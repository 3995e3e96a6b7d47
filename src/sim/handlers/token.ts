/**
 * POST /oauth/access_token (docs/api-notes.md "Token endpoint"): client credentials give a read-write token,
 * implicit a read-only one. Form-encoded as the SDK sends it; a JSON body is accepted too.
 */
import type { Result } from '../../result.js';
import { bodyShapeProblem, exceeds, MAX_CLIENT_ID_LENGTH, MAX_SECRET_LENGTH } from '../../engine/field-limits.js';
import { admits } from '../clients.js';
import type { ClientRegistry } from '../clients.js';
import { PROTOTYPE_KEYS } from '../../engine/json.js';
import { error, isJsonObject, json } from '../respond.js';
import { LIFETIME_SECONDS, type Scope } from '../tokens.js';
import type { SimRequest, SimResponse } from '../messages.js';

/** The request's fields, or a 400's detail when a JSON body is past the shape limits (measured before any parse). */
function formOrJson(req: SimRequest): Result<Map<string, string>, { detail: string }> {
  const out = new Map<string, string>();
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) {
    const problem = bodyShapeProblem(req.body);
    if (problem !== undefined) return { ok: false, detail: problem };
    try {
      const value: unknown = JSON.parse(req.body);
      if (isJsonObject(value)) {
        for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out.set(k, v);
      }
    } catch {
      // fall through: treated as an empty form, answered 400 below
    }
    return { ok: true, value: out };
  }
  for (const [k, v] of new URLSearchParams(req.body)) out.set(k, v);
  return { ok: true, value: out };
}

/** What the token endpoint needs of the simulator. */
export interface TokenIssuer {
  readonly clients: ClientRegistry | undefined;
  issueToken(clientId: string, scope: Scope): string;
  now(): number;
}

export function tokenEndpoint(req: SimRequest, sim: TokenIssuer): SimResponse {
  const fields = formOrJson(req);
  if (!fields.ok) return error('bad-request', fields.detail);
  const form = fields.value;
  const grant = form.get('grant_type');
  const clientId = form.get('client_id') ?? '';
  if (clientId.length === 0) return error('bad-request', 'client_id is required');
  if (exceeds(clientId, MAX_CLIENT_ID_LENGTH)) return error('bad-request', `client_id must be at most ${MAX_CLIENT_ID_LENGTH} characters`);
  // A client id names a project, and snapshots refuse these names: refused here, where it would enter.
  if (PROTOTYPE_KEYS.has(clientId)) return error('bad-request', 'client_id must not be __proto__, constructor or prototype');
  if (exceeds(form.get('client_secret') ?? '', MAX_SECRET_LENGTH)) return error('bad-request', `client_secret must be at most ${MAX_SECRET_LENGTH} characters`);
  let scope: 'read-write' | 'read-only';
  if (grant === 'client_credentials') {
    if ((form.get('client_secret') ?? '').length === 0) return error('unauthorized', 'client_secret is required for the client_credentials grant');
    scope = 'read-write';
  } else if (grant === 'implicit') {
    scope = 'read-only';
  } else {
    return error('bad-request', "grant_type must be 'client_credentials' or 'implicit'");
  }
  const registry = sim.clients;
  if (registry !== undefined && !admits(registry, clientId, form.get('client_secret'), scope)) {
    return error('unauthorized', 'Unknown client, wrong secret, or a grant this client may not use');
  }
  const token = sim.issueToken(clientId, scope);
  return json(200, {
    access_token: token,
    token_type: 'Bearer',
    expires: Math.floor(sim.now() / 1000) + LIFETIME_SECONDS,
    expires_in: LIFETIME_SECONDS,
    identifier: grant,
  });
}
