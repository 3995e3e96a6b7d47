import { errorRules } from '../../src/rules/error-answers.js';
import { ctx, ex, listGet, runFamily } from './helpers.js';

runFamily('errors', errorRules, {
  'errors.format': {
    pass: [
      ctx([
        ex('GET', '/v2/nowhere', 404, { errors: [{ status: 404, title: 'Not Found', detail: 'no route' }] }),
        ex('PATCH', '/v2/accounts', 405, { errors: [{ status: '405', title: 'Method Not Allowed', source: 'method' }], extra: true }),
        ex('HEAD', '/v2/nowhere', 404),
      ]),
    ],
    fail: [
      ctx([ex('GET', '/v2/nowhere', 404, 'Not Found')]),
      ctx([ex('GET', '/v2/nowhere', 404, { errors: [{ status: 400, title: 'Bad Request' }] })]),
      ctx([ex('GET', '/v2/nowhere', 404, { errors: [{ status: 'four', title: 'Not Found' }] })]),
      ctx([ex('GET', '/v2/nowhere', 404, { errors: [{ status: 404 }] })]),
      ctx([ex('GET', '/v2/nowhere', 404, { errors: [] })]),
    ],
    skip: [ctx([listGet([], {})]), ctx([ex('GET', '/v2/accounts', 500, 'boom')])],
  },
  'errors.no-5xx': {
    pass: [ctx([ex('POST', '/v2/accounts', 413, { errors: [{ status: 413, title: 'Payload Too Large' }] }, { reqBody: 'x'.repeat(100) }), listGet([], {})])],
    fail: [ctx([ex('POST', '/v2/accounts', 500, 'Internal Server Error', { reqBody: '{junk' })]), ctx([ex('GET', '/v2/accounts', 503, '')])],
    skip: [ctx([])],
  },
});
