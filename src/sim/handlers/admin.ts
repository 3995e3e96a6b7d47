/**
 * The admin API under /__sim/ (never under /v2), guarded by the admin token: reset, seed, clock,
 * snapshot/restore, the operator-only soft offset limit, and the adversarial behaviours.
 * Per-project operations name the project with `?client_id=` (default: the simulator's own client id).
 */
import type { Result } from '../../result.js';
import { apiError } from '../../engine/api-errors.js';
import { isCount, isJsonObject } from '../../engine/json.js';
import { MAX_TIME_MS } from '../../store/clock.js';
import { MAX_RECORDS } from '../../store/datasets.js';
import { ADVERSITY_PROFILE_NAMES, adversityPreset, adversityView, parseAdversityPatch } from '../../store/adversity-profiles.js';
import { NO_ADVERSITY } from '../../store/project.js';
import type { Handler } from '../context.js';
import { errors, json, parseJsonBody } from '../respond.js';

type Body = Record<string, unknown>;

function objectBody(text: string): Result<Body, { response: ReturnType<typeof errors> }> {
  if (text.trim().length === 0) return { ok: true, value: {} };
  const parsed = parseJsonBody(text);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  if (!isJsonObject(v)) return { ok: false, response: errors([apiError('bad-request', 'The body must be a JSON object')]) };
  return { ok: true, value: Object.fromEntries(Object.entries(v)) };
}

const bad = (detail: string) => errors([apiError('bad-request', detail)]);

const state: Handler = (ctx) => json(200, { data: ctx.admin.describe() });

const reset: Handler = (ctx) => {
  ctx.admin.reset();
  return json(200, { data: ctx.admin.describe() });
};

const seed: Handler = (ctx) => {
  const body = objectBody(ctx.req.body);
  if (!body.ok) return body.response;
  return ctx.admin.reseed(body.value) ?? json(200, { data: ctx.admin.describe() });
};

const clock: Handler = (ctx) => {
  const body = objectBody(ctx.req.body);
  if (!body.ok) return body.response;
  const ms = body.value['advance_ms'];
  if (!isCount(ms)) return bad('advance_ms must be a non-negative whole number of milliseconds');
  if (ms > MAX_TIME_MS - ctx.project.clock.now()) return bad('advance_ms must not move the clock past 9999-12-31T23:59:59.999Z');
  const now = ctx.project.clock.advance(ms);
  return json(200, { data: { client_id: ctx.project.options.clientId, now: new Date(now).toISOString() } });
};

const settings: Handler = (ctx) => {
  const body = objectBody(ctx.req.body);
  if (!body.ok) return body.response;
  const limit = body.value['page_offset_limit'];
  // Past the most records a collection may hold, an offset limit means nothing; 1e300 is not a setting.
  if (!isCount(limit) || limit < 1 || limit > MAX_RECORDS) return errors([apiError('bad-request', `page_offset_limit must be a whole number from 1 to ${MAX_RECORDS}`, 'page_offset_limit')]);
  ctx.project.settings.page_offset_limit = limit;
  return json(200, { data: { client_id: ctx.project.options.clientId, ...ctx.project.settings } });
};

const adversityState: Handler = (ctx) => json(200, { data: { client_id: ctx.project.options.clientId, ...adversityView(ctx.project.adversity) } });

/**
 * How a body applies to the project's adversity: `replace` (PUT) starts from no adversity, so a field not
 * given returns to its default and the body is the whole state; `merge` (PATCH) starts from what the
 * project has now, so a body changes only what it names.
 */
type AdversityWrite = 'replace' | 'merge';

/**
 * Switch §4.3's traps on and off (src/store/adversity-profiles.ts holds the wire names and their checks).
 * `preset: NAME` first sets every field to a named profile's (`hostile`, `rate-limited`, ...; its
 * dataset shape is POST /__sim/seed's business); the other fields of the body then apply on top.
 */
const adversity =
  (how: AdversityWrite): Handler =>
  (ctx) => {
    const body = objectBody(ctx.req.body);
    if (!body.ok) return body.response;
    const { preset, ...fields } = body.value;
    const base = preset === undefined ? undefined : typeof preset === 'string' ? adversityPreset(preset) : undefined;
    if (preset !== undefined && base === undefined) return bad(`preset must be one of ${ADVERSITY_PROFILE_NAMES.join(', ')}`);
    const patch = parseAdversityPatch(fields);
    if (!patch.ok) return bad(patch.message);
    // Checked whole before anything changes: a refused body leaves the adversity as it was.
    const start = base ?? (how === 'replace' ? NO_ADVERSITY : {});
    Object.assign(ctx.project.adversity, start, patch.value);
    return json(200, { data: { client_id: ctx.project.options.clientId, ...adversityView(ctx.project.adversity) } });
  };

/** The journal, filtered by method, path prefix, status, client_id, since (a sequence number) and limit. */
const requests: Handler = (ctx) => {
  const q = ctx.query;
  const one = (name: string): string | undefined => {
    const v = q.one(name);
    return v.ok ? v.value : undefined;
  };
  const count = (name: string): number | undefined | 'bad' => {
    const text = one(name);
    if (text === undefined) return undefined;
    return /^\d{1,9}$/.test(text) ? Number(text) : 'bad';
  };
  const status = count('status');
  const since = count('since');
  const limit = count('limit');
  for (const [name, v] of [
    ['status', status],
    ['since', since],
    ['limit', limit],
  ] as const)
    if (v === 'bad') return errors([apiError('bad-request', `${name} must be a whole number`, name)]);
  const method = one('method');
  const path = one('path');
  const clientId = one('client');
  return json(
    200,
    ctx.admin.requests({
      ...(method === undefined ? {} : { method }),
      ...(path === undefined ? {} : { path }),
      ...(typeof status === 'number' ? { status } : {}),
      ...(clientId === undefined ? {} : { clientId }),
      ...(typeof since === 'number' ? { since } : {}),
      ...(typeof limit === 'number' ? { limit } : {}),
    }),
  );
};

const snapshot: Handler = (ctx) => json(200, ctx.admin.snapshot());

const restore: Handler = (ctx) => ctx.admin.restore(ctx.req.raw ?? ctx.req.body) ?? json(200, { data: ctx.admin.describe() });

export const adminRoutes: readonly (readonly [string, string, Handler])[] = [
  ['GET', '/__sim/state', state],
  ['POST', '/__sim/reset', reset],
  ['POST', '/__sim/seed', seed],
  ['POST', '/__sim/clock', clock],
  ['PUT', '/__sim/settings', settings],
  ['GET', '/__sim/adversity', adversityState],
  ['PUT', '/__sim/adversity', adversity('replace')],
  ['PATCH', '/__sim/adversity', adversity('merge')],
  ['GET', '/__sim/requests', requests],
  ['GET', '/__sim/snapshot', snapshot],
  ['POST', '/__sim/restore', restore],
];
