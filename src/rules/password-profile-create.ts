/** Rules of the create operation (commerce-api.md §2.1, §4.1): success, response shape, password rules. */
import {
  asString,
  at,
  decodeSegment,
  describe,
  instantOf,
  is2xx,
  isAsideStatus,
  isIsoMillisZ,
  judgeEach,
  pathOf,
  profilePath,
  PROFILE_TYPE,
  PROFILE_TYPE_HYPHEN,
  readLink,
  methodIs,
  requestJson,
  sentWithoutAuth,
} from './inspect.js';
import { charCount, classifyCreateBody, createPosts, createsAnswered2xx, expectsSuccess, judgeableCreates, MIN_PASSWORD_LENGTH, passwordLeak, requestPassword } from './profile-request.js';
import { createErrorRules } from './password-profile-create-errors.js';
import { fail, pass, skip, type CheckContext, type Outcome, type Rule } from './rule.js';
import type { Exchange } from '../port.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Valid create requests (credentials sent, valid body) whose status can be judged as a success. Not one
 * that repeats a username: whether usernames may repeat is not shown (§2.1, §3), and a server that refuses
 * a duplicate (409, or a validation error) conforms. A 409 says such a conflict itself.
 */
const isValidCreate = (ex: Exchange, ctx: CheckContext): boolean => classifyCreateBody(ex).kind === 'valid' && expectsSuccess(ex, ctx.vars) && ex.response.status !== 409 && !repeatsUsername(ex, ctx);

/** The request's username was created before on the same parent: in ctx, or among the usernames the caller says were used (`vars.usernames_used`). */
function repeatsUsername(ex: Exchange, ctx: CheckContext): boolean {
  const username = asString(at(requestJson(ex), 'data', 'username'));
  if (username === undefined) return false;
  const parent = pathOf(ex.request.url).replace(/\/$/, '');
  const used = ctx.vars['usernames_used'];
  if (used instanceof Set && used.has(`${parent}\u0000${username}`)) return true;
  for (const other of ctx.exchanges) {
    if (other === ex) return false;
    if (is2xx(other.response.status) && methodIs(other, 'POST') && pathOf(other.request.url).replace(/\/$/, '') === parent && asString(at(requestJson(other), 'data', 'username')) === username)
      return true;
  }
  return false;
}

const status201: Rule = {
  id: 'create.status.201',
  family: 'create',
  section: '§4.1',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote: 'Success response: status 201 Created. The body is a JSON object with data (section 2.1 response fields) and links (self).',
  statement: 'A valid create answers 201 Created.',
  check: (ctx) =>
    // judges: every create POST with a valid body and credentials (parent = vars realm_id/uai when given): status 201
    judgeEach(judgeableCreates(ctx), 'no valid create request', (ex) => {
      if (!isValidCreate(ex, ctx)) return skip('not a valid create');
      return ex.response.status === 201 ? pass : fail(`${describe(ex)} answered ${ex.response.status}`, 201, ex.response.status);
    }),
};

function responseFieldProblems(ex: Exchange): string[] {
  const data = at(ex.json, 'data');
  const req = at(requestJson(ex), 'data');
  const problems: string[] = [];
  const id = asString(at(data, 'id'));
  if (id === undefined || !UUID.test(id)) problems.push('data.id not UUID-shaped');
  if (asString(at(data, 'type')) === undefined) problems.push('data.type missing');
  const username = asString(at(data, 'username'));
  if (username === undefined) problems.push('data.username missing');
  else if (username !== at(req, 'username')) problems.push('data.username differs from the request');
  // §2.1 calls it "Identifier of the password profile", not an echo: create.password-profile-id.echo judges that.
  if (asString(at(data, 'password_profile_id')) === undefined) problems.push('data.password_profile_id missing');
  for (const ts of ['created_at', 'updated_at']) if (asString(at(data, 'meta', ts)) === undefined) problems.push(`data.meta.${ts} missing`);
  return problems;
}

