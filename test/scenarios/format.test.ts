import { describe, expect, it } from 'vitest';
import { interpolate, interpolateString, missingReason, templateRefs } from '../../src/scenarios/format.js';
import { buildUrl, encodeQueryValue, resolveRequest } from '../../src/scenarios/request.js';

const values = { vars: { realm_id: 'r-1', base_url: 'http://x' }, captures: { last_id: 'abc', n: 7, obj: { a: 1 } } };

describe('interpolate', () => {
  it('replaces vars and captures inside strings, with or without spaces', () => {
    expect(interpolateString('/realms/${{ vars.realm_id }}/x/${{captures.last_id}}', values)).toEqual({ ok: true, value: '/realms/r-1/x/abc' });
    expect(interpolateString('n=${{ captures.n }}', values)).toEqual({ ok: true, value: 'n=7' });
  });

  it('keeps the value itself when a string is a single template', () => {
    expect(interpolate('${{ captures.n }}', values)).toEqual({ ok: true, value: 7 });
    expect(interpolate({ data: { page_length: '${{ captures.n }}', id: 'id-${{ captures.last_id }}' } }, values)).toEqual({
      ok: true,
      value: { data: { page_length: 7, id: 'id-abc' } },
    });
  });

  it('walks arrays and objects and leaves other values alone', () => {
    expect(interpolate([1, true, null, ['${{ vars.realm_id }}']], values)).toEqual({ ok: true, value: [1, true, null, ['r-1']] });
  });

  it('names the first unknown variable or capture', () => {
    expect(interpolate({ a: ['x', '${{ vars.password_profile_id }}'] }, values)).toEqual({ ok: false, missing: { scope: 'vars', name: 'password_profile_id' } });
    expect(interpolateString('${{ captures.nope }}', values)).toEqual({ ok: false, missing: { scope: 'captures', name: 'nope' } });
    expect(missingReason({ scope: 'vars', name: 'realm_id' })).toBe("needs variable 'realm_id' (give it with --var realm_id=...)");
  });

  it('lists template references in order', () => {
    expect(templateRefs({ p: '${{ vars.a }}/${{ captures.b }}', q: ['${{ vars.c }}'] })).toEqual([
      { scope: 'vars', name: 'a' },
      { scope: 'captures', name: 'b' },
      { scope: 'vars', name: 'c' },
    ]);
  });
});

describe('requests', () => {
  it('appends the query raw: brackets unencoded, filter grammar readable, the rest encoded', () => {
    expect(
      buildUrl('/v2/accounts', [
        ['page[limit]', '5'],
        ['filter', 'ge(created_at,2024-01-01T00:00:00.000Z):eq(name,a b&c)'],
        ['sort', '-id'],
      ]),
    ).toBe('/v2/accounts?page[limit]=5&filter=ge(created_at,2024-01-01T00:00:00.000Z):eq(name,a%20b%26c)&sort=-id');
    expect(encodeQueryValue('like(name,*x*)')).toBe('like(name,*x*)');
    expect(buildUrl('/x?a=1', [['b', '2']])).toBe('/x?a=1&b=2');
  });

  it('sends JSON bodies with a content type, raw bodies as is, and auth none', () => {
    const spec = {
      method: 'POST',
      path: '/v2/r/${{ vars.realm_id }}',
      query: [['page[limit]', 5] as const],
      headers: {},
      auth: 'none' as const,
      body: { kind: 'json' as const, value: { data: { id: '${{ captures.last_id }}' } } },
    };
    expect(resolveRequest(spec, values)).toEqual({
      ok: true,
      value: { method: 'POST', url: '/v2/r/r-1?page[limit]=5', headers: { 'content-type': 'application/json' }, body: '{"data":{"id":"abc"}}', auth: 'none' },
    });
    const raw = resolveRequest({ ...spec, headers: { 'content-type': 'text/plain' }, body: { kind: 'raw', text: 'not json' } }, values);
    expect(raw.ok && raw.value.body).toBe('not json');
    expect(raw.ok && raw.value.headers).toEqual({ 'content-type': 'text/plain' });
  });
});
