/**
 * user-authentication-password-profile-info (commerce-api.md §2.1, §4.1, §9; docs/api-notes.md "The password
 * profile record"): create, list, get, update, delete. The password is hashed and never returned.
 */
import { UPDATE_LOST_MS, visibleDelete } from './deviant-writes.js';
import type { RuleId } from '../../rules/ids.js';
import { duplicateUsername, validateCreate, validateUpdate, PROFILE_INFO_TYPE, PROFILE_INFO_TYPE_HYPHEN } from '../../engine/password-profile-validation.js';
import { apiError } from '../../engine/api-errors.js';
import { isJsonMediaType } from '../../media-types.js';
import { deviates } from '../../engine/deviations.js';
import { shownInstant, shownInstantMs } from '../../engine/instants.js';
import type { Collection, SimRecord } from '../../store/collection.js';
import { hashPassword } from '../../store/credentials.js';
import { passwordProfileInfo } from '../../store/resources.js';
import type { Handler, RequestContext } from '../context.js';
import { error, errors, json, noContent, parseJsonBody, projectFull } from '../respond.js';
import type { SimResponse } from '../messages.js';
import { servePage } from './lists.js';

function collectionOf(ctx: RequestContext): Collection | undefined {
  const { realm, uai } = ctx.params;
  return realm !== undefined && uai !== undefined ? ctx.project.passwordProfileInfos(ctx.play.storedId(realm), ctx.play.storedId(uai)) : undefined;
}

/** The record the path's id names (in either letter case under `ids.case=upper`). */
const recordOf = (ctx: RequestContext, coll: Collection | undefined): SimRecord | undefined => coll?.get(ctx.play.storedId(ctx.params['id'] ?? ''));

/** The id as the deployment shows it (`ids.case`). */
const shownId = (ctx: RequestContext, id: string): string => ctx.play.ids(passwordProfileInfo).shown(id);

/** §2.1: `{base_url}/authentication-realms/.../user-authentication-password-profile-info/<id>`, no /v2; the parents' ids as the request named them. */
function selfPath(ctx: RequestContext, id: string, withV2: boolean): string {
  const { realm = '', uai = '' } = ctx.params;
  return `${ctx.baseUrl}${withV2 ? '/v2' : ''}/authentication-realms/${realm}/user-authentication-info/${uai}/user-authentication-password-profile-info/${id === '' ? '' : shownId(ctx, id)}`;
}

function view(ctx: RequestContext, record: SimRecord): Record<string, unknown> {
  return {
    id: shownId(ctx, record.id),
    type: PROFILE_INFO_TYPE,
    username: record.attrs['username'] ?? null,
    password_profile_id: record.attrs['password_profile_id'] ?? null,
    meta: { created_at: shownInstant(record.createdMs, ctx.play.readings['timestamps.precision']), updated_at: shownInstant(record.updatedMs, ctx.play.readings['timestamps.precision']) },
    links: { self: selfPath(ctx, record.id, false) },
  };
}

const notFound = (): SimResponse => error('not-found', 'Resource not found');

/** `create.media-type=strict`: a body not said to be JSON is refused before it is read. */
const unsupportedMediaType = (ctx: RequestContext): SimResponse | undefined =>
  ctx.play.create.mediaType === 'strict' && !isJsonMediaType(ctx.req.headers['content-type'])
    ? errors([apiError('unsupported-media-type', 'Send the body as application/json', 'Content-Type')])
    : undefined;

/** The username held by another record of the collection, refused as `usernames` says (undefined: fine). */
function taken(ctx: RequestContext, coll: Collection, username: string | undefined, self?: string): SimResponse | undefined {
  if (username === undefined || ctx.play.create.usernames === 'repeat') return undefined;
  // One pass over the records under one user-authentication-info: a few, or at most the project's record budget.
  for (const r of coll.values())
    if (r.id !== self && r.attrs['username'] === username) {
      const refusal = duplicateUsername(ctx.play.create, username);
      return refusal === undefined ? undefined : errors([refusal]);
    }
  return undefined;
}

export const createProfileInfo: Handler = (ctx) => {
  if (ctx.trailingSlash && deviates(ctx.deviations, 'create.path.trailing-slash')) return notFound();
  const coll = collectionOf(ctx);
  if (coll === undefined) return notFound();
  const media = unsupportedMediaType(ctx);
  if (media !== undefined) return media;
  const body = parseJsonBody(ctx.req.body);
  if (!body.ok) return body.response;
  const valid = validateCreate(body.value, ctx.deviations, ctx.play.create);
  if (!valid.ok) return errors(valid.errors);
  const duplicate = taken(ctx, coll, valid.value.username);
  if (duplicate !== undefined) return duplicate;
  const full = ctx.project.full;
  if (full !== undefined) return projectFull(full);
  const now = ctx.project.clock.tick();
  const record: SimRecord = {
    id: ctx.project.random.uuid(),
    createdMs: now,
    updatedMs: now,
    attrs: { username: valid.value.username, password_profile_id: valid.value.password_profile_id },
    credential: hashPassword(valid.value.password, ctx.project.random),
  };
  coll.insert(record);
  return json(deviates(ctx.deviations, 'create.status.201') ? 200 : 201, { data: createView(ctx, record, valid.value.password), links: { self: createSelf(ctx, record.id) } });
};

