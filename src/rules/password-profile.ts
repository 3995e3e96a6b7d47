/**
 * Read, list, update and delete of the password-profile record: not shown in the API document; the
 * public API has them (docs/api-notes.md, "The password profile record"). All assumed.
 */
import type { Exchange } from '../port.js';
import {
  asList,
  asString,
  at,
  describe,
  instantOf,
  is2xx,
  isAsideStatus,
  isCreatePath,
  isGet,
  isObject,
  judgeEach,
  methodIs,
  missingPageMembers,
  pageMeta,
  pathOf,
  profileItem,
  profilePath,
  PROFILE_TYPE,
  PROFILE_TYPE_HYPHEN,
  recordId,
  requestJson,
  sentWithoutAuth,
} from './inspect.js';
import { charCounts, MIN_PASSWORD_LENGTH, parentOf, passwordLeak } from './profile-request.js';
import { fail, pass, skip, type Outcome, type Rule } from './rule.js';

const SECTION = 'API-NOTES "The password profile record"';

interface Known {
  readonly collection: string;
  username: string | undefined;
  passwordProfileId: string | undefined;
  deleted: boolean;
}

/** Records this context created, updated and deleted, as seen just before exchange `upTo`. */
function ledger(exchanges: readonly Exchange[], upTo: number): Map<string, Known> {
  const known = new Map<string, Known>();
  for (const ex of exchanges.slice(0, upTo)) {
    if (!is2xx(ex.response.status)) continue;
    const path = pathOf(ex.request.url);
    const item = profileItem(path);
    if (methodIs(ex, 'POST') && isCreatePath(path)) {
      const id = asString(at(ex.json, 'data', 'id'));
      const p = profilePath(path);
      if (id === undefined || p === undefined) continue;
      const data = at(ex.json, 'data');
      known.set(id, { collection: `${p.realm}/${p.uai}`, username: asString(at(data, 'username')), passwordProfileId: asString(at(data, 'password_profile_id')), deleted: false });
    } else if (item?.id !== undefined && methodIs(ex, 'PUT', 'PATCH')) {
      const k = known.get(item.id);
      const req = at(requestJson(ex), 'data');
      if (k !== undefined) {
        k.username = asString(at(ex.json, 'data', 'username')) ?? asString(at(req, 'username')) ?? k.username;
        k.passwordProfileId = asString(at(ex.json, 'data', 'password_profile_id')) ?? asString(at(req, 'password_profile_id')) ?? k.passwordProfileId;
      }
    } else if (item?.id !== undefined && methodIs(ex, 'DELETE')) {
      const k = known.get(item.id);
      if (k !== undefined) k.deleted = true;
    }
  }
  return known;
}

/** Problems with a record as the create response shows it (API-NOTES: same fields as create). */
function recordProblems(data: unknown, id: string, expected: Known | undefined): string[] {
  const problems: string[] = [];
  if (recordId(data) !== id) problems.push('data.id differs from the path');
  const type = at(data, 'type');
  if (type !== PROFILE_TYPE && type !== PROFILE_TYPE_HYPHEN) problems.push('data.type is not the record type');
  for (const f of ['username', 'password_profile_id']) if (asString(at(data, f)) === undefined) problems.push(`data.${f} missing`);
  for (const ts of ['created_at', 'updated_at']) if (asString(at(data, 'meta', ts)) === undefined) problems.push(`data.meta.${ts} missing`);
  if (expected?.username !== undefined && at(data, 'username') !== expected.username) problems.push('data.username is not the last written');
  if (expected?.passwordProfileId !== undefined && at(data, 'password_profile_id') !== expected.passwordProfileId) problems.push('data.password_profile_id is not the last written');
  return problems;
}

const indexed = (exchanges: readonly Exchange[]): { ex: Exchange; i: number }[] => exchanges.map((ex, i) => ({ ex, i }));

