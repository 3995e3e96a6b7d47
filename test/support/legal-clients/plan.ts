/**
 * Legal client behaviours as data: what clients that follow the API document may do, as plans a
 * fast-check arbitrary draws, and the documented traps one of them may be given instead. A plan is a
 * few clients (each its own credential), each doing a few activities, interleaved request by request.
 *
 * Legal here means: breaks no instruction of commerce-api.md. Peeks, UI paging by offset with or without
 * sort, jumps, a grid's jumps out of order (the last page from page.total, then back), early stops, page
 * sizes above 100 paged by the size granted, no page[limit] at all, §4.3 walks by id or by a timestamp
 * (runs of ties paged through by eq, or further by page[offset] in each of the three literal readings of
 * step 3), date windows ending at a bound checked on the client's side, exports of accounts, orders and
 * files interleaved and resumed on fresh connections, links.next followed, syncs that resume below the
 * present less a buffer kept on the client's side, password-profile creates, retries after Retry-After and
 * after answers lost to a connection reset, brackets sent raw or percent-encoded, header names in any case.
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
  /** §4.3 by a timestamp: sort=f, ge(f,<last>), pages of one value paged through (see Drain); an upper bound le(f,<newest>) or none. */
  | { readonly kind: 'ts-walk'; readonly field: TimestampField; readonly limit: number; readonly drain: Drain; readonly upper: boolean; readonly stopAfter: number | undefined }
  /** A sync: a timestamp walk to the end, then a second from min(newest seen, now − buffer). */
  | { readonly kind: 'sync'; readonly field: TimestampField; readonly limit: number; readonly drain: Drain; readonly bufferMs: number }
  /** A UI grid: page 1, the last page (from page.total, by the size granted), back to page 2, then `next` clicks. */
  | { readonly kind: 'grid'; readonly limit: number | undefined; readonly sort: string | undefined; readonly clicks: number }
  /** A report of a date window: ge(created_at,<start>) walked on, stopping at a bound it checks on its side (the document names no upper-bound operator). */
  | { readonly kind: 'window'; readonly limit: number; readonly from: number; readonly span: number; readonly drain: Drain }
  /** §4.3 by id over a collection (the CSV export of accounts, or the hard-limited orders and files); interrupted after `resumeAfter` pages and resumed from its checkpoint on fresh connections. */
  | { readonly kind: 'export'; readonly path: Collection; readonly limit: number | undefined; readonly resumeAfter: number | undefined }
  /** A first page sorted by id, then links.next followed as given until it is null (or absent). */
  | { readonly kind: 'links'; readonly limit: number | undefined }
  /** A password-profile create (§4.1): the trailing slash or not, `; charset=utf-8` or not, a password of 8 characters or more in some script. */
  | { readonly kind: 'profile-create'; readonly slash: boolean; readonly charset: boolean; readonly password: string }
  /** "Since this one": a page sorted by the attribute, then ge(attr,<a record's value from its middle>) sorted up or down, a page or two. */
  | { readonly kind: 'since'; readonly field: 'id' | TimestampField; readonly limit: number; readonly desc: boolean; readonly pages: number }
  /** A create of an account (a client's own write). */
  | { readonly kind: 'create' };

/**
 * How a timestamp walk pages on past a full page of one value (§4.3: "a page may need further paging"):
 * - `offset`: the filter the page was read with, further on by page[offset];
 * - `literal`: step 3 to the letter, ge(<last value of the previous page>) at offset 0, which re-reads the page, then further on by page[offset];
 * - `held`: ge(<last value>) at page[offset] = the records of that value already held (after any page, not only one of one value);
 * - `eq`: the run read alone by eq(f,<value>) sorted by id, then gt(f,<value>).
 */
export type Drain = 'offset' | 'literal' | 'held' | 'eq';

export type Collection = '/v2/accounts' | '/v2/orders' | '/v2/files';

export interface ClientPlan {
  readonly activities: readonly Activity[];
  /** Brackets of page[limit] and page[offset] sent percent-encoded. */
  readonly encoded: boolean;
  /** Every n-th answer is lost to a connection reset after the server sent it: the same request is sent again. */
  readonly resetEvery?: number | undefined;
  /** How its header names are written (HTTP names are case-insensitive); default lower case. */
  readonly headerCase?: 'lower' | 'title' | 'upper';
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
const smallLimit = fc.oneof(fc.integer({ min: 7, max: 60 }), fc.constant(10));
/** No page[limit] at all: the project's page length (§8 default 25) is what the answer grants. */
const anyLimit = fc.option(fc.oneof(smallLimit, fc.constantFrom(100, 150)), { nil: undefined });
/** Passwords of 8 characters or more under every reading of "character", in several scripts. */
const password = fc.constantFrom('correct-horse', 'pässwörd', '密码密码密码密码', 'пароль12', '🔑🔑🔑🔑🔑🔑🔑🔑', 'e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301');
const sort = fc.constantFrom(undefined, 'created_at', 'updated_at', 'id', 'name', '-created_at');
const field = fc.constantFrom<TimestampField>('created_at', 'updated_at');
const drain = fc.constantFrom<Drain>('offset', 'literal', 'held', 'eq');

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
  fc.record({ kind: fc.constant('grid' as const), limit: anyLimit, sort: fc.constantFrom(undefined, 'created_at', 'id'), clicks: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('window' as const), limit: smallLimit, from: fc.integer({ min: 0, max: 60 }), span: fc.integer({ min: 10, max: 60 }), drain }),
  fc.record({
    kind: fc.constant('export' as const),
    path: fc.constantFrom<Collection>('/v2/accounts', '/v2/orders', '/v2/files'),
    limit: anyLimit,
    resumeAfter: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('links' as const), limit: anyLimit }),
  fc.record({ kind: fc.constant('profile-create' as const), slash: fc.boolean(), charset: fc.boolean(), password }),
);

export const planArbitrary: fc.Arbitrary<Plan> = fc.record({
  clients: fc.array(
    fc.record({
      activities: fc.array(activityArbitrary, { minLength: 1, maxLength: 3 }),
      encoded: fc.boolean(),
      resetEvery: fc.option(fc.integer({ min: 2, max: 6 }), { nil: undefined, freq: 3 }),
      headerCase: fc.constantFrom<'lower' | 'title' | 'upper'>('lower', 'title', 'upper'),
    }),
    { minLength: 1, maxLength: 3 },
  ),
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
  const clients = plan.clients.map(
    (c, i) =>
      `client ${i + 1}${c.encoded ? ' (encoded)' : ''}${c.resetEvery === undefined ? '' : ` (every ${c.resetEvery}th answer lost)`} (${c.headerCase ?? 'lower'} header names): ${c.activities.map((a) => JSON.stringify(a)).join(', ')}`,
  );
  return [...clients, ...(trap === undefined ? [] : [`trap: ${JSON.stringify(trap)}`])].join('\n  ');
}
