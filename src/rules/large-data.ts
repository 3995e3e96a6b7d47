/**
 * The large-data pattern (commerce-api.md §4.3): keyset walks by id and by timestamp, shared timestamps,
 * updates and deletes during a traversal; plus the consistency window and rate limiting (assumed).
 */
import type { Exchange } from '../target/types.js';
import {
  asString,
  at,
  decodeSegment,
  describe,
  errorBodyProblem,
  idsOf,
  isAdminWrite,
  isDataWrite,
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
import { fail, pass, skip, type Rule } from './types.js';

/** The id a write or delete addresses: the last path segment. */
export function addressedId(ex: Exchange): string | undefined {
  const segs = pathOf(ex.request.url).split('/').filter((s) => s !== '');
  const last = segs[segs.length - 1];
  return last === undefined ? undefined : decodeSegment(last);
}

const updatesDuringTraversal: Rule = {
  id: 'large-data.updates-during-traversal',
  family: 'large-data',
  section: '§4.3',
  level: 'documented',
  quote: "With updated_at, a record updated during processing may appear more than once.",
  statement: 'a record updated during an updated_at traversal appears again later in it (its updated_at moved).',
  check: (ctx) => {
    // judges: ctx = a walk of list GETs sorted by updated_at with a 2xx PUT/PATCH of a record seen earlier in it: that id appears in a later page
    const walk = listGets(ctx).filter((ex) => readSort(listQuery(ex.request.url).sort)?.field === 'updated_at');
    const position = new Map(ctx.exchanges.map((ex, i) => [ex, i]));
    return judgeEach(
      ctx.exchanges.map((ex, i) => ({ ex, i })),
      'no update of a record seen earlier in an updated_at walk',
      ({ ex, i }) => {
        const id = addressedId(ex);
        if (!methodIs(ex, 'PUT', 'PATCH') || !isDataWrite(ex) || id === undefined) return skip('not an update');
        const before = walk.filter((p) => (position.get(p) ?? 0) < i);
        const after = walk.filter((p) => (position.get(p) ?? 0) > i);
        if (!before.some((p) => idsOf(p.json).includes(id))) return skip('record not seen before the update');
        if (after.length === 0) return skip('the walk ended before the update');
        if (after.some((p) => idsOf(p.json).includes(id))) return pass;
        return fail(`${describe(ex)}: the updated record never appears again in the updated_at walk`, `record ${id} in a later page`, `absent from ${after.length} later page(s)`);
      },
    );
  },
};

const deletesInvisible: Rule = {
  id: 'large-data.deletes-invisible',
  family: 'large-data',
  section: '§4.3',
  level: 'documented',
  quote: "updated_at allows keeping another system in sync with changes, but deletes are not visible.",
  statement: 'a deleted record no longer appears in list reads.',
  check: (ctx) =>
    // judges: ctx = a DELETE answering 2xx (id = last path segment), then list GETs: the id never appears in them
    judgeEach(
      ctx.exchanges.map((ex, i) => ({ ex, i })),
      'no successful DELETE followed by a list read',
      ({ ex, i }) => {
        const id = addressedId(ex);
        if (!methodIs(ex, 'DELETE') || !isDataWrite(ex) || id === undefined) return skip('not a delete');
        const later = listGets({ exchanges: ctx.exchanges.slice(i + 1), vars: ctx.vars });
        if (later.length === 0) return skip('no list read after the delete');
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
  deletesInvisible,
  consistencyWindow,
  surfaceCoverRules.accountsWrites,
  retryAfter,
];
