/**
 * The large-data pattern (commerce-api.md §4.3): keyset walks by id and by timestamp, shared timestamps,
 * updates and deletes during a traversal; plus the consistency window and rate limiting (assumed).
 */
import type { Exchange } from '../port.js';
import {
  asString,
  at,
  decodeSegment,
  describe,
  errorBodyProblem,
  asList,
  idsOf,
  instantOf,
  isAdminWrite,
  isDataWrite,
  pageMeta,
  parsedClauses,
  recordAttr,
  recordId,
  judgeEach,
  listGets,
  listQuery,
  methodIs,
  pathOf,
  readSort,
  varNumber,
} from './inspect.js';
import { walkRules } from './large-data-walks.js';
import { surfaceCoverRules } from './surface-covers.js';
import { fail, pass, skip, type CheckContext, type Rule } from './rule.js';

/** The id a write or delete addresses: the last path segment. */
function addressedId(ex: Exchange): string | undefined {
  const segs = pathOf(ex.request.url)
    .split('/')
    .filter((s) => s !== '');
  const last = segs[segs.length - 1];
  return last === undefined ? undefined : decodeSegment(last);
}

/** The list GETs sorted ascending by updated_at, in order, with their positions in ctx. */
function updatedAtWalk(ctx: CheckContext): { ex: Exchange; i: number }[] {
  const lists = new Set(listGets(ctx));
  return ctx.exchanges.flatMap((ex, i) => {
    const sort = readSort(listQuery(ex.request.url).sort);
    return lists.has(ex) && sort?.field === 'updated_at' && sort.direction === 'asc' ? [{ ex, i }] : [];
  });
}

/** Whether `write` addresses a record of the list read by `page` (its path below the list's path). */
const sameCollection = (write: Exchange, page: Exchange): boolean => pathOf(write.request.url).startsWith(`${pathOf(page.request.url).replace(/\/$/, '')}/`);

/** A successful update (PUT/PATCH) of a record, with the id it addresses. */
function updateOf(ex: Exchange): string | undefined {
  return methodIs(ex, 'PUT', 'PATCH') && isDataWrite(ex) ? addressedId(ex) : undefined;
}

/** The last page of a walk holds fewer records than its page limit (or none): the walk reached the end. */
function walkFinished(pages: readonly Exchange[]): boolean {
  const last = pages.at(-1);
  if (last === undefined) return false;
  const n = asList(last.json)?.data.length ?? 0;
  const limit = pageMeta(last.json).limit;
  return n === 0 || (limit !== undefined && n < limit);
}

const updatesDuringTraversal: Rule = {
  id: 'large-data.updates-during-traversal',
  family: 'large-data',
  section: '§4.3',
  level: 'documented',
  onTraffic: { scope: 'walk' },
  quote: 'With updated_at, a record updated during processing may appear more than once.',
  statement: 'a record updated during an updated_at traversal is not lost: one not yet seen when it is updated appears later in the finished walk (appearing more than once is allowed).',
  check: (ctx) => {
    // judges: ctx = a walk of list GETs sorted by updated_at, a 2xx PUT/PATCH (during the walk) of a record of that list not seen before it, the walk finished (last page short): the id appears in a later page
    const walk = updatedAtWalk(ctx);
    return judgeEach(
      ctx.exchanges.map((ex, i) => ({ ex, i })),
      'no update, during an updated_at walk, of a record not yet seen',
      ({ ex, i }) => {
        const id = updateOf(ex);
        if (id === undefined) return skip('not an update');
        const before = walk.filter((p) => p.i < i && sameCollection(ex, p.ex)).map((p) => p.ex);
        const after = walk.filter((p) => p.i > i && sameCollection(ex, p.ex)).map((p) => p.ex);
        if (before.length === 0) return skip('the walk had not started');
        if (before.some((p) => idsOf(p.json).includes(id))) return skip('already seen: appearing again is allowed, not required (large-data.updates-reappear)');
        if (after.some((p) => idsOf(p.json).includes(id))) return pass;
        if (!walkFinished(after)) return skip('the walk did not finish after the update');
        return fail(`${describe(ex)}: the record updated during the updated_at walk is lost`, `record ${id} in a later page`, `absent from ${after.length} later page(s)`);
      },
    );
  },
};

