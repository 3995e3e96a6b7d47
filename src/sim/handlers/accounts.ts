/**
 * Account writes (docs/api-notes.md "Accounts"): create, get, update, delete, so that inserts, updates and
 * deletes during a traversal (commerce-api.md §4.3) can be produced on purpose.
 */
import type { Result } from '../../result.js';
import { UPDATE_LOST_MS, visibleDelete } from './deviant-writes.js';
import { deviates } from '../../engine/deviations.js';
import { apiError, type ApiError } from '../../engine/api-errors.js';
import { exceeds, MAX_TEXT_LENGTH } from '../../engine/field-limits.js';
import type { SimRecord } from '../../store/collection.js';
import { accounts } from '../../store/resources.js';
import type { Handler, RequestContext } from '../context.js';
import { error, errors, isJsonObject, jsonText, noContent, parseJsonBody, projectFull } from '../respond.js';
import { recordJson } from '../serialize.js';

const FIELDS = ['name', 'legal_name', 'registration_id', 'external_ref'] as const;

const selfUrl = (ctx: RequestContext, id: string) => `${ctx.baseUrl}/v2/accounts/${ctx.play.ids(accounts).shown(id)}`;
const one = (ctx: RequestContext, r: SimRecord, status: number) => jsonText(status, `{"data":${recordJson(r, accounts, selfUrl(ctx, r.id), ctx.play.shape(accounts))}}`);
/** The stored id of the path's account id, as the deployment shows ids (rules/readings.ts `ids.format`). */
const storedId = (ctx: RequestContext): string => ctx.play.ids(accounts).stored(ctx.params['id'] ?? '') ?? '';

function readAccount(body: unknown, requireName: boolean): Result<Partial<Record<(typeof FIELDS)[number], string>>, { errors: ApiError[] }> {
  const fields = isJsonObject(body) ? body['data'] : undefined;
  if (!isJsonObject(fields)) return { ok: false, errors: [apiError('bad-request', "The request body must be a JSON object with a 'data' object", 'data')] };
  if (fields['type'] !== 'account') return { ok: false, errors: [apiError('bad-request', "Validation failed: field 'Type' on the 'eq' tag.", 'data.type')] };
  const out: Partial<Record<(typeof FIELDS)[number], string>> = {};
  const problems: ApiError[] = [];
  for (const f of FIELDS) {
    const v = fields[f];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length === 0) problems.push(apiError('bad-request', `Validation failed: field '${f}' must be a non-empty string.`, `data.${f}`));
    else if (exceeds(v, MAX_TEXT_LENGTH)) problems.push(apiError('bad-request', `Validation failed: field '${f}' on the 'max' tag (at most ${MAX_TEXT_LENGTH} characters).`, `data.${f}`));
    else out[f] = v;
  }
  if (requireName && out.name === undefined) problems.push(apiError('bad-request', "Validation failed: field 'Name' on the 'required' tag.", 'data.name'));
  return problems.length > 0 ? { ok: false, errors: problems } : { ok: true, value: out };
}

export const createAccount: Handler = (ctx) => {
  const body = parseJsonBody(ctx.req.body);
  if (!body.ok) return body.response;
  const valid = readAccount(body.value, true);
  if (!valid.ok) return errors(valid.errors);
  const full = ctx.project.full;
  if (full !== undefined) return projectFull(full);
  const now = ctx.project.clock.tick();
  const { name = '', legal_name = name, registration_id = null, external_ref = null } = valid.value;
  const record: SimRecord = { id: ctx.project.random.uuid(), createdMs: now, updatedMs: now, attrs: { name, legal_name, registration_id, external_ref } };
  ctx.project.list(accounts).insert(record);
  return one(ctx, record, 201);
};

export const getAccount: Handler = (ctx) => {
  const record = ctx.project.list(accounts).get(storedId(ctx));
  return record === undefined ? error('not-found', 'Resource not found') : one(ctx, record, 200);
};

export const updateAccount: Handler = (ctx) => {
  const coll = ctx.project.list(accounts);
  const record = coll.get(storedId(ctx));
  if (record === undefined) return error('not-found', 'Resource not found');
  const body = parseJsonBody(ctx.req.body);
  if (!body.ok) return body.response;
  const valid = readAccount(body.value, false);
  if (!valid.ok) return errors(valid.errors);
  const full = ctx.project.refusal(coll, record, { id: record.id, attrs: { ...record.attrs, ...valid.value } });
  if (full !== undefined) return projectFull(full);
  const now = ctx.project.clock.tick();
  const updated = coll.update(record, (r) => {
    for (const [k, v] of Object.entries(valid.value)) r.attrs[k] = v;
    // The deviation moves updated_at behind any walk's position: a record not yet seen is lost.
    r.updatedMs = deviates(ctx.deviations, 'large-data.updates-during-traversal') ? UPDATE_LOST_MS : now;
  });
  return one(ctx, updated, 200);
};

export const deleteAccount: Handler = (ctx) => {
  const coll = ctx.project.list(accounts);
  const id = storedId(ctx);
  const record = coll.get(id);
  if (record === undefined) return error('not-found', 'Resource not found');
  const full = ctx.project.refusal(coll, record);
  if (full !== undefined) return projectFull(full);
  // The deviation keeps the record listed with a new updated_at: an updated_at sync sees the delete.
  if (deviates(ctx.deviations, 'large-data.deletes-invisible')) visibleDelete(ctx, coll, id);
  else coll.remove(id);
  return noContent();
};
