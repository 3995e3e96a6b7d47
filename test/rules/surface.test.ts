import { describe, expect, it } from 'vitest';
import { judgeRule } from '../../src/rules/judge.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { classifyRequest, documentedListUrl, gapsFor } from '../../src/rules/surface.js';
import type { Exchange } from '../../src/port.js';

const create = '/v2/authentication-realms/r1/user-authentication-info/u1/user-authentication-password-profile-info';
const covered = (method: string, url: string, body?: string) => classifyRequest({ method, url, ...(body === undefined ? {} : { body }) }).gaps.map((g) => g.coveredBy);

describe('the documented surface', () => {
  it('takes the documented list reads and the create, nothing else', () => {
    expect(classifyRequest({ method: 'GET', url: '/v2/accounts?page[limit]=100&page[offset]=9999&sort=id&filter=gt(id,abc)' }).inside).toBe(true);
    // At exactly 10,000 a page is documented, its refusal is not (within the limit or just past it).
    const edge = classifyRequest({ method: 'GET', url: '/v2/accounts?page[offset]=10000' });
    expect(gapsFor(edge, 'pagination.results.total', 200)).toEqual([]);
    expect(gapsFor(edge, 'pagination.offset-limit.soft', 400).map((g) => g.coveredBy)).toEqual(['pagination.offset-limit.soft-400']);
    expect(classifyRequest({ method: 'GET', url: '/v2/orders?page%5Blimit%5D=3' }).inside).toBe(true);
    expect(classifyRequest({ method: 'POST', url: `${create}/`, body: '{"data":{"type":"user_authentication_password_profile_info"}}' }).inside).toBe(true);
    expect(covered('GET', '/v2/customers')).toEqual(['pagination.endpoints.public-paths']);
    expect(covered('POST', '/v2/accounts')).toEqual(['accounts.writes']);
    expect(covered('PUT', '/v2/settings')).toEqual(['settings.page-length']);
    expect(covered('DELETE', `${create}/abc`)).toEqual(['password-profile.delete']);
  });

  it('names each undocumented part of a query with its covering assumed rule', () => {
    expect(covered('GET', '/v2/accounts?filter=in(id,a,b)')).toEqual(['filter.operators']);
    expect(covered('GET', '/v2/accounts?filter=gt(id,X):like(legal_name,*)')).toEqual(['filter.and', 'filter.operators', 'filter.attributes']);
    expect(covered('GET', '/v2/accounts?sort=-created_at')).toEqual(['sort.descending']);
    expect(covered('GET', '/v2/accounts?sort=name')).toEqual(['sort.attributes']);
    expect(covered('GET', '/v2/accounts?page[limit]=0')).toEqual(['pagination.params.invalid-400']);
    expect(covered('GET', '/v2/accounts?page[offset]=10001')).toEqual(['pagination.offset-limit.soft-400']);
    // Past the hard limit only "no records" is documented: inside for that rule alone, the answer's kind is not shown.
    expect(covered('GET', '/v2/orders?page[offset]=10001')).toEqual(['pagination.offset-limit.hard-400']);
    const past = classifyRequest({ method: 'GET', url: '/v2/orders?page[offset]=10001' });
    expect(gapsFor(past, 'pagination.offset-limit.hard', 200)).toEqual([]);
    expect(gapsFor(past, 'pagination.results.total', 200)).toHaveLength(1);
    // Above 100 a page holds at most 100 records, whatever it is (documented); a refusal of it is not shown.
    const above = classifyRequest({ method: 'GET', url: '/v2/accounts?page[limit]=150' });
    expect(gapsFor(above, 'pagination.limit.max', 200)).toEqual([]);
    expect(gapsFor(above, 'pagination.offset-limit.soft', 400).map((g) => g.coveredBy)).toEqual(['pagination.limit.clamp']);
    // A timestamp compared with text that is no instant: what a deployment does with it is not shown.
    expect(covered('GET', '/v2/accounts?filter=gt(created_at,x)')).toEqual(['filter.invalid-400']);
    expect(covered('GET', '/v2/accounts?filter=ge(created_at,2026-01-01T00:00:00.000Z)')).toEqual([]);
    expect(covered('POST', create, '{"data":{"type":"user-authentication-password-profile-info"}}')).toEqual(['create.type.hyphen-accepted']);
    expect(covered('POST', create, '{"data":')).toEqual(['create.errors.malformed-json-400']);
    expect(classifyRequest({ method: 'GET', url: '/v2/accounts', auth: 'none' }).gaps.map((g) => g.coveredBy)).toEqual(['auth.missing-401']);
    expect(classifyRequest({ method: 'POST', url: create, auth: 'none' }).inside).toBe(true);
  });

  it('builds documented queries that it classifies as inside', () => {
    const url = documentedListUrl('/v2/accounts', { limit: 100, sort: 'created_at', filter: { op: 'ge', attribute: 'created_at', value: '2026-01-01T00:00:00.000+01:00' } });
    expect(classifyRequest({ method: 'GET', url }).inside).toBe(true);
  });
});

describe('judgeRule', () => {
  const exchange = (url: string, status: number, body: unknown): Exchange => ({
    request: { method: 'GET', url },
    response: { status, headers: {}, body: JSON.stringify(body) },
    json: body,
  });
  const rule = ruleById('pagination.page.total');
  if (rule === undefined) throw new Error('no rule');
  const broken = { data: [{ id: 'a' }], meta: { page: { limit: 25, offset: 0, current: 1, total: 7 }, results: { total: 1 } } };

  it('lets a documented failure stand on documented requests', () => {
    const [own] = judgeRule(rule, { exchanges: [exchange('/v2/accounts', 200, broken)], vars: {} });
    expect(own?.outcome.status).toBe('fail');
  });

  it('makes it inconclusive on an undocumented request and hands the observation to the covering assumed rule', () => {
    const out = judgeRule(rule, { exchanges: [exchange('/v2/accounts?filter=in(id,a)', 200, broken)], vars: {} });
    expect(out.map((j) => [j.ruleId, j.outcome.status])).toEqual([
      ['pagination.page.total', 'inconclusive'],
      ['filter.operators', 'fail'],
    ]);
  });
});