const updatesReappear: Rule = {
  id: 'large-data.updates-reappear',
  family: 'large-data',
  section: '§4.3, API-NOTES "Accounts"',
  level: 'assumed',
  onTraffic: { scope: 'walk' },
  statement: 'a record updated during an updated_at traversal after it was seen appears again later in it (its updated_at moved).',
  check: (ctx) => {
    // judges: ctx = a walk of list GETs sorted by updated_at with a 2xx PUT/PATCH of a record seen earlier in it: that id appears in a later page
    const walk = updatedAtWalk(ctx);
    return judgeEach(
      ctx.exchanges.map((ex, i) => ({ ex, i })),
      'no update of a record seen earlier in an updated_at walk',
      ({ ex, i }) => {
        const id = updateOf(ex);
        if (id === undefined) return skip('not an update');
        const before = walk.filter((p) => p.i < i).map((p) => p.ex);
        const after = walk.filter((p) => p.i > i).map((p) => p.ex);
        if (!before.some((p) => idsOf(p.json).includes(id))) return skip('record not seen before the update');
        if (after.length === 0) return skip('the walk ended before the update');
        if (after.some((p) => idsOf(p.json).includes(id))) return pass;
        return fail(`${describe(ex)}: the updated record never appears again in the updated_at walk`, `record ${id} in a later page`, `absent from ${after.length} later page(s)`);
      },
    );
  },
};

/** The latest updated_at instant of record `id` in the list reads among `reads`, or undefined. */
function latestUpdatedAt(reads: readonly Exchange[], id: string): bigint | undefined {
  let latest: bigint | undefined;
  for (const ex of reads) {
    for (const r of asList(ex.json)?.data ?? []) {
      if (recordId(r) !== id) continue;
      const v = recordAttr(r, 'updated_at');
      const t = typeof v === 'string' ? instantOf(v) : undefined;
      if (t !== undefined && (latest === undefined || t > latest)) latest = t;
    }
  }
  return latest;
}

/** A read that follows changes by updated_at: sorted by it, or filtered on it. */
const readsByUpdatedAt = (ex: Exchange): boolean => {
  const q = listQuery(ex.request.url);
  return readSort(q.sort)?.field === 'updated_at' || parsedClauses(q.filter).some((c) => c.field === 'updated_at');
};

const deletesInvisible: Rule = {
  id: 'large-data.deletes-invisible',
  family: 'large-data',
  section: '§4.3',
  level: 'documented',
  onTraffic: { scope: 'session' },
  quote: 'updated_at allows keeping another system in sync with changes, but deletes are not visible.',
  statement:
    'a delete leaves no trace in updated_at reads: the deleted record is never listed with an updated_at later than it had before the delete (whether it is still listed is large-data.deletes-immediate).',
  check: (ctx) =>
    // judges: ctx = list GETs showing record X (its updated_at), a 2xx DELETE of X (id = last path segment), then list GETs of its collection sorted or filtered by updated_at: X not listed with a later updated_at
    judgeEach(
      ctx.exchanges.map((ex, i) => ({ ex, i })),
      'no successful DELETE of a listed record followed by an updated_at read',
      ({ ex, i }) => {
        const id = addressedId(ex);
        if (!methodIs(ex, 'DELETE') || !isDataWrite(ex) || id === undefined) return skip('not a delete');
        const before = latestUpdatedAt(
          listGets({ exchanges: ctx.exchanges.slice(0, i), vars: ctx.vars }).filter((p) => sameCollection(ex, p)),
          id,
        );
        if (before === undefined) return skip('record not listed with its updated_at before the delete');
        const later = listGets({ exchanges: ctx.exchanges.slice(i + 1), vars: ctx.vars }).filter((p) => readsByUpdatedAt(p) && sameCollection(ex, p));
        if (later.length === 0) return skip('no updated_at read after the delete');
        const shown = later.find((p) => (latestUpdatedAt([p], id) ?? before) > before);
        return shown === undefined
          ? pass
          : fail(
              `${describe(shown)}: the record deleted by ${describe(ex)} is listed as changed`,
              `record ${id} not listed with an updated_at after ${new Date(Number(before / 1_000_000n)).toISOString()}`,
              'listed with a later updated_at',
            );
      },
    ),
};

