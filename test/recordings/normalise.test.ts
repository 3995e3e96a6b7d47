import { describe, expect, it } from 'vitest';
import { compareExchange } from '../../src/recordings/diff.js';
import type { Fixture } from '../../src/recordings/format.js';
import { features, shapeOf } from '../../src/recordings/normalise.js';
import type { Observation } from '../../src/recordings/record-live.js';

const observe = (url: string, status: number, body: unknown): Observation => ({
  scenario: 's',
  step: 'one',
  stepIndex: 1,
  index: 0,
  rules: ['errors.format'],
  fixture: { case: 'c', rules: [], request: { method: 'GET', url, headers: {} }, response: { status, headers: { 'content-type': 'application/json' }, body } } satisfies Fixture,
});
const at = { scenario: 's', step: 'one', stepIndex: 1, rules: ['pagination.meta.present'] };

const account = (id: string, parent: string | null, created: string) => ({ id, type: 'account', name: `n-${id.slice(0, 4)}`, parent_id: parent, meta: { timestamps: { created_at: created } } });
const page = (data: unknown[], meta: { limit: number; offset: number; current: number; total: number; results: number }, base = 'http://one.test') => ({
  data,
  meta: { page: { limit: meta.limit, offset: meta.offset, current: meta.current, total: meta.total }, results: { total: meta.results } },
  links: {
    current: `${base}/v2/accounts?page[limit]=${meta.limit}&page[offset]=${meta.offset}`,
    first: `${base}/v2/accounts?page[limit]=${meta.limit}&page[offset]=0`,
    last: meta.total > 1 ? `${base}/v2/accounts?page[offset]=${(meta.total - 1) * meta.limit}&page%5Blimit%5D=${meta.limit}` : null,
    next: meta.offset + meta.limit < meta.results ? `${base}/v2/accounts?page[limit]=${meta.limit}&page[offset]=${meta.offset + meta.limit}` : null,
    prev: null,
  },
});
const A = '0b6e7a52-0d4c-4f5e-9d1e-4b1f0f6a1c01';
const B = '7c1e2d33-1e5a-4b6f-8e2f-5c2a1a7b2d02';

describe('shapes', () => {
  it('compares ids and timestamps by form, placeholders as what they replace', () => {
    expect(shapeOf(A)).toBe('uuid');
    expect(shapeOf('<id-12>')).toBe('uuid');
    expect(shapeOf('2025-01-01T00:00:01.000Z')).toBe('timestamp-ms');
    expect(shapeOf('2025-01-01T00:00:01Z')).toBe('timestamp');
    expect(shapeOf('{base_url}/v2/accounts')).toBe('url');
    expect(shapeOf('https://x.test/v2')).toBe('url');
    expect(shapeOf('<access_token>')).toBe('string');
    expect([shapeOf(3), shapeOf(1.5), shapeOf(null), shapeOf(true)]).toEqual(['integer', 'number', 'null', 'boolean']);
  });
});