const responseFields: Rule = {
  id: 'create.response.fields',
  family: 'create',
  section: '§2.1',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote:
    'Fields in the response data object: id (Identifier of the created record (UUID-shaped, <profile_info_id>).), type (user_authentication_password_profile_info), username (Echo of the submitted username.), password_profile_id (Identifier of the password profile.), meta.created_at, meta.updated_at.',
  statement: 'data carries id (UUID-shaped), type, username (echo of the request), password_profile_id, meta.created_at, meta.updated_at.',
  check: (ctx) =>
    // judges: every create POST answering 2xx: the response fields and the username's echo
    judgeEach(createsAnswered2xx(ctx), 'no successful create', (ex) => {
      const problems = responseFieldProblems(ex);
      return problems.length === 0 ? pass : fail(`${describe(ex)}: ${problems.join('; ')}`, 'id, type, username, password_profile_id, meta.created_at, meta.updated_at', problems);
    }),
};

const passwordProfileIdEcho: Rule = {
  id: 'create.password-profile-id.echo',
  family: 'create',
  section: 'API-NOTES "The password profile record"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  statement: 'data.password_profile_id is the one the request sent.',
  check: (ctx) =>
    // judges: every create POST answering 2xx whose request sent a password_profile_id: the response carries the same
    judgeEach(createsAnswered2xx(ctx), 'no successful create', (ex) => {
      const sent = at(requestJson(ex), 'data', 'password_profile_id');
      if (typeof sent !== 'string') return skip('no password_profile_id sent');
      const got = at(ex.json, 'data', 'password_profile_id');
      return got === sent ? pass : fail(`${describe(ex)}: data.password_profile_id`, sent, got);
    }),
};

const underscoreEcho: Rule = {
  id: 'create.type.underscore-echo',
  family: 'create',
  section: '§2.1',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote: 'The response carries the underscore form. Treat the underscore form as the value on the wire.',
  statement: 'data.type is `user_authentication_password_profile_info` whichever form the request used.',
  check: (ctx) =>
    // judges: every create POST answering 2xx: data.type is the underscore form
    judgeEach(createsAnswered2xx(ctx), 'no successful create', (ex) => {
      const type = at(ex.json, 'data', 'type');
      return type === PROFILE_TYPE ? pass : fail(`${describe(ex)}: data.type`, PROFILE_TYPE, type);
    }),
};

const hyphenAccepted: Rule = {
  id: 'create.type.hyphen-accepted',
  family: 'create',
  section: '§2.1, API-NOTES "The password profile record"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  statement: 'the hyphenated type is accepted on input (201).',
  check: (ctx) =>
    // judges: every valid create POST whose data.type is the hyphen form: status 201
    judgeEach(judgeableCreates(ctx), 'no valid create with the hyphenated type', (ex) => {
      if (!isValidCreate(ex, ctx) || at(requestJson(ex), 'data', 'type') !== PROFILE_TYPE_HYPHEN) return skip('not a hyphen-type create');
      return ex.response.status === 201 ? pass : fail(`${describe(ex)} answered ${ex.response.status}`, 201, ex.response.status);
    }),
};

const timestampsFormat: Rule = {
  id: 'create.timestamps.format',
  family: 'create',
  section: '§2.1',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote: 'meta.created_at: Timestamp, ISO 8601 with milliseconds and a Z suffix (<timestamp>).',
  statement: 'meta.created_at/updated_at are ISO 8601 with milliseconds and `Z` (`YYYY-MM-DDTHH:mm:ss.sssZ`).',
  check: (ctx) =>
    // judges: every create POST answering 2xx: data.meta.created_at and updated_at as YYYY-MM-DDTHH:mm:ss.sssZ
    judgeEach(createsAnswered2xx(ctx), 'no successful create', (ex) => {
      for (const ts of ['created_at', 'updated_at']) {
        const v = at(ex.json, 'data', 'meta', ts);
        if (typeof v !== 'string' || !isIsoMillisZ(v)) return fail(`${describe(ex)}: data.meta.${ts}`, 'YYYY-MM-DDTHH:mm:ss.sssZ', v);
      }
      return pass;
    }),
};