const deletesImmediate: Rule = {
  id: 'large-data.deletes-immediate',
  family: 'large-data',
  section: '§4.3, API-NOTES "Accounts"',
  level: 'assumed',
  onTraffic: { scope: 'session' },
  statement: 'a deleted record no longer appears in list reads, at once.',
  check: (ctx) =>
    // judges: ctx = a DELETE answering 2xx (id = last path segment), then list GETs of its collection: the id never appears in them
    judgeEach(
      ctx.exchanges.map((ex, i) => ({ ex, i })),
      'no successful DELETE followed by a list read',
      ({ ex, i }) => {
        const id = addressedId(ex);
        if (!methodIs(ex, 'DELETE') || !isDataWrite(ex) || id === undefined) return skip('not a delete');
        const later = listGets({ exchanges: ctx.exchanges.slice(i + 1), vars: ctx.vars }).filter((p) => sameCollection(ex, p));
        if (later.length === 0) return skip('no list read of its collection after the delete');
        const seen = later.find((p) => idsOf(p.json).includes(id));
        return seen === undefined ? pass : fail(`${describe(seen)}: lists the record deleted by ${describe(ex)}`, `record ${id} absent`, 'listed');
      },
    ),
};

const consistencyWindow: Rule = {
  id: 'large-data.consistency-window',
  family: 'large-data',
  section: 'API-NOTES/issue',
  level: 'assumed',
  onTraffic: { scope: 'scripted' },
  statement: 'with the consistency window set, records newer than now − window are not listed until the clock passes the window.',
  check: (ctx) => {
    // judges: ctx = a 2xx admin write to /__sim/ (the window; or vars.consistency_window_ms), a create (POST 2xx, data.id), list GETs (id absent), a 2xx admin write to /__sim/ (the clock), list GETs of the create's path (id listed in one)
    const fromVars = varNumber(ctx.vars, 'consistency_window_ms') !== undefined;
    const windowSetAt = fromVars ? -1 : ctx.exchanges.findIndex(isAdminWrite);
    if (!fromVars && windowSetAt < 0) return skip('no consistency window set');
    const createdAt = ctx.exchanges.findIndex((ex, i) => i > windowSetAt && isDataWrite(ex) && methodIs(ex, 'POST') && asString(at(ex.json, 'data', 'id')) !== undefined);
    const created = ctx.exchanges[createdAt];
    const id = asString(at(created?.json, 'data', 'id'));
    if (created === undefined || id === undefined) return skip('no create after the window was set');
    const rest = ctx.exchanges.slice(createdAt + 1);
    const clock = rest.findIndex(isAdminWrite);
    const inside = listGets({ exchanges: clock < 0 ? rest : rest.slice(0, clock), vars: ctx.vars });
    const early = inside.find((p) => idsOf(p.json).includes(id));
    if (early !== undefined) return fail(`${describe(early)}: lists a record created inside the consistency window`, `record ${id} not listed yet`, 'listed');
    const outside = clock < 0 ? [] : listGets({ exchanges: rest.slice(clock + 1), vars: ctx.vars }).filter((p) => pathOf(p.request.url) === pathOf(created.request.url));
    if (outside.length > 0 && !outside.some((p) => idsOf(p.json).includes(id))) {
      return fail(`record ${id} still not listed after the clock passed the window`, 'listed', `absent from ${outside.length} read(s)`);
    }
    return inside.length + outside.length > 0 ? pass : skip('no list read after the create');
  },
};

const retryAfter: Rule = {
  id: 'rate-limit.retry-after',
  family: 'large-data',
  section: 'API-NOTES "Errors"',
  level: 'assumed',
  onTraffic: { scope: 'exchange' },
  statement: 'a 429 answer carries Retry-After and the error array.',
  check: (ctx) =>
    // judges: every 429: a Retry-After header (seconds or HTTP date) and the error array with status 429
    judgeEach(ctx.exchanges, 'no 429 answer', (ex) => {
      if (ex.response.status !== 429) return skip('not a 429');
      const value = ex.response.headers['retry-after']?.trim();
      if (value === undefined || !(/^\d+$/.test(value) || !Number.isNaN(Date.parse(value)))) {
        return fail(`${describe(ex)}: Retry-After`, 'seconds or an HTTP date', value ?? 'absent');
      }
      const problem = errorBodyProblem(ex.json, 429);
      return problem === undefined ? pass : fail(`${describe(ex)}: error body has ${problem}`, '{"errors":[{status:429,title}]}', problem);
    }),
};

export const largeDataRules: readonly Rule[] = [
  walkRules.keysetId,
  walkRules.keysetTimestamp,
  walkRules.sharedTimestamp,
  updatesDuringTraversal,
  updatesReappear,
  deletesInvisible,
  deletesImmediate,
  consistencyWindow,
  surfaceCoverRules.accountsWrites,
  retryAfter,
];
