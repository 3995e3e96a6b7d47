/**
 * The routing table: every route the simulator serves, in one place. List routes come from the
 * resource table (store/resources.ts); everything else is listed here by hand.
 */
import { deviates, type Deviations } from '../engine/deviations.js';
import { accounts, listResources, passwordProfileInfo, realms, userAuthenticationInfo, type ResourceDef } from '../store/resources.js';
import type { Handler } from './context.js';
import { tokenEndpoint, type TokenIssuer } from './handlers/token.js';
import type { SimRequest, SimResponse } from './messages.js';
import { Router } from './router.js';
import { servePage } from './handlers/lists.js';
import { createProfileInfo, deleteProfileInfo, getProfileInfo, listProfileInfo, updateProfileInfo } from './handlers/profile-info.js';
import { createAccount, deleteAccount, getAccount, updateAccount } from './handlers/accounts.js';
import { getSettings, putSettings } from './handlers/settings.js';
import { getRealm, getUserAuthenticationInfo, listRealms, listUserAuthenticationInfo } from './handlers/auth-objects.js';
import { adminRoutes } from './handlers/admin.js';

/** What a route does, so the OpenAPI document (src/sim/openapi.ts) is generated from this table. */
type RouteOp = 'list' | 'create' | 'get' | 'update' | 'delete' | 'settings' | 'admin';

/** The token endpoint: no bearer token, no project; it issues tokens (docs/api-notes.md "Token endpoint"). */
interface TokenRouteSpec {
  readonly op: 'token';
  readonly auth: 'none';
  readonly serve: (req: SimRequest, issuer: TokenIssuer) => SimResponse;
}

export type RouteSpec = ApiRouteSpec | TokenRouteSpec;

export interface ApiRouteSpec {
  readonly handler: Handler;
  readonly op: RouteOp;
  /** The resource a list/create/get/update/delete route serves. */
  readonly resource?: ResourceDef;
  readonly auth: 'bearer' | 'admin';
  /** Writes need a read-write token (§5, docs/api-notes.md "Token endpoint"). */
  readonly write: boolean;
  /** The create operation (the one route §5 names as requiring the header). */
  readonly createsProfileInfo?: boolean;
}

const PROFILE_INFO = '/v2/authentication-realms/:realm/user-authentication-info/:uai/user-authentication-password-profile-info';

export function buildRouter(deviations: Deviations): Router<RouteSpec> {
  const router = new Router<RouteSpec>();
  router.add('POST', '/oauth/access_token', { op: 'token', auth: 'none', serve: tokenEndpoint });
  const read = (handler: Handler, op: RouteOp, resource?: ResourceDef): ApiRouteSpec => ({ handler, op, ...(resource ? { resource } : {}), auth: 'bearer', write: false });
  const write = (handler: Handler, op: RouteOp, resource?: ResourceDef): ApiRouteSpec => ({ handler, op, ...(resource ? { resource } : {}), auth: 'bearer', write: true });

  router.add('POST', PROFILE_INFO, { ...write(createProfileInfo, 'create', passwordProfileInfo), createsProfileInfo: true });
  router.add('GET', PROFILE_INFO, read(listProfileInfo, 'list', passwordProfileInfo));
  router.add('GET', `${PROFILE_INFO}/:id`, read(getProfileInfo, 'get', passwordProfileInfo));
  router.add('PUT', `${PROFILE_INFO}/:id`, write(updateProfileInfo, 'update', passwordProfileInfo));
  router.add('DELETE', `${PROFILE_INFO}/:id`, write(deleteProfileInfo, 'delete', passwordProfileInfo));

  router.add('GET', '/v2/authentication-realms', read(listRealms, 'list', realms));
  router.add('GET', '/v2/authentication-realms/:realm', read(getRealm, 'get', realms));
  router.add('GET', '/v2/authentication-realms/:realm/user-authentication-info', read(listUserAuthenticationInfo, 'list', userAuthenticationInfo));
  router.add('GET', '/v2/authentication-realms/:realm/user-authentication-info/:uai', read(getUserAuthenticationInfo, 'get', userAuthenticationInfo));

  router.add('GET', '/v2/settings', read(getSettings, 'settings'));
  router.add('PUT', '/v2/settings', write(putSettings, 'settings'));

  router.add('POST', '/v2/accounts', write(createAccount, 'create', accounts));
  router.add('GET', '/v2/accounts/:id', read(getAccount, 'get', accounts));
  router.add('PUT', '/v2/accounts/:id', write(updateAccount, 'update', accounts));
  router.add('DELETE', '/v2/accounts/:id', write(deleteAccount, 'delete', accounts));

  for (const resource of listResources) {
    for (const template of resource.paths) {
      // §9 deviation: one documented /v2 path moved off /v2.
      const path = template === '/v2/files' && deviates(deviations, 'versioning.v2-prefix') ? '/files' : template;
      router.add(
        'GET',
        path,
        read((ctx) => servePage(ctx, { resource, collection: ctx.project.list(resource), selfPrefix: `${ctx.baseUrl}${ctx.path}/` }), 'list', resource),
      );
    }
  }

  for (const [method, path, handler] of adminRoutes) router.add(method, path, { handler, op: 'admin', auth: 'admin', write: false });
  return router;
}
