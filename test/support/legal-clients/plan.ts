/**
 * Legal client behaviours as data: what clients that follow the API document may do, as plans a
 * fast-check arbitrary draws, and the documented traps one of them may be given instead. A plan is a
 * few clients (each its own credential), each doing a few activities, interleaved request by request.
 *
 * Legal here means: breaks no instruction of commerce-api.md. Peeks, UI paging by offset with or without
 * sort, jumps, early stops, page sizes above 100 paged by the size granted, §4.3 walks by id or by a
 * timestamp (runs of ties drained by eq or by page[offset]), syncs that resume below the present less a
 * buffer kept on the client's side, retries after Retry-After, brackets sent raw or percent-encoded.
 */
import * as fc from 'fast-check';

export type TimestampField = 'created_at' | 'updated_at';

export type Activity =
  /** One page (a widget, the newest records). */
  | { readonly kind: 'peek'; readonly limit: number; readonly sort: string | undefined }
  /** A UI's table: page 1, then `pages - 1` clicks on "next" by the page size granted; stops there or at the end. */
  | { readonly kind: 'pages'; readonly limit: number; readonly sort: string | undefined; readonly pages: number }
  /** "Jump to page": page 1, then pages at these percentages of the page count (by the size granted). */
  | { readonly kind: 'jumps'; readonly limit: number; readonly sort: string | undefined; readonly at: readonly number[] }
  /** §4.3 by id: sort=id, gt(id,<last>), to the empty page (or a deliberate stop after `stopAfter` full pages). */
  | { readonly kind: 'id-walk'; readonly limit: number; readonly stopAfter: number | undefined }
  /** §4.3 by a timestamp: sort=f, ge(f,<last>), uniform pages drained by page[offset] or eq; an upper bound le(f,<newest>) or none. */
  | { readonly kind: 'ts-walk'; readonly field: TimestampField; readonly limit: number; readonly drain: 'offset' | 'eq'; readonly upper: boolean; readonly stopAfter: number | undefined }
  /** A sync: a timestamp walk to the end, then a second from min(newest seen, now − buffer). */
  | { readonly kind: 'sync'; readonly field: TimestampField; readonly limit: number; readonly drain: 'offset' | 'eq'; readonly bufferMs: number }
  /** "Since this one": a page sorted by the attribute, then ge(attr,<a record's value from its middle>) sorted up or down, a page or two. */
  | { readonly kind: 'since'; readonly field: 'id' | TimestampField; readonly limit: number; readonly desc: boolean; readonly pages: number }
  /** A create of an account (a client's own write). */
  | { readonly kind: 'create' };

export interface ClientPlan {
  readonly activities: readonly Activity[];
  /** Brackets of page[limit] and page[offset] sent percent-encoded. */
  readonly encoded: boolean;
}

export interface Plan {
  readonly clients: readonly ClientPlan[];
  /** How requests of the clients' activities interleave: each number picks the next activity to step (modulo the open ones). */
  readonly schedule: readonly number[];
}

/** The documented mistakes a client can make, each its own client rule. */
export type Trap =
  | { readonly kind: 'gt-timestamp'; readonly field: TimestampField; readonly limit: number }
  | { readonly kind: 'unsorted-keyset'; readonly limit: number; readonly sort: 'none' | 'created_at' }
  | { readonly kind: 'id-short-stop'; readonly limit: number }
  | { readonly kind: 'clamped-advance'; readonly limit: number }
  | { readonly kind: 'hard-offset'; readonly path: '/v2/orders' | '/v2/files'; readonly offset: number };

export const TRAP_RULES: Readonly<Record<Trap['kind'], string>> = {
  'gt-timestamp': 'client.keyset.timestamp-ge',
  'unsorted-keyset': 'client.keyset.sort-matches-filter',
  'id-short-stop': 'client.keyset.id-stop',
  'clamped-advance': 'client.limit.clamped',
  'hard-offset': 'client.offset.hard-limit',
};

const limit = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(5, 10, 25, 50, 100, 150, 250));
const smallLimit = fc.integer({ min: 7, max: 60 });
const sort = fc.constantFrom(undefined, 'created_at', 'updated_at', 'id', 'name', '-created_at');
const field = fc.constantFrom<TimestampField>('created_at', 'updated_at');
const drain = fc.constantFrom<'offset' | 'eq'>('offset', 'eq');

export const activityArbitrary: fc.Arbitrary<Activity> = fc.oneof(
  fc.record({ kind: fc.constant('peek' as const), limit, sort }),
  fc.record({ kind: fc.constant('pages' as const), limit, sort, pages: fc.integer({ min: 2, max: 5 }) }),
  fc.record({ kind: fc.constant('jumps' as const), limit, sort, at: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('id-walk' as const), limit: smallLimit, stopAfter: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }) }),
  fc.record({ kind: fc.constant('ts-walk' as const), field, limit: smallLimit, drain, upper: fc.boolean(), stopAfter: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }) }),
  fc.record({ kind: fc.constant('sync' as const), field, limit: smallLimit, drain, bufferMs: fc.constantFrom(10_000, 60_000, 300_000) }),
  fc.record({
    kind: fc.constant('since' as const),
    field: fc.constantFrom<'id' | TimestampField>('id', 'created_at', 'updated_at'),
    limit: smallLimit,
    desc: fc.boolean(),
    pages: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ kind: fc.constant('create' as const) }),
);

export const planArbitrary: fc.Arbitrary<Plan> = fc.record({
  clients: fc.array(fc.record({ activities: fc.array(activityArbitrary, { minLength: 1, maxLength: 3 }), encoded: fc.boolean() }), { minLength: 1, maxLength: 3 }),
  schedule: fc.array(fc.nat(), { minLength: 8, maxLength: 40 }),
});

export const trapArbitrary: fc.Arbitrary<Trap> = fc.oneof(
  fc.record({ kind: fc.constant('gt-timestamp' as const), field, limit: smallLimit }),
  fc.record({ kind: fc.constant('unsorted-keyset' as const), limit: smallLimit, sort: fc.constantFrom<'none' | 'created_at'>('none', 'created_at') }),
  fc.record({ kind: fc.constant('id-short-stop' as const), limit: fc.integer({ min: 7, max: 40 }) }),
  fc.record({ kind: fc.constant('clamped-advance' as const), limit: fc.integer({ min: 101, max: 250 }) }),
  fc.record({ kind: fc.constant('hard-offset' as const), path: fc.constantFrom<'/v2/orders' | '/v2/files'>('/v2/orders', '/v2/files'), offset: fc.integer({ min: 10_001, max: 50_000 }) }),
);

/** One line naming a plan, for a failure's message. */
export function describePlan(plan: Plan, trap?: Trap): string {
  const clients = plan.clients.map((c, i) => `client ${i + 1}${c.encoded ? ' (encoded)' : ''}: ${c.activities.map((a) => JSON.stringify(a)).join(', ')}`);
  return [...clients, ...(trap === undefined ? [] : [`trap: ${JSON.stringify(trap)}`])].join('\n  ');
}
