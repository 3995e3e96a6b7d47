/**
 * Offset limits (commerce-api.md §8; docs/api-notes.md "Page limits"): past 10,000 records /v2/orders and
 * /v2/files never return records (hard); other endpoints accept offsets up to the project's
 * page_offset_limit and refuse past it until the operator raises it (soft). With the admin API the
 * property first seeds more than 10,000 records, so a server ignoring the hard limit shows records.
 */
import * as fc from 'fast-check';
import { isAsideStatus, isHardOffsetPath, OFFSET_LIMIT } from '../rules/inspect.js';
import { AdminError, adminRequest, seedWith } from './admin-requests.js';
import { HARD_LIMIT_PATHS, queryString, SOFT_LIMIT_PATHS } from './arbitraries.js';
import { defineProperty } from './define.js';
import { readOffsetLimit } from './page-arithmetic.js';
import type { AdminAccess } from './env.js';

const OFFSET_LIMITS = 'offset-limits';
/** Records seeded per collection when the admin API is there: past the limit, so records exist there. */
const SEEDED_PAST_LIMIT = OFFSET_LIMIT + 100;

interface Ctx {
  readonly offsetLimit: number;
  readonly admin: AdminAccess | undefined;
}

export interface OffsetInput {
  readonly path: string;
  readonly offset: number;
  readonly limit: number | undefined;
  /** With the admin API: raise page_offset_limit past the offset and read again. */
  readonly raise: boolean;
}

const offsets: fc.Arbitrary<number> = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: OFFSET_LIMIT - 10, max: SEEDED_PAST_LIMIT + 20 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: OFFSET_LIMIT }) },
  { weight: 1, arbitrary: fc.integer({ min: OFFSET_LIMIT, max: 5 * OFFSET_LIMIT }) },
  { weight: 1, arbitrary: fc.constantFrom(5_000, 5_001, OFFSET_LIMIT, OFFSET_LIMIT + 1) },
);

const input: fc.Arbitrary<OffsetInput> = fc.record({
  path: fc.constantFrom(...HARD_LIMIT_PATHS, ...SOFT_LIMIT_PATHS),
  offset: offsets,
  limit: fc.option(fc.integer({ min: 1, max: 100 }), { freq: 3, nil: undefined }),
  raise: fc.boolean(),
});

const urlOf = (i: OffsetInput): string =>
  `${i.path}${queryString([{ name: 'page[offset]', value: String(i.offset) }, ...(i.limit === undefined ? [] : [{ name: 'page[limit]', value: String(i.limit) }])])}`;

export const offsetLimits = defineProperty<Ctx, OffsetInput>({
  name: OFFSET_LIMITS,
  summary: 'past offset 10,000 /v2/orders and /v2/files return no records; other lists follow the soft page_offset_limit',
  rules: [
    'pagination.offset-limit.hard',
    'pagination.offset-limit.soft',
    'pagination.offset-limit.hard-400',
    'pagination.offset-limit.soft-400',
    'pagination.offset.echo',
    'pagination.results.total',
    'pagination.limit.per-call',
    'pagination.limit.max',
    'versioning.v2-prefix',
    'errors.format',
    'errors.no-5xx',
  ],
  needs: [],
  async prepare(env) {
    const { admin } = env;
    if (admin !== undefined) {
      const counts = { ...(admin.baseline.counts ?? {}), orders: SEEDED_PAST_LIMIT, files: SEEDED_PAST_LIMIT, customers: SEEDED_PAST_LIMIT, promotions: SEEDED_PAST_LIMIT };
      const res = await env.target.send(adminRequest(admin.token, 'POST', '/__sim/seed', seedWith(admin.baseline, { counts })));
      if (res.status !== 200) throw new AdminError('PROPS_ADMIN_FAILED', `seeding ${SEEDED_PAST_LIMIT} records answered ${res.status}`);
    }
    return { offsetLimit: await readOffsetLimit(env), admin };
  },
  arbitrary: () => input,
  show: (i) => ({ request: `GET ${urlOf(i)}`, ...(i.raise ? { then: 'raise page_offset_limit past the offset and read again' } : {}) }),
  async run(i, trial, ctx) {
    trial.vars['page_offset_limit'] = ctx.offsetLimit;
    const url = urlOf(i);
    const first = await trial.send({ method: 'GET', url });
    const soft = !isHardOffsetPath(i.path);
    const status = first.response.status;
    if (soft && i.offset <= ctx.offsetLimit && status !== 200 && status !== 404 && !isAsideStatus(status)) {
      // Judged as documented only on /v2/accounts up to 10,000 (inside the surface); other paths and offsets feed assumed rules.
      trial.finding(first, ['pagination.offset-limit.soft'], `GET ${url}: offset ${i.offset} within page_offset_limit ${ctx.offsetLimit} refused`, 200, status);
    }
    if (!soft || i.offset <= ctx.offsetLimit || !i.raise || ctx.admin === undefined) return;
    // The soft limit is the operator's to raise: the same read then answers a page.
    const { token } = ctx.admin;
    await trial.precondition(adminRequest(token, 'PUT', '/__sim/settings', { page_offset_limit: i.offset }));
    const again = await trial.send({ method: 'GET', url });
    await trial.precondition(adminRequest(token, 'PUT', '/__sim/settings', { page_offset_limit: ctx.offsetLimit }));
    trial.expect(again.response.status === 200, 'pagination.offset-limit.soft-400', `GET ${url} after raising page_offset_limit to ${i.offset}`, 200, again.response.status);
  },
});
