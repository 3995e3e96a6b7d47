import { passwordProfileRules } from '../../src/rules/password-profile.js';
import { BASE, CREATE_PATH, ctx, ex, listBody, PROFILE, runFamily, uuid, VARS } from './helpers.js';

const TYPE = 'user_authentication_password_profile_info';
const T0 = '2024-01-01T00:00:00.000Z';
const T1 = '2024-01-01T00:00:05.000Z';
const PASSWORD = 'correct-horse-battery';
const ID = uuid(1);
const ITEM = `${CREATE_PATH}/${ID}`;

const record = (over: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: ID,
  type: TYPE,
  username: 'jane',
  password_profile_id: PROFILE,
  meta: { created_at: T0, updated_at: T0, ...meta },
  links: { self: `${BASE}${ITEM}` },
  ...over,
});

const create = ex('POST', CREATE_PATH, 201, { data: record() }, { reqBody: { data: { type: TYPE, password_profile_id: PROFILE, username: 'jane', password: PASSWORD } } });
const get = (status: number, data?: Record<string, unknown>) => ex('GET', ITEM, status, data === undefined ? { errors: [{ status, title: 'Not Found' }] } : { data });
const put = (reqData: Record<string, unknown>, status: number, data?: Record<string, unknown>) =>
  ex('PUT', ITEM, status, data === undefined ? { errors: [{ status, title: 'Bad Request' }] } : { data }, { reqBody: { data: { type: TYPE, ...reqData } } });
const del = (status: number, body?: unknown) => ex('DELETE', ITEM, status, body);
const list = (records: readonly unknown[], total = records.length, path = CREATE_PATH) => ex('GET', path, 200, listBody(records, { limit: 25, offset: 0, total, path }));

runFamily('password-profile', passwordProfileRules, {
  'password-profile.get': {
    pass: [ctx([create, get(200, record())], VARS), ctx([get(200, record())])],
    fail: [ctx([create, get(404)], VARS), ctx([create, get(200, record({ username: 'john' }))], VARS), ctx([get(200, record({ id: uuid(2) }))])],
    skip: [ctx([get(404)]), ctx([create, del(204), get(404)], VARS)],
  },
  'password-profile.list': {
    pass: [ctx([create, list([record()])], VARS), ctx([list([])], VARS)],
    fail: [
      ctx([create, list([])], VARS),
      ctx([create, ex('GET', CREATE_PATH, 200, { data: [record()] })], VARS),
      ctx([ex('GET', CREATE_PATH, 404, { errors: [{ status: 404, title: 'Not Found' }] })], VARS),
    ],
    skip: [ctx([create], VARS), ctx([ex('GET', CREATE_PATH.replace('realm-1', 'other'), 404, { errors: [{ status: 404, title: 'Not Found' }] })], VARS)],
  },
  'password-profile.update': {
    pass: [ctx([create, put({ username: 'janet' }, 200, record({ username: 'janet' }, { updated_at: T1 }))], VARS)],
    fail: [
      ctx([create, put({ username: 'janet' }, 200, record({}, { updated_at: T1 }))], VARS),
      ctx([create, put({ username: 'janet' }, 200, record({ username: 'janet' }, { created_at: T1, updated_at: T0 }))], VARS),
      ctx([create, put({ username: 'janet' }, 404)], VARS),
    ],
    skip: [ctx([create, put({ password: 'short' }, 400)], VARS), ctx([put({ username: 'x' }, 404)], VARS), ctx([create])],
  },
  'password-profile.delete': {
    pass: [ctx([create, del(204), get(404)], VARS), ctx([del(204)])],
    fail: [ctx([create, del(200, { data: record() })], VARS), ctx([create, del(204), get(200, record())], VARS), ctx([create, del(404)], VARS)],
    skip: [ctx([del(404)]), ctx([create])],
  },
  'password-profile.password-never-returned': {
    pass: [ctx([create, get(200, record()), list([record()])], VARS)],
    fail: [
      ctx([create, get(200, record({ password: PASSWORD }))], VARS),
      ctx([create, list([record({ password: '[hidden]' })])], VARS),
      ctx([ex('PUT', ITEM, 200, { data: record(), note: `set to ${PASSWORD}` }, { reqBody: { data: { type: TYPE, password: PASSWORD } } })], VARS),
    ],
    skip: [ctx([ex('GET', '/v2/accounts', 200, { data: [{ password: 'x' }] })])],
  },
});
