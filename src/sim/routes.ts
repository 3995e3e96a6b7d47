/**
 * The routing table: every route the simulator serves, in one place. List routes come from the
 * resource table (store/resources.ts); everything else is listed here by hand.
 */
import { deviates, type Deviations } from '../engine/deviations.js';
import { listResources } from '../store/resources.js';
import type { Handler } from './context.js';
import { Router } from './router.js';
import { servePage } from './handlers/lists.js';
import { createProfileInfo, deleteProfileInfo, getProfileInfo, listProfileInfo, updateProfileInfo } from './handlers/profile-info.js';
import { createAccount, deleteAccount, getAccount, updateAccount } from './handlers/accounts.js';
import { getSettings, putSettings } from './handlers/settings.js';
import { getRealm, getUserAuthenticationInfo, listRealms, listUserAuthenticationInfo } from './handlers/auth-objects.js';
import { adminRoutes } from './handlers/admin.js';

export interface RouteSpec {
  readonly handler: Handler;
  readonly auth: 'bearer' | 'admin';
  /** Writes need a read-write token (§5, API-NOTES.md "Token endpoint"). */
  readonly write: boolean;
  /** The create operation (the one route §5 names as requiring the header). */
  readonly createsProfileInfo?: boolean;
}

const PROFILE_INFO = '/v2/authentication-realms/:realm/user-authentication-info/:uai/user-authentication-password-profile-info';

export function buildRouter(deviations: Deviations): Router<RouteSpec> {
  const router = new Router<RouteSpec>();
  const read = (handler: Handler): RouteSpec => ({ handler, auth: 'bearer', write: false });
  const write = (handler: Handler): RouteSpec => ({ handler, auth: 'bearer', write: true });

  router.add('POST', PROFILE_INFO, { ...write(createProfileInfo), createsProfileInfo: true });
  router.add('GET', PROFILE_INFO, read(listProfileInfo));
  router.add('GET', `${PROFILE_INFO}/:id`, read(getProfileInfo));
  router.add('PUT', `${PROFILE_INFO}/:id`, write(updateProfileInfo));
  router.add('DELETE', `${PROFILE_INFO}/:id`, write(deleteProfileInfo));

  router.add('GET', '/v2/authentication-realms', read(listRealms));
  router.add('GET', '/v2/authentication-realms/:realm', read(getRealm));
  router.add('GET', '/v2/authentication-realms/:realm/user-authentication-info', read(listUserAuthenticationInfo));
  router.add('GET', '/v2/authentication-realms/:realm/user-authentication-info/:uai', read(getUserAuthenticationInfo));

  router.add('GET', '/v2/settings', read(getSettings));
  router.add('PUT', '/v2/settings', write(putSettings));

  router.add('POST', '/v2/accounts', write(createAccount));
  router.add('GET', '/v2/accounts/:id', read(getAccount));
  router.add('PUT', '/v2/accounts/:id', write(updateAccount));
  router.add('DELETE', '/v2/accounts/:id', write(deleteAccount));

  for (const resource of listResources) {
    for (const template of resource.paths) {
      // §9 deviation: one documented /v2 path moved off /v2.
      const path = template === '/v2/files' && deviates(deviations, 'versioning.v2-prefix') ? '/files' : template;
      router.add('GET', path, read((ctx) => servePage(ctx, { resource, collection: ctx.project.list(resource), selfPrefix: `${ctx.baseUrl}${ctx.path}/` })));
    }
  }

  for (const [method, path, handler] of adminRoutes) router.add(method, path, { handler, auth: 'admin', write: false });
  return router;
}
