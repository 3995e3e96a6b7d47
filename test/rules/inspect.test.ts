import { describe, expect, it } from 'vitest';
import {
  classifyPageParam,
  clauseHolds,
  documentedListPath,
  errorBodyProblem,
  findKey,
  firstDisorder,
  instantOf,
  isCreatePath,
  linkParam,
  listQuery,
  parseFilterText,
  pathOf,
  profileItem,
  queryParams,
  readLink,
  recordAttr,
} from '../../src/rules/inspect.js';
import { CREATE_PATH } from './helpers.js';

describe('request queries', () => {
  it('reads brackets raw or percent-encoded and + as a space', () => {
    const q = listQuery('/v2/accounts?page%5Blimit%5D=5&page[offset]=10&filter=eq(name,John+Smith)&sort=-created_at');
    expect(q).toEqual({ limit: '5', offset: '10', filter: 'eq(name,John Smith)', sort: '-created_at', conflicting: false });
  });
  it('tells a list parameter given twice with different values apart from a repeat of the same value', () => {
    expect(listQuery('/v2/accounts?page[limit]=5&page%5Blimit%5D=5&sort=id').conflicting).toBe(false);
    expect(listQuery('/v2/accounts?page[limit]=5&page[limit]=10').conflicting).toBe(true);
    expect(listQuery('/v2/accounts?sort=id&sort=-id').conflicting).toBe(true);
    expect(listQuery('/v2/accounts?other=1&other=2').conflicting).toBe(false);
  });
  it('keeps a bad percent sequence as written and repeated names in order', () => {
    expect(queryParams('/x?a=%zz&a=2&b').get('a')).toEqual(['%zz', '2']);
    expect(queryParams('/x?a=%zz&a=2&b').get('b')).toEqual(['']);
  });
  it('takes the path of relative and absolute URLs', () => {
    expect(pathOf('/v2/accounts?x=1')).toBe('/v2/accounts');
    expect(pathOf('https://api.example.com/v2/files/#top')).toBe('/v2/files/');
    expect(pathOf('http://h:1')).toBe('/');
  });
  it('classifies page parameters', () => {
    expect(classifyPageParam('12')).toEqual({ kind: 'whole', value: 12 });
    expect(classifyPageParam('0')).toEqual({ kind: 'whole', value: 0 });
    for (const bad of ['-1', '2.5', 'abc', '1x']) expect(classifyPageParam(bad).kind, bad).toBe('bad');
    for (const unclear of ['', '5.0', '1e2']) expect(classifyPageParam(unclear).kind, unclear).toBe('unclear');
  });
});

describe('links', () => {
  it('parses absolute URLs and compares parameters, not strings', () => {
    const link = readLink({ next: 'http://h/v2/accounts?page%5Boffset%5D=10&page%5Blimit%5D=5' }, 'next');
    expect(link.kind).toBe('url');
    if (link.kind === 'url') {
      expect(linkParam(link.url, 'page[limit]')).toBe('5');
      expect(linkParam(link.url, 'page[offset]')).toBe('10');
    }
    expect(readLink({ next: null }, 'next').kind).toBe('null');
    expect(readLink({}, 'next').kind).toBe('missing');
    expect(readLink({ next: '/v2/accounts' }, 'next').kind).toBe('bad');
    expect(readLink({ next: 5 }, 'next').kind).toBe('bad');
  });
});

describe('error bodies', () => {
  it('accept status as a number or a numeric string', () => {
    expect(errorBodyProblem({ errors: [{ status: 400, title: 'Bad Request' }] }, 400)).toBeUndefined();
    expect(errorBodyProblem({ errors: [{ status: '400', title: 'Bad Request', detail: 'x', source: 'y' }], extra: 1 }, 400)).toBeUndefined();
  });
  it('say what is wrong', () => {
    expect(errorBodyProblem(undefined, 400)).toBe('no non-empty errors array');
    expect(errorBodyProblem({ errors: [{ status: 400 }] }, 400)).toBe('an error without a string title');
    expect(errorBodyProblem({ errors: [{ status: 'bad', title: 't' }] }, 400)).toContain('not a number');
    expect(errorBodyProblem({ errors: [{ status: 404, title: 't' }] }, 400)).toBe('no error with status 400');
  });
});