const get: Rule = {
  id: 'password-profile.get',
  family: 'password-profile',
  section: SECTION,
  level: 'assumed',
  onTraffic: { scope: 'session' },
  statement: 'GET .../user-authentication-password-profile-info/{id} answers 200 with the record (same fields as create).',
  check: (ctx) =>
    // judges: every item GET: 200 → the record's fields (username/password_profile_id = last written in ctx); a record created in ctx and not deleted must answer 200
    judgeEach(indexed(ctx.exchanges), 'no GET of a password-profile record', ({ ex, i }): Outcome => {
      const item = profileItem(pathOf(ex.request.url));
      if (!isGet(ex) || item?.id === undefined || isAsideStatus(ex.response.status)) return skip('not an item GET');
      const k = ledger(ctx.exchanges, i).get(item.id);
      if (ex.response.status !== 200) {
        if (k === undefined || k.deleted) return skip('record not known to exist');
        return fail(`${describe(ex)}: a record created earlier answered ${ex.response.status}`, 200, ex.response.status);
      }
      const problems = recordProblems(at(ex.json, 'data'), item.id, k);
      return problems.length === 0 ? pass : fail(`${describe(ex)}: ${problems.join('; ')}`, 'the record as created', problems);
    }),
};

const list: Rule = {
  id: 'password-profile.list',
  family: 'password-profile',
  section: SECTION,
  level: 'assumed',
  onTraffic: { scope: 'session' },
  statement: 'GET of the collection lists created records with pagination meta.',
  check: (ctx) =>
    // judges: every collection GET (known parent): 200 list with numeric meta.page/results; a page holding the whole set lists every record created (not deleted) earlier in ctx
    judgeEach(indexed(ctx.exchanges), 'no GET of the password-profile collection', ({ ex, i }): Outcome => {
      const path = pathOf(ex.request.url);
      const p = profilePath(path);
      if (!isGet(ex) || p === undefined || p.id !== undefined || isAsideStatus(ex.response.status)) return skip('not a collection GET');
      if (parentOf(ex, ctx.vars) === 'unknown') return skip('unknown parent');
      const body = asList(ex.json);
      if (ex.response.status !== 200 || body === undefined) return fail(`${describe(ex)}: not a list`, '200 with a data array', ex.response.status);
      const missing = missingPageMembers(ex.json);
      if (missing.length > 0) return fail(`${describe(ex)}: pagination meta missing`, 'numeric meta.page and meta.results.total', missing);
      const m = pageMeta(ex.json);
      if (m.offset !== 0 || m.resultsTotal !== body.data.length) return pass;
      const listed = new Set(body.data.map(recordId));
      for (const [id, k] of ledger(ctx.exchanges, i)) {
        if (!k.deleted && k.collection === `${p.realm}/${p.uai}` && !listed.has(id)) return fail(`${describe(ex)}: a created record is not listed`, id, 'absent');
      }
      return pass;
    }),
};

/** Whether a PUT body is a valid update: data object, the record type if any, strings, a long-enough password. */
function validUpdate(ex: Exchange): boolean {
  const data = at(requestJson(ex), 'data');
  if (!isObject(data)) return false;
  if (data['type'] !== undefined && data['type'] !== PROFILE_TYPE && data['type'] !== PROFILE_TYPE_HYPHEN) return false;
  for (const f of ['username', 'password', 'password_profile_id']) if (data[f] !== undefined && (typeof data[f] !== 'string' || data[f] === '')) return false;
  const pw = data['password'];
  return typeof pw !== 'string' || charCounts(pw).least >= MIN_PASSWORD_LENGTH;
}

function updateProblems(ex: Exchange, id: string): string[] {
  const data = at(ex.json, 'data');
  const req = at(requestJson(ex), 'data');
  const problems: string[] = [];
  if (recordId(data) !== id) problems.push('data.id differs from the path');
  for (const f of ['username', 'password_profile_id']) {
    const wanted = at(req, f);
    if (wanted !== undefined && at(data, f) !== wanted) problems.push(`data.${f} not changed`);
  }
  const c = instantOf(asString(at(data, 'meta', 'created_at')) ?? '');
  const u = instantOf(asString(at(data, 'meta', 'updated_at')) ?? '');
  if (c === undefined || u === undefined) problems.push('meta timestamps missing');
  else if (u < c) problems.push('updated_at before created_at');
  return problems;
}