/** Store milliseconds that move the shown instant by at least one millisecond (engine/instants.ts). */
const ONE_SHOWN_MS = { ms: 1, s: 1000, us: 1000, ns: 1_000_000 } as const;

/** The create response, with the documented rules' deviations applied. */
function createView(ctx: RequestContext, record: SimRecord, password: string): Record<string, unknown> {
  const d = (id: RuleId) => deviates(ctx.deviations, id);
  // §2.1: milliseconds and a Z, whatever precision the deployment keeps (the same instant, cut).
  const precision = ctx.play.readings['timestamps.precision'];
  const created = shownInstantMs(record.createdMs, precision);
  const createdAt = d('create.timestamps.format') ? created.replace(/\.\d{3}Z$/, 'Z') : created;
  const updatedAt = d('create.timestamps.equal') ? shownInstantMs(record.createdMs + ONE_SHOWN_MS[precision], precision) : createdAt;
  return {
    id: shownId(ctx, record.id),
    type: d('create.type.underscore-echo') ? PROFILE_INFO_TYPE_HYPHEN : PROFILE_INFO_TYPE,
    ...(d('create.response.fields') ? {} : { username: record.attrs['username'] }),
    password_profile_id: record.attrs['password_profile_id'] ?? null,
    ...(d('create.password.not-returned') ? { password } : {}),
    meta: { created_at: createdAt, updated_at: updatedAt },
  };
}

function createSelf(ctx: RequestContext, id: string): string {
  return selfPath(ctx, id, deviates(ctx.deviations, 'create.links.self'));
}

export const listProfileInfo: Handler = (ctx) => {
  const coll = collectionOf(ctx);
  if (coll === undefined) return notFound();
  return servePage(ctx, { resource: passwordProfileInfo, collection: coll, selfPrefix: selfPath(ctx, '', true) });
};

export const getProfileInfo: Handler = (ctx) => {
  const record = recordOf(ctx, collectionOf(ctx));
  return record === undefined ? notFound() : json(200, { data: view(ctx, record) });
};

export const updateProfileInfo: Handler = (ctx) => {
  const coll = collectionOf(ctx);
  const record = recordOf(ctx, coll);
  if (coll === undefined || record === undefined) return notFound();
  const body = parseJsonBody(ctx.req.body);
  if (!body.ok) return body.response;
  const valid = validateUpdate(body.value, ctx.deviations, ctx.play.create);
  if (!valid.ok) return errors(valid.errors);
  const { username, password_profile_id, password } = valid.value;
  const duplicate = taken(ctx, coll, username, record.id);
  if (duplicate !== undefined) return duplicate;
  // A new password's hash is as long as the old one: only the fields can make the record weigh more.
  const after = {
    id: record.id,
    attrs: { ...record.attrs, ...(username === undefined ? {} : { username }), ...(password_profile_id === undefined ? {} : { password_profile_id }) },
    credential: record.credential,
  };
  const full = ctx.project.refusal(coll, record, after);
  if (full !== undefined) return projectFull(full);
  const now = ctx.project.clock.tick();
  const updated = coll.update(record, (r) => {
    if (username !== undefined) r.attrs['username'] = username;
    if (password_profile_id !== undefined) r.attrs['password_profile_id'] = password_profile_id;
    if (password !== undefined) r.credential = hashPassword(password, ctx.project.random);
    // The deviation moves updated_at behind any walk's position: a record not yet seen is lost.
    r.updatedMs = deviates(ctx.deviations, 'large-data.updates-during-traversal') ? UPDATE_LOST_MS : now;
  });
  return json(200, { data: view(ctx, updated) });
};

export const deleteProfileInfo: Handler = (ctx) => {
  const coll = collectionOf(ctx);
  const record = recordOf(ctx, coll);
  if (coll === undefined || record === undefined) return notFound();
  const { id } = record;
  const full = ctx.project.refusal(coll, record);
  if (full !== undefined) return projectFull(full);
  // The deviation keeps the record listed with a new updated_at: an updated_at sync sees the delete.
  if (deviates(ctx.deviations, 'large-data.deletes-invisible')) visibleDelete(ctx, coll, id);
  else coll.remove(id);
  return noContent();
};
