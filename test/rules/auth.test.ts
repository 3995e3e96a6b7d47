import { authRules } from '../../src/rules/auth.js';
import { CREATE_PATH, ctx, ex, listGet, PROFILE, runFamily, uuid, VARS } from './helpers.js';

const TYPE = 'user_authentication_password_profile_info';
const createBody = { data: { type: TYPE, password_profile_id: PROFILE, username: 'jane', password: 'correct-horse-battery' } };
const unauthorized = { errors: [{ status: 401, title: 'Unauthorized' }] };
const createNoAuth = (status: number, body: unknown) => ex('POST', CREATE_PATH, status, body, { reqBody: createBody, auth: 'none' });
const token = (grant: string, body: unknown, status = 200) =>
  ex('POST', '/oauth/access_token', status, body, { reqBody: `grant_type=${grant}&client_id=abc${grant === 'client_credentials' ? '&client_secret=s3cr3t-value' : ''}` });
const tokenBody = (over: Record<string, unknown> = {}) => ({
  access_token: 'tok-implicit-123',
  token_type: 'Bearer',
  expires: 1_704_070_800,
  expires_in: 3600,
  identifier: 'implicit',
  ...over,
});
const asImplicit = { headers: { Authorization: 'Bearer tok-implicit-123' } };

runFamily('auth', authRules, {
  'auth.required': {
    pass: [ctx([createNoAuth(401, unauthorized)], VARS)],
    fail: [ctx([createNoAuth(201, { data: { id: uuid(1) } })], VARS)],
    skip: [ctx([ex('POST', CREATE_PATH, 201, { data: { id: uuid(1) } }, { reqBody: createBody })], VARS), ctx([ex('GET', '/v2/accounts', 401, unauthorized, { auth: 'none' })])],
  },
  'auth.missing-401': {
    pass: [
      ctx(
        [
          ex('GET', '/v2/accounts', 401, unauthorized, { auth: 'none' }),
          ex('GET', '/v2/accounts', 401, { errors: [{ status: '401', title: 'Unauthorized' }] }, { headers: { authorization: 'Basic abc' } }),
          ex('GET', '/v2/orders', 401, unauthorized, { headers: { Authorization: 'Bearer expired-token' } }),
        ],
        { invalid_token: 'expired-token' },
      ),
    ],
    fail: [
      ctx([ex('GET', '/v2/accounts', 200, { data: [] }, { auth: 'none' })]),
      ctx([ex('GET', '/v2/accounts', 401, { errors: [{ status: 401, title: 'Forbidden' }] }, { auth: 'none' })]),
      ctx([ex('GET', '/v2/accounts', 401, 'Unauthorized', { auth: 'none' })]),
    ],
    skip: [ctx([listGet([], {})]), ctx([ex('POST', '/oauth/access_token', 401, unauthorized, { auth: 'none' })])],
  },
  'auth.token.response': {
    pass: [ctx([token('client_credentials', tokenBody({ identifier: 'client_credentials' }))])],
    fail: [
      ctx([token('client_credentials', { data: tokenBody() })]),
      ctx([token('client_credentials', tokenBody({ expires: 1_704_070_800_000 }))]),
      ctx([token('client_credentials', tokenBody({ token_type: 'mac' }))]),
    ],
    skip: [ctx([token('client_credentials', unauthorized, 401)])],
  },
  'auth.implicit-read-only': {
    pass: [
      ctx([
        token('implicit', tokenBody()),
        ex('GET', '/v2/accounts', 200, { data: [] }, asImplicit),
        ex('POST', '/v2/accounts', 403, { errors: [{ status: 403, title: 'Forbidden' }] }, { ...asImplicit, reqBody: { data: {} } }),
      ]),
    ],
    fail: [
      ctx([token('implicit', tokenBody()), ex('POST', '/v2/accounts', 201, { data: { id: uuid(1) } }, { ...asImplicit, reqBody: { data: {} } })]),
      ctx([token('implicit', tokenBody()), ex('GET', '/v2/accounts', 403, { errors: [{ status: 403, title: 'Forbidden' }] }, asImplicit)]),
    ],
    skip: [ctx([token('client_credentials', tokenBody()), ex('POST', '/v2/accounts', 201, { data: {} }, asImplicit)]), ctx([ex('GET', '/v2/accounts', 200, { data: [] }, asImplicit)])],
  },
});
