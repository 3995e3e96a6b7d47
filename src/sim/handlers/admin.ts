/**
 * The admin API under /__sim/ (never under /v2), guarded by the admin token: reset, seed, clock,
 * snapshot/restore, the operator-only soft offset limit, and the adversarial behaviours.
 * Per-project operations name the project with `?client_id=` (default: the simulator's own client id).
 */
import { apiError } from '../../engine/errors.js';
import type { Handler } from '../context.js';
import { errors, json, parseBody } from '../respond.js';

type Body = Record<string, unknown>;

function objectBody(text: string): { ok: true; value: Body } | { ok: false; response: ReturnType<typeof errors> } {
  if (text.trim().length === 0) return { ok: true, value: {} };
  const parsed = parseBody(text);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, response: errors([apiError('bad-request', 'The body must be a JSON object')]) };
  return { ok: true, value: Object.fromEntries(Object.entries(v)) };
}

const bad = (detail: string) => errors([apiError('bad-request', detail)]);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

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
  const now = ctx.project.clock.advance(ms);
  return json(200, { data: { client_id: ctx.project.options.clientId, now: new Date(now).toISOString() } });
};

const settings: Handler = (ctx) => {
  const body = objectBody(ctx.req.body);
  if (!body.ok) return body.response;
  const limit = body.value['page_offset_limit'];
  if (!isCount(limit) || limit < 1) return bad('page_offset_limit must be a positive whole number');
  ctx.project.settings.page_offset_limit = limit;
  return json(200, { data: { client_id: ctx.project.options.clientId, ...ctx.project.settings } });
};

const adversity: Handler = (ctx) => {
  const body = objectBody(ctx.req.body);
  if (!body.ok) return body.response;
  const a = ctx.project.adversity;
  const v = body.value;
  const window = v['consistency_window_ms'];
  const updates = v['updates_per_read'];
  const share = v['rate_limit_share'];
  const retry = v['retry_after_seconds'];
  if (window !== undefined && !isCount(window)) return bad('consistency_window_ms must be a non-negative whole number');
  if (updates !== undefined && !isCount(updates)) return bad('updates_per_read must be a non-negative whole number');
  if (share !== undefined && (typeof share !== 'number' || share < 0 || share > 1)) return bad('rate_limit_share must be a number from 0 to 1');
  if (retry !== undefined && !isCount(retry)) return bad('retry_after_seconds must be a non-negative whole number');
  if (isCount(window)) a.consistencyWindowMs = window;
  if (isCount(updates)) a.updatesPerRead = updates;
  if (typeof share === 'number') a.rateLimitShare = share;
  if (isCount(retry)) a.retryAfterSeconds = retry;
  return json(200, { data: { client_id: ctx.project.options.clientId, consistency_window_ms: a.consistencyWindowMs, updates_per_read: a.updatesPerRead, rate_limit_share: a.rateLimitShare, retry_after_seconds: a.retryAfterSeconds } });
};

const snapshot: Handler = (ctx) => json(200, ctx.admin.snapshot());

const restore: Handler = (ctx) => {
  const body = parseBody(ctx.req.body);
  if (!body.ok) return body.response;
  return ctx.admin.restore(body.value) ?? json(200, { data: ctx.admin.describe() });
};

export const adminRoutes: readonly (readonly [string, string, Handler])[] = [
  ['GET', '/__sim/state', state],
  ['POST', '/__sim/reset', reset],
  ['POST', '/__sim/seed', seed],
  ['POST', '/__sim/clock', clock],
  ['PUT', '/__sim/settings', settings],
  ['PUT', '/__sim/adversity', adversity],
  ['GET', '/__sim/snapshot', snapshot],
  ['POST', '/__sim/restore', restore],
];