const timestampsEqual: Rule = {
  id: 'create.timestamps.equal',
  family: 'create',
  section: '§2.1',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote: 'meta.updated_at: Timestamp, same format. Equal to created_at on creation.',
  statement: 'created_at equals updated_at on creation.',
  check: (ctx) =>
    // judges: every create POST answering 2xx: data.meta.created_at and updated_at are the same instant
    judgeEach(createsAnswered2xx(ctx), 'no successful create', (ex) => {
      const c = asString(at(ex.json, 'data', 'meta', 'created_at'));
      const u = asString(at(ex.json, 'data', 'meta', 'updated_at'));
      if (c === undefined || u === undefined) return skip('timestamps missing (create.response.fields)');
      const same = c === u || (instantOf(c) !== undefined && instantOf(c) === instantOf(u));
      return same ? pass : fail(`${describe(ex)}: updated_at differs from created_at`, c, u);
    }),
};

const passwordNotReturned: Rule = {
  id: 'create.password.not-returned',
  family: 'create',
  section: '§2.1',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote: 'The password is not returned in the response.',
  statement: 'the password appears nowhere in a successful create response (error answers: password-profile.password-never-returned).',
  check: (ctx) =>
    // judges: every create POST answering 2xx: no `password` member anywhere, nor the request's password text
    judgeEach(createsAnswered2xx(ctx), 'no successful create', (ex) => {
      const leak = passwordLeak(ex);
      return leak === undefined ? pass : fail(`${describe(ex)}: the response carries the password`, 'no password in the response', leak);
    }),
};

/**
 * links.self's path ends with the created record's path, with no /v2 before it. Its origin (and any path
 * in front) is {base_url}, which nothing ties to the address the client typed: a deployment behind a
 * gateway, a CDN or a proxy names its canonical one. So the path is judged, as the rule says, not the origin.
 */
function selfLinkProblem(ex: Exchange): { expected: string; actual: string } | undefined {
  const p = profilePath(pathOf(ex.request.url));
  const id = asString(at(ex.json, 'data', 'id'));
  const link = readLink(at(ex.json, 'links'), 'self');
  if (p === undefined || id === undefined) return undefined;
  const rest = ['authentication-realms', p.realm, 'user-authentication-info', p.uai, 'user-authentication-password-profile-info', id];
  const shown = `/${rest.join('/')}`;
  if (link.kind !== 'url') return { expected: `an absolute URL ending ${shown}`, actual: link.kind === 'bad' ? link.text : `links.self ${link.kind}` };
  const segs = segments(link.url.pathname);
  const tail = segs.slice(-rest.length);
  const ok = tail.join('/') === rest.join('/') && segs[segs.length - rest.length - 1] !== 'v2';
  return ok ? undefined : { expected: `a path ending ${shown} without /v2`, actual: link.url.pathname };
}

const segments = (path: string): string[] =>
  path
    .split('/')
    .filter((s) => s !== '')
    .map(decodeSegment);

const linksSelf: Rule = {
  id: 'create.links.self',
  family: 'create',
  section: '§2.1, §9',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote:
    'The response also has a links object with the member self: a URL (<self_url>) of the created record. Its shape is {base_url}/authentication-realms/<realm_id>/user-authentication-info/<user_authentication_info_id>/user-authentication-password-profile-info/<profile_info_id>. This link carries no /v2 segment.',
  statement: 'links.self is {base_url}/authentication-realms/<realm>/user-authentication-info/<uai>/user-authentication-password-profile-info/<id>, without /v2 (compared as parsed URL path).',
  check: (ctx) =>
    // judges: every create POST answering 2xx: links.self's path ends with the request's realm/uai and data.id, no /v2 before it (its origin is {base_url}'s, not judged)
    judgeEach(createsAnswered2xx(ctx), 'no successful create', (ex) => {
      const problem = selfLinkProblem(ex);
      return problem === undefined ? pass : fail(`${describe(ex)}: links.self`, problem.expected, problem.actual);
    }),
};

