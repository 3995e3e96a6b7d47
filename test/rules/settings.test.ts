import { settingsRules } from '../../src/rules/settings.js';
import { ctx, ex, runFamily } from './helpers.js';

const put = (n: unknown, status: number, body: unknown) => ex('PUT', '/v2/settings', status, body, { reqBody: { data: { type: 'settings', page_length: n } } });
const settings = (n: number) => ({ data: { type: 'settings', page_length: n, page_offset_limit: 10000, filter_limit: 10 } });
const err = { errors: [{ status: 400, title: 'Bad Request', detail: 'page_length must be between 1 and 100' }] };

runFamily('settings', settingsRules, {
  'settings.page-length': {
    pass: [ctx([put(50, 200, settings(50)), put(1, 200, settings(1)), put(100, 200, settings(100)), put(0, 400, err), put(101, 400, err), put(2.5, 400, err)])],
    fail: [ctx([put(50, 200, settings(25))]), ctx([put(101, 200, settings(101))]), ctx([put(0, 400, { message: 'no' })]), ctx([put(10, 204, '')])],
    skip: [ctx([put('50', 400, err)]), ctx([ex('GET', '/v2/settings', 200, settings(25))]), ctx([put(50, 401, { errors: [{ status: 401, title: 'Unauthorized' }] })])],
  },
});