const update: Rule = {
  id: 'password-profile.update',
  family: 'password-profile',
  section: SECTION,
  level: 'assumed',
  onTraffic: { scope: 'session' },
  statement: 'PUT with {data:{type, username?, password?, password_profile_id?}} answers 200 with the changed record; updated_at ≥ created_at.',
  check: (ctx) =>
    // judges: every valid item PUT with credentials of a record created (not deleted) in ctx, or answering 200: 200, changed fields echoed, updated_at ≥ created_at
    judgeEach(indexed(ctx.exchanges), 'no valid PUT of a password-profile record', ({ ex, i }): Outcome => {
      const item = profileItem(pathOf(ex.request.url));
      if (!methodIs(ex, 'PUT') || item?.id === undefined || sentWithoutAuth(ex) || isAsideStatus(ex.response.status) || !validUpdate(ex)) return skip('not a valid PUT');
      const k = ledger(ctx.exchanges, i).get(item.id);
      if (ex.response.status !== 200) {
        if (k === undefined || k.deleted) return skip('record not known to exist');
        return fail(`${describe(ex)} answered ${ex.response.status}`, 200, ex.response.status);
      }
      const problems = updateProblems(ex, item.id);
      return problems.length === 0 ? pass : fail(`${describe(ex)}: ${problems.join('; ')}`, 'the changed record', problems);
    }),
};

const del: Rule = {
  id: 'password-profile.delete',
  family: 'password-profile',
  section: SECTION,
  level: 'assumed',
  onTraffic: { scope: 'session' },
  statement: 'DELETE answers 204 with an empty body; a later GET answers 404.',
  check: (ctx) =>
    // judges: every item DELETE answering 2xx or of a record created in ctx: 204 with an empty body; every later GET of that id: 404
    judgeEach(indexed(ctx.exchanges), 'no DELETE of a password-profile record', ({ ex, i }): Outcome => {
      const item = profileItem(pathOf(ex.request.url));
      if (!methodIs(ex, 'DELETE') || item?.id === undefined || isAsideStatus(ex.response.status)) return skip('not an item DELETE');
      const k = ledger(ctx.exchanges, i).get(item.id);
      if (!is2xx(ex.response.status) && (k === undefined || k.deleted)) return skip('record not known to exist');
      if (ex.response.status !== 204 || ex.response.body.trim() !== '') {
        return fail(`${describe(ex)}: expected 204 with an empty body`, '204, empty body', `${ex.response.status}, ${ex.response.body.length} bytes`);
      }
      for (const later of ctx.exchanges.slice(i + 1)) {
        if (!isGet(later) || profileItem(pathOf(later.request.url))?.id !== item.id || isAsideStatus(later.response.status)) continue;
        if (later.response.status !== 404) return fail(`${describe(later)} after the DELETE answered ${later.response.status}`, 404, later.response.status);
      }
      return pass;
    }),
};

const neverReturned: Rule = {
  id: 'password-profile.password-never-returned',
  family: 'password-profile',
  section: SECTION,
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['profile'] },
  statement: 'no operation on the resource returns a password member.',
  check: (ctx) =>
    // judges: every exchange on a password-profile path (any method, any status): no `password` member, nor the request's password text
    judgeEach(ctx.exchanges, 'no exchange on the password-profile resource', (ex) => {
      if (profilePath(pathOf(ex.request.url)) === undefined) return skip('other resource');
      const leak = passwordLeak(ex);
      return leak === undefined ? pass : fail(`${describe(ex)}: the response carries the password`, 'no password in the response', leak);
    }),
};

export const passwordProfileRules: readonly Rule[] = [get, list, update, del, neverReturned];
