/**
 * Each defect a third, independently written server found in the kit's verdicts, reproduced by hand:
 * what a conforming deployment may answer where the document is silent must not fail a documented rule,
 * and a broken one must still be caught.
 */
import { describe, expect, it } from 'vitest';
import { judgeRule } from '../../src/rules/judge.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { pageMeta, recordAttr, sameValue } from '../../src/rules/inspect.js';
import type { Rule } from '../../src/rules/rule.js';
import { account, ctx, ex, listBody, uuid, CREATE_PATH, VARS } from '../rules/helpers.js';

const rule = (id: string): Rule => {
  const r = ruleById(id);
  if (r === undefined) throw new Error(id);
  return r;
};
const statusOf = (id: string, exchanges: Parameters<typeof ctx>[0], vars = {}) => judgeRule(rule(id), ctx(exchanges, vars))[0]?.outcome.status;

describe('instants are compared at full precision', () => {
  const at = (us: string) => `2025-01-01T00:00:00.${us}Z`;
  it('tells microseconds apart within one millisecond', () => {
    expect(sameValue('created_at', at('777055'), at('777058'))).toBe(false);
    expect(sameValue('created_at', at('777055'), at('777055000'))).toBe(true);
  });

  it('passes gt and ge on records a few microseconds past the value', () => {
    const records = [account(1, { created: at('777056') }), account(2, { created: at('777058') })];
    const page = ex('GET', `/v2/accounts?sort=created_at&filter=gt(created_at,${at('777055')})`, 200, listBody(records, { limit: 25, offset: 0, total: 2 }));
    expect(statusOf('filter.gt', [page])).toBe('pass');
    // A record at .777054 is not greater than .777055, though it is in the same millisecond.
    const wrong = ex('GET', `/v2/accounts?filter=gt(created_at,${at('777055')})`, 200, listBody([account(3, { created: at('777054') })], { limit: 25, offset: 0, total: 1 }));
    expect(statusOf('filter.gt', [wrong])).toBe('fail');
  });
});

describe('one verdict per exchange where rules overlap', () => {
  // Past the hard limit "what a request does: not shown" (§8): 200 with no records and the true total conforms.
  const past = ex('GET', '/v2/orders?page[limit]=25&page[offset]=10050', 200, listBody([], { limit: 25, offset: 10050, total: 10200, path: '/v2/orders' }));
  it('judges a read past the hard offset limit by the hard limit alone', () => {
    expect(statusOf('pagination.offset-limit.hard', [past])).toBe('pass');
    expect(statusOf('pagination.results.total', [past])).toBe('inconclusive');
  });
});

describe('a refusal is charged only to a rule whose probe varied nothing else outside the surface', () => {
  it('does not charge page[limit]=101 refused to the soft offset limit', () => {
    const refused = ex('GET', '/v2/accounts?page[limit]=101&page[offset]=0', 400, { errors: [{ status: 400, title: 'Bad Request' }] });
    expect(statusOf('pagination.offset-limit.soft', [refused])).not.toBe('fail');
  });
  it('still charges a refused offset within the limit with a page length up to 100', () => {
    const refused = ex('GET', '/v2/accounts?page[limit]=100&page[offset]=500', 400, { errors: [{ status: 400, title: 'Bad Request' }] });
    expect(statusOf('pagination.offset-limit.soft', [refused])).toBe('fail');
  });
});

describe('shapes the document leaves open are found wherever they are', () => {
  const numbers = { page: { limit: '25', offset: '0', current: '0', total: '1' }, results: { total: '2' } };
  it('reads page and results nested three levels deep, as numeric strings', () => {
    const body = { data: [account(1), account(2)], pagination: { info: { paging: numbers } } };
    expect(pageMeta(body)).toMatchObject({ limit: 25, offset: 0, current: 0, total: 1, resultsTotal: 2 });
    expect(statusOf('pagination.meta.present', [ex('GET', '/v2/accounts', 200, body)])).toBe('pass');
    expect(statusOf('pagination.results.total', [ex('GET', '/v2/accounts', 200, body)])).toBe('pass');
  });
  it('reads page and results apart (one at the top, one under meta)', () => {
    const body = { data: [], page: numbers.page, meta: { results: { total: 0 } } };
    expect(statusOf('pagination.meta.present-when-empty', [ex('GET', '/v2/accounts', 200, body)])).toBe('pass');
  });
  it('finds record timestamps under attributes, beside id, under meta or meta.timestamps', () => {
    const t = '2025-01-01T00:00:00.123456Z';
    for (const r of [
      { id: 'a', attributes: { created_at: t } },
      { id: 'a', created_at: t },
      { id: 'a', meta: { created_at: t } },
      { id: 'a', meta: { timestamps: { created_at: t } } },
    ]) {
      expect(recordAttr(r, 'created_at')).toBe(t);
    }
    expect(recordAttr({ id: 'a', attributes: { name: 'Acme' } }, 'name')).toBe('Acme');
  });
  it('judges "Minimum 8 characters" only where code units, code points and graphemes agree', () => {
    // 8 code points, 4 user-perceived characters: a deployment counting either way conforms.
    const combining = 'e\u0301e\u0301e\u0301e\u0301';
    const create = (password: string, status: number) =>
      ex('POST', CREATE_PATH, status, status === 201 ? { data: { id: uuid(1) } } : { errors: [{ status, title: 'Unprocessable' }] }, {
        reqBody: { data: { type: 'user_authentication_password_profile_info', username: 'u', password, password_profile_id: 'pp-1' } },
      });
    expect(statusOf('create.password.min-length', [create(combining, 422)], VARS)).toBe('skip');
    expect(statusOf('create.status.201', [create(combining, 422)], VARS)).toBe('skip');
    expect(statusOf('create.password.min-length', [create('abcdefg', 201)], VARS)).toBe('fail');
    expect(statusOf('create.password.min-length', [create('abcdefgh', 422)], VARS)).toBe('fail');
  });
});

describe('each exchange is judged on its own merits', () => {
  it('keeps a clear failure on documented reads though later reads in the same step are outside the surface', () => {
    const page = (offset: number, from: number, count: number) =>
      ex(
        'GET',
        `/v2/accounts?page[limit]=50&page[offset]=${offset}`,
        200,
        listBody(
          Array.from({ length: count }, (_, i) => account(from + i)),
          { limit: 50, offset, total: 20000 },
        ),
      );
    const wide = ex(
      'GET',
      '/v2/accounts?page[limit]=100',
      200,
      listBody(
        Array.from({ length: 100 }, (_, i) => account(i)),
        { limit: 100, offset: 0, total: 20000 },
      ),
    );
    // The page at offset 50 repeats records 0..49 (the offset ignored): a documented failure ...
    const repeat = page(50, 0, 50);
    // ... and the walk goes on past the soft limit, where nothing is documented.
    const beyond = page(10050, 10050, 50);
    expect(statusOf('pagination.offset.records', [wide, repeat, beyond])).toBe('fail');
  });
});