describe('comparing two exchanges', () => {
  it('finds nothing between two data sets that behave alike (other ids, hosts, totals, link encodings)', () => {
    const x = observe(
      '/v2/accounts?page[limit]=2',
      200,
      page([account(A, null, '2024-01-01T00:00:00.000Z'), account(B, null, '2024-01-02T00:00:00.000Z')], { limit: 2, offset: 0, current: 1, total: 3, results: 5 }),
    );
    const y = observe(
      '/v2/accounts?page[limit]=2',
      200,
      page([account(B, A, '2023-05-01T00:00:00.000Z'), account(A, null, '2023-05-02T00:00:00.000Z')], { limit: 2, offset: 0, current: 1, total: 10, results: 19 }, '{base_url}'),
    );
    const found = compareExchange(x, y, at);
    expect(found.filter((d) => d.kind === 'behaviour')).toEqual([]);
    expect(found.map((d) => [d.kind, d.what])).toEqual([
      ['data', 'meta.results.total'],
      ['data', 'meta.page.total'],
      ['data', 'field data[].parent_id'],
    ]);
  });

  it('reports a page count that breaks its relation to the total, under pagination.page.total', () => {
    const x = observe('/v2/accounts', 200, page([], { limit: 25, offset: 0, current: 1, total: 0, results: 0 }));
    const y = observe('/v2/accounts', 200, {
      ...page([], { limit: 25, offset: 0, current: 1, total: 0, results: 0 }),
      meta: { page: { limit: 25, offset: 0, current: 1, total: 1 }, results: { total: 0 } },
    });
    const found = compareExchange(x, y, at).filter((d) => d.kind === 'behaviour');
    expect(found).toEqual([
      expect.objectContaining({ aspect: 'totals', what: 'meta.page.total = ceil(results.total / limit)', a: 'holds', b: 'fails', rules: ['pagination.page.total', 'pagination.meta.present'] }),
    ]);
  });

  it('takes an error status as number or string alike, and reports another title or a missing detail', () => {
    const err = (status: unknown, title: string, detail?: string) => ({ errors: [{ status, title, ...(detail === undefined ? {} : { detail }) }] });
    expect(compareExchange(observe('/v2/x', 400, err(400, 'Bad Request', 'why')), observe('/v2/x', 400, err('400', 'Bad Request', 'because')), at)).toEqual([]);
    const found = compareExchange(observe('/v2/x', 400, err(400, 'Bad Request', 'why')), observe('/v2/x', 400, err('400', 'Validation Error')), at);
    expect(found.map((d) => [d.kind, d.aspect, d.what, d.a, d.b])).toEqual([
      ['behaviour', 'errors', 'errors[0].title', 'Bad Request', 'Validation Error'],
      ['behaviour', 'errors', 'errors[0].detail', 'present', 'absent'],
    ]);
    const wrongStatus = compareExchange(observe('/v2/x', 400, err(400, 'Bad Request')), observe('/v2/x', 400, err(422, 'Bad Request')), at);
    expect(wrongStatus.map((d) => d.what)).toEqual(['errors[0].status', 'errors[0].status equals the HTTP status']);
  });

  it('reports a member one side lacks, and ordering against the requested sort', () => {
    const rows = [account(A, null, '2024-01-01T00:00:00.000Z'), account(B, null, '2024-01-02T00:00:00.000Z')];
    const meta = { limit: 25, offset: 0, current: 1, total: 1, results: 2 };
    const x = observe('/v2/accounts?sort=-created_at', 200, page([...rows].reverse(), meta));
    const y = observe(
      '/v2/accounts?sort=-created_at',
      200,
      page(
        rows.map(({ parent_id: _drop, ...r }) => r),
        meta,
      ),
    );
    const found = compareExchange(x, y, at).map((d) => [d.aspect, d.what, d.a, d.b, d.rules.join()]);
    expect(found).toEqual([
      ['ordering', 'data sorted by -created_at', 'holds', 'fails', 'sort.descending'],
      ['fields', 'field data[].parent_id', 'null', '(absent)', 'pagination.meta.present'],
    ]);
  });

  it('names a feature after the form of the filter, not its values', () => {
    const keys = (url: string) => features(observe(url, 200, page([], { limit: 25, offset: 0, current: 1, total: 0, results: 0 })).fixture).map((f) => f.key);
    expect(keys(`/v2/accounts?sort=id&filter=gt(id,${A})`)).toEqual(keys(`/v2/accounts?sort=id&filter=gt(id,${B})`));
    expect(keys(`/v2/accounts?sort=id&filter=gt(id,${A})`)).toContain('data satisfies filter gt(id)');
  });

  it('judges a create by the form of its self link and its equal timestamps, under the create rules', () => {
    const path = (id: string) => `/v2/authentication-realms/${A}/user-authentication-info/${B}/user-authentication-password-profile-info${id}`;
    const created = (self: string, updated: string) => ({
      data: { id: A, type: 'user_authentication_password_profile_info', username: 'u', meta: { created_at: '2025-01-01T00:00:01.000Z', updated_at: updated } },
      links: { self },
    });
    const post = (body: unknown): Observation => ({ ...observe(path(''), 201, body), fixture: { ...observe(path(''), 201, body).fixture, request: { method: 'POST', url: path(''), headers: {} } } });
    const good = post(created(`http://one.test${path(`/${A}`).slice(3)}`, '2025-01-01T00:00:01.000Z'));
    const bad = post(created(`{base_url}${path('/<id-1>')}`, '2025-01-01T00:00:01.001Z'));
    const found = compareExchange(good, bad, at).map((d) => [d.what, d.a, d.b, d.rules.join()]);
    expect(found).toEqual([
      [
        'url path links.self',
        '/authentication-realms/{id}/user-authentication-info/{id}/user-authentication-password-profile-info/{id}',
        '/v2/authentication-realms/{id}/user-authentication-info/{id}/user-authentication-password-profile-info/{id}',
        'create.links.self',
      ],
      ['data.meta.updated_at = created_at', 'holds', 'fails', 'create.timestamps.equal'],
    ]);
  });

  it('reads ids inside link paths by shape, renamed or not', () => {
    const list = (realm: string, base: string) => {
      const path = `/v2/authentication-realms/${realm}/user-authentication-info`;
      const body = {
        data: [],
        meta: { page: { limit: 2, offset: 0, current: 1, total: 0 }, results: { total: 0 } },
        links: { current: `${base}${path}?page[limit]=2&page[offset]=0`, first: `${base}${path}?page[limit]=2&page[offset]=0`, last: null, next: null, prev: null },
      };
      return observe(`${path}?page[limit]=2`, 200, body);
    };
    expect(compareExchange(list(A, 'http://one.test'), list('<id-7>', '{base_url}'), at)).toEqual([]);
    expect(compareExchange(list(A, 'http://one.test'), list(B, 'https://two.test:8443'), at)).toEqual([]);
  });
});
