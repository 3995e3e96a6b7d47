import { createRules } from '../../src/rules/password-profile-create.js';
import { BASE, CREATE_PATH, ctx, ex, PROFILE, REALM, runFamily, UAI, uuid, VARS, type ExOptions } from './helpers.js';

const UNDERSCORE = 'user_authentication_password_profile_info';
const HYPHEN = 'user-authentication-password-profile-info';
const T = '2024-01-01T00:00:00.000Z';
const PASSWORD = 'correct-horse-battery';

const body = (over: Record<string, unknown> = {}): unknown => ({
  data: { type: UNDERSCORE, password_profile_id: PROFILE, username: 'jane', password: PASSWORD, ...over },
});

const selfOf = (id: string, prefix = ''): string => `${BASE}${prefix}/authentication-realms/${REALM}/user-authentication-info/${UAI}/user-authentication-password-profile-info/${id}`;

function created(over: Record<string, unknown> = {}, meta: Record<string, unknown> = {}, self = selfOf(uuid(1))): unknown {
  return {
    data: { id: uuid(1), type: UNDERSCORE, username: 'jane', password_profile_id: PROFILE, meta: { created_at: T, updated_at: T, ...meta }, ...over },
    links: { self },
  };
}

const err = (status: number | string, detail?: string): unknown => ({ errors: [{ status, title: 'Bad Request', ...(detail === undefined ? {} : { detail }) }] });

const create = (reqBody: unknown, status: number, resBody: unknown, opts: ExOptions & { path?: string } = {}) => ex('POST', opts.path ?? CREATE_PATH, status, resBody, { reqBody, ...opts });

const ok = create(body(), 201, created());
const short = create(body({ password: 'short12' }), 400, err(400, "Validation failed: field 'Password' on the 'min' tag."));
const otherRealm = CREATE_PATH.replace(REALM, 'no-such-realm');

