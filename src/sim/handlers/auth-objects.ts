/** Authentication realms and their user-authentication-info, readable so a client can discover the seeded ids. */
import { realms, userAuthenticationInfo } from '../../store/resources.js';
import type { Handler } from '../context.js';
import { error, jsonText } from '../respond.js';
import { recordJson } from '../serialize.js';
import { servePage } from './lists.js';

export const listRealms: Handler = (ctx) => servePage(ctx, { resource: realms, collection: ctx.project.realms, selfPrefix: `${ctx.baseUrl}/v2/authentication-realms/` });

export const getRealm: Handler = (ctx) => {
  const record = ctx.project.realms.get(ctx.play.storedId(ctx.params['realm'] ?? ''));
  if (record === undefined) return error('not-found', 'Resource not found');
  const shape = ctx.play.shape(realms);
  return jsonText(200, `{"data":${recordJson(record, realms, `${ctx.baseUrl}/v2/authentication-realms/${shape.ids.shown(record.id)}`, shape)}}`);
};

export const listUserAuthenticationInfo: Handler = (ctx) => {
  const realm = ctx.params['realm'] ?? '';
  const coll = ctx.project.userAuthenticationInfo(ctx.play.storedId(realm));
  if (coll === undefined) return error('not-found', 'Resource not found');
  return servePage(ctx, { resource: userAuthenticationInfo, collection: coll, selfPrefix: `${ctx.baseUrl}/v2/authentication-realms/${realm}/user-authentication-info/` });
};

export const getUserAuthenticationInfo: Handler = (ctx) => {
  const realm = ctx.params['realm'] ?? '';
  const record = ctx.project.userAuthenticationInfo(ctx.play.storedId(realm))?.get(ctx.play.storedId(ctx.params['uai'] ?? ''));
  if (record === undefined) return error('not-found', 'Resource not found');
  const shape = ctx.play.shape(userAuthenticationInfo);
  return jsonText(200, `{"data":${recordJson(record, userAuthenticationInfo, `${ctx.baseUrl}/v2/authentication-realms/${realm}/user-authentication-info/${shape.ids.shown(record.id)}`, shape)}}`);
};