describe('paths', () => {
  it('recognises the create path with or without a trailing slash, and item paths', () => {
    expect(isCreatePath(CREATE_PATH)).toBe(true);
    expect(isCreatePath(`${CREATE_PATH}/`)).toBe(true);
    expect(isCreatePath(`${CREATE_PATH}?page[limit]=1`)).toBe(true);
    expect(isCreatePath(`${CREATE_PATH}/abc`)).toBe(false);
    expect(profileItem(`${CREATE_PATH}/a%20b`)).toEqual({ realm: 'realm-1', uai: 'uai-1', id: 'a b', trailingSlash: false });
    expect(isCreatePath('/authentication-realms/r/user-authentication-info/u/user-authentication-password-profile-info')).toBe(false);
  });
  it('knows the documented list endpoints', () => {
    expect(documentedListPath('/v2/accounts/')).toBe('/v2/accounts');
    expect(documentedListPath('/v2/accounts/abc')).toBeUndefined();
    expect(documentedListPath('/catalogs/c/releases/r/hierarchies/h/children')).toBe('/catalogs/{catalog}/releases/{release}/hierarchies/{id}/children');
    expect(documentedListPath('/v2/pcm/jobs')).toBe('/pcm/jobs');
    expect(documentedListPath('/v2/rule-promotions/p/codes/c/usages')).toBe('/v2/rule-promotions/{id}/codes/{code}/usages');
  });
});

describe('records', () => {
  it('reads timestamps under meta.timestamps (accounts) or meta (authentication records)', () => {
    expect(recordAttr({ meta: { timestamps: { created_at: 'a' } } }, 'created_at')).toBe('a');
    expect(recordAttr({ meta: { created_at: 'b' } }, 'created_at')).toBe('b');
    expect(recordAttr({ external_ref: null }, 'external_ref')).toBeNull();
    expect(recordAttr({ tags: ['x'] }, 'tags')).toBeUndefined();
  });
  it('finds a member anywhere', () => {
    expect(findKey({ data: [{ id: 1 }, { meta: { password: 'x' } }] }, 'password')).toBe('data[1].meta.password');
    expect(findKey({ data: { password_profile_id: 'p' } }, 'password')).toBeUndefined();
  });
});

describe('filter text and values', () => {
  it('parses clauses, quotes and timestamps', () => {
    expect(parseFilterText('eq(name,"a,b")')).toEqual({ ok: true, value: [{ op: 'eq', field: 'name', values: ['a,b'] }] });
    const two = parseFilterText('ge(created_at,2024-01-01T00:00:00.000Z):in(id,a,b,c)');
    expect(two.ok && two.value.map((c) => [c.op, c.values.length])).toEqual([
      ['ge', 1],
      ['in', 3],
    ]);
    expect(parseFilterText('is_null(external_ref)').ok).toBe(true);
  });
  it('refuses clearly broken text', () => {
    for (const bad of ['foo(x,1)', 'eq(name', 'eq(name,1)x', 'eq(,1)', 'gt(id)', 'eq(name,"open)', 'nothing']) expect(parseFilterText(bad).ok, bad).toBe(false);
  });
  it('compares timestamps by instant, a space standing for + in the offset', () => {
    expect(instantOf('2024-01-01T01:00:00 01:00')).toBe(instantOf('2024-01-01T00:00:00.000Z'));
    expect(instantOf('2024-01-01')).toBe(BigInt(Date.UTC(2024, 0, 1)) * 1_000_000n);
    // Every fraction digit counts: a microsecond apart is not the same instant.
    expect(instantOf('2024-01-01T00:00:00.000001Z')).toBe(BigInt(Date.UTC(2024, 0, 1)) * 1_000_000n + 1_000n);
    expect(instantOf('2024-02-30T00:00:00Z')).toBeUndefined();
    expect(clauseHolds('2024-01-01T00:00:00.000Z', { op: 'ge', field: 'created_at', values: ['2024-01-01T01:00:00+01:00'] })).toBe(true);
    expect(clauseHolds('2024-01-01T00:00:00.000Z', { op: 'gt', field: 'created_at', values: ['2024-01-01T01:00:00+01:00'] })).toBe(false);
  });
  it('evaluates the other operators', () => {
    expect(clauseHolds('Account 005', { op: 'like', field: 'name', values: ['Acc*5'] })).toBe(true);
    expect(clauseHolds('Account 005', { op: 'ilike', field: 'name', values: ['acc*'] })).toBe(true);
    expect(clauseHolds('Account 005', { op: 'contains', field: 'name', values: ['unt'] })).toBe(true);
    expect(clauseHolds(null, { op: 'is_null', field: 'x', values: [] })).toBe(true);
    expect(clauseHolds(null, { op: 'eq', field: 'x', values: ['a'] })).toBe(false);
    expect(clauseHolds(undefined, { op: 'eq', field: 'x', values: ['a'] })).toBeUndefined();
  });
  it('accepts any common collation for text order, none for a real disorder', () => {
    expect(firstDisorder('name', ['apple', 'Banana', 'cherry'], 'asc')).toBeUndefined();
    expect(firstDisorder('name', ['b', 'a'], 'asc')).toBe(1);
    expect(firstDisorder('created_at', ['2024-01-01T00:00:02Z', '2024-01-01T00:00:01.000Z'], 'desc')).toBeUndefined();
  });
});