runFamily('create', createRules, {
  'create.status.201': {
    // The second create repeats the first one's username: refusing it is no failure (§7 shows no errors).
    pass: [ctx([ok], VARS), ctx([ok]), ctx([ok, create(body(), 422, err(422, 'username taken'))], VARS)],
    fail: [ctx([create(body(), 200, created())], VARS)],
    skip: [
      ctx([short], VARS),
      ctx([create(body(), 404, err(404), { path: otherRealm })], VARS),
      ctx([create(body(), 401, err(401), { auth: 'none' })]),
      // Whether usernames may repeat is not shown (§7): a duplicate refused with 409 or 422 conforms.
      ctx([create(body(), 409, err(409))], VARS),
      // Sent as text/plain, or without a Content-Type and refused with 415: whether the body is read anyway is not shown.
      ctx([create(body(), 415, err(415), { headers: { 'content-type': 'text/plain' } })], VARS),
      ctx([create(body(), 415, err(415))], VARS),
      ctx([create(body(), 422, err(422))], { ...VARS, usernames_used: new Set([`${CREATE_PATH}\u0000${(body() as { data: { username: string } }).data.username}`]) }),
    ],
  },
  'create.response.fields': {
    // §2.1 does not say password_profile_id is an echo: another identifier is fine here.
    pass: [ctx([ok]), ctx([create(body(), 201, created({ password_profile_id: 'pp-other' }))])],
    fail: [ctx([create(body(), 201, created({ username: undefined }))]), ctx([create(body(), 201, created({ username: 'john' }))]), ctx([create(body(), 201, created({ id: '42' }))])],
    skip: [ctx([short]), ctx([])],
  },
  'create.password-profile-id.echo': {
    pass: [ctx([ok])],
    fail: [ctx([create(body(), 201, created({ password_profile_id: 'pp-other' }))])],
    skip: [ctx([short])],
  },
  'create.type.underscore-echo': {
    pass: [ctx([ok]), ctx([create(body({ type: HYPHEN }), 201, created())])],
    fail: [ctx([create(body({ type: HYPHEN }), 201, created({ type: HYPHEN }))])],
    skip: [ctx([short])],
  },
  'create.type.hyphen-accepted': {
    pass: [ctx([create(body({ type: HYPHEN }), 201, created())], VARS)],
    fail: [ctx([create(body({ type: HYPHEN }), 400, err(400))], VARS)],
    skip: [ctx([ok], VARS)],
  },
  'create.timestamps.format': {
    pass: [ctx([ok])],
    fail: [ctx([create(body(), 201, created({}, { created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z' }))])],
    skip: [ctx([short])],
  },
  'create.timestamps.equal': {
    pass: [ctx([ok])],
    fail: [ctx([create(body(), 201, created({}, { updated_at: '2024-01-01T00:00:00.001Z' }))])],
    skip: [ctx([short])],
  },
  'create.password.not-returned': {
    pass: [ctx([ok])],
    fail: [ctx([create(body(), 201, created({ password: PASSWORD }))])],
    // Error answers are not "the response" of §2.1: password-profile.password-never-returned judges them.
    skip: [ctx([ex('GET', '/v2/accounts', 200, { data: [] })]), ctx([short]), ctx([create(body(), 400, err(400, `password ${PASSWORD} rejected`))])],
  },
  'create.links.self': {
    pass: [
      ctx([ok], VARS),
      ctx([ok]),
      ctx([create(body(), 201, created({}, {}, selfOf(uuid(1)).replace('uai-1', 'uai%2D1')))], VARS),
      // {base_url} is the deployment's: behind a gateway or a CDN its canonical origin, not the one the client typed (§2.1).
      ctx([create(body(), 201, created({}, {}, selfOf(uuid(1)).replace(BASE, 'https://api.canonical.example/commerce')))], VARS),
    ],
    fail: [
      ctx([create(body(), 201, created({}, {}, selfOf(uuid(1), '/v2')))], VARS),
      ctx([create(body(), 201, created({}, {}, selfOf(uuid(1), '/v2')))]),
      ctx([create(body(), 201, created({}, {}, selfOf(uuid(2))))], VARS),
      ctx([create(body(), 201, created({}, {}, '/authentication-realms/x'))], VARS),
    ],
    skip: [ctx([short], VARS)],
  },
  'create.path.trailing-slash': {
    pass: [ctx([create(body(), 201, created(), { path: `${CREATE_PATH}/` })], VARS)],
    fail: [ctx([create(body(), 404, err(404), { path: `${CREATE_PATH}/` })], VARS)],
    skip: [ctx([ok], VARS)],
  },
  'create.password.min-length': {
    pass: [ctx([short], VARS), ctx([create(body({ password: '12345678' }), 201, created())], VARS)],
    fail: [ctx([create(body({ password: '123456' }), 201, created())], VARS), ctx([create(body({ password: '12345678' }), 400, err(400))], VARS)],
    skip: [
      ctx([create('{"data":', 400, err(400))], VARS),
      ctx([create(body({ password: '123456789' }), 201, created())], VARS),
      // An 8-character password refused because its username was created before: a duplicate, not the length.
      ctx([ok, create(body({ password: '12345678' }), 422, err(422))], VARS),
    ],
  },
  'create.required-fields': {
    pass: [ctx([create(body({ password_profile_id: undefined }), 400, err(400))]), ctx([create({}, 400, err(400))])],
    fail: [ctx([create(body({ password_profile_id: undefined }), 201, created())])],
    skip: [ctx([ok]), ctx([create('{"data":', 400, err(400))])],
  },
  'create.errors.validation-400': {
    pass: [ctx([short], VARS), ctx([create(body({ type: 'account' }), 400, err('400'))], VARS), ctx([create({ nodata: true }, 400, err(400))])],
    fail: [ctx([create(body({ password: 'short12' }), 422, err(422))], VARS), ctx([create(body({ username: 7 }), 400, { message: 'bad' })], VARS)],
    skip: [ctx([ok], VARS), ctx([create(body({ password: 'short12' }), 404, err(404), { path: otherRealm })], VARS)],
  },
  'create.errors.malformed-json-400': {
    pass: [ctx([create('{"data": {', 400, err(400))], VARS)],
    fail: [ctx([create('{"data": {', 500, 'oops')], VARS), ctx([create('{"data": {', 400, err(422))], VARS)],
    skip: [ctx([ok], VARS), ctx([create('', 400, err(400))], VARS)],
  },
  'create.errors.unknown-parent-404': {
    pass: [ctx([create(body(), 404, { errors: [{ status: 404, title: 'Not Found', detail: 'Resource not found' }] }, { path: otherRealm })], VARS)],
    fail: [
      ctx([create(body(), 201, created(), { path: otherRealm })], VARS),
      ctx([create(body(), 404, { errors: [{ status: 404, title: 'Not Found', detail: 'Realm exploded' }] }, { path: otherRealm })], VARS),
    ],
    skip: [ctx([create(body(), 404, err(404), { path: otherRealm })]), ctx([ok], VARS)],
  },
});
