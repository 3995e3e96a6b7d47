import { versioningRules } from '../../src/rules/versioning.js';
import { account, accounts, BASE, CREATE_PATH, ctx, ex, listGet, PROFILE, runFamily, uuid, VARS } from './helpers.js';

const notFound = { errors: [{ status: 404, title: 'Not Found' }] };
const createBody = { data: { type: 'user_authentication_password_profile_info', password_profile_id: PROFILE, username: 'jane', password: 'correct-horse-battery' } };

runFamily('versioning', versioningRules, {
  'versioning.v2-prefix': {
    pass: [
      ctx([listGet(accounts(1, 3), {}), listGet([], { path: '/v2/files' }), listGet([], { path: '/v2/orders' })]),
      ctx([ex('POST', CREATE_PATH, 201, { data: { id: uuid(1) } }, { reqBody: createBody })], VARS),
    ],
    fail: [ctx([ex('GET', '/v2/files', 404, notFound)]), ctx([ex('POST', CREATE_PATH, 404, notFound, { reqBody: createBody })], VARS)],
    skip: [
      ctx([ex('GET', '/v2/files', 401, { errors: [{ status: 401, title: 'Unauthorized' }] }, { auth: 'none' })]),
      ctx([ex('POST', CREATE_PATH.replace('realm-1', 'nope'), 404, notFound, { reqBody: createBody })], VARS),
      ctx([listGet([], { path: '/pcm/catalogs' })]),
      // Item links are not the document's: versioning.item-links-v2 judges them.
      ctx([listGet([account(1, { self: `${BASE}/accounts/${uuid(1)}` })], { path: '/pcm/catalogs' })]),
    ],
  },
  'versioning.item-links-v2': {
    pass: [ctx([listGet(accounts(1, 3), {})])],
    fail: [
      ctx([listGet([account(1, { self: `${BASE}/accounts/${uuid(1)}` })], {})]),
      // Looks like /v2 as text, but the parsed path is /accounts/...: links are judged as URLs.
      ctx([listGet([account(1), account(2, { self: `${BASE}/v2/../accounts/${uuid(2)}` })], {})]),
    ],
    skip: [ctx([listGet([], { path: '/pcm/catalogs' })])],
  },
});