const trailingSlash: Rule = {
  id: 'create.path.trailing-slash',
  family: 'create',
  section: '§4.1',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote:
    'Path shape: {base_url}/v2/authentication-realms/<realm_id>/user-authentication-info/<user_authentication_info_id>/user-authentication-password-profile-info (a trailing slash is also used in the request example).',
  statement: 'the create path with a trailing slash creates too (201).',
  check: (ctx) =>
    // judges: every valid create POST whose path ends with '/': status 2xx
    judgeEach(judgeableCreates(ctx), 'no valid create on the trailing-slash path', (ex) => {
      if (!pathOf(ex.request.url).endsWith('/') || !isValidCreate(ex, ctx)) return skip('not a trailing-slash create');
      return is2xx(ex.response.status) ? pass : fail(`${describe(ex)} answered ${ex.response.status}`, 201, ex.response.status);
    }),
};

const minLength: Rule = {
  id: 'create.password.min-length',
  family: 'create',
  section: '§2.1, §8',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote: 'password | Required | string | The password used to authenticate. Minimum 8 characters.',
  statement: 'a password shorter than 8 characters does not create a record (no 2xx); 8 characters is accepted.',
  check: (ctx) =>
    // judges: every create POST with a string password: under 8 characters → no 2xx; exactly 8 in a valid body → 2xx
    judgeEach(createPosts(ctx), 'no create request with a password', (ex): Outcome => {
      const pw = requestPassword(ex);
      if (pw === undefined || sentWithoutAuth(ex)) return skip('no password');
      const n = charCount(pw);
      // Documented verdicts only where code units, code points and graphemes agree on the length.
      if (n === undefined) return skip('the length differs between code units, code points and graphemes');
      const ok2xx = is2xx(ex.response.status);
      if (n < MIN_PASSWORD_LENGTH) return ok2xx ? fail(`${describe(ex)}: a ${n}-character password created a record`, 'no 2xx', ex.response.status) : pass;
      if (n !== MIN_PASSWORD_LENGTH || !isValidCreate(ex, ctx) || isAsideStatus(ex.response.status)) return skip('not the boundary');
      return ok2xx ? pass : fail(`${describe(ex)}: an 8-character password was refused`, '2xx', ex.response.status);
    }),
};

const REQUIRED = ['type', 'password_profile_id', 'username', 'password'];

const requiredFields: Rule = {
  id: 'create.required-fields',
  family: 'create',
  section: '§2.1',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote: 'Fields in a create request (inside a top-level object named data): type (Required), password_profile_id (Required), username (Required), password (Required).',
  statement: 'a request missing any of type, password_profile_id, username, password does not create a record (no 2xx).',
  check: (ctx) =>
    // judges: every create POST whose JSON body lacks data or one of the four fields (absent or null): no 2xx
    judgeEach(createPosts(ctx), 'no create request missing a field', (ex) => {
      const json = requestJson(ex);
      if (json === undefined) return skip('body not JSON');
      const data = at(json, 'data');
      const missing = REQUIRED.filter((f) => at(data, f) === undefined || at(data, f) === null);
      if (missing.length === 0) return skip('nothing missing');
      const ok2xx = is2xx(ex.response.status);
      return ok2xx ? fail(`${describe(ex)}: created without ${missing.join(', ')}`, 'no 2xx', ex.response.status) : pass;
    }),
};

export const createRules: readonly Rule[] = [
  status201,
  responseFields,
  passwordProfileIdEcho,
  underscoreEcho,
  hyphenAccepted,
  timestampsFormat,
  timestampsEqual,
  passwordNotReturned,
  linksSelf,
  trailingSlash,
  minLength,
  requiredFields,
  ...createErrorRules,
];
