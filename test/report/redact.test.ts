import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cut, DEFAULT_MAX_BODY, excerpt, parseJsonPath, REDACTED, redactBody, redactHeaders, redactText, shrinkJson, transcript } from '../../src/report/redact.js';
import { toExchange } from '../../src/port.js';

describe('redactHeaders', () => {
  it('redacts credential headers, keeps the scheme and other headers', () => {
    const out = redactHeaders({
      Authorization: 'Bearer abc.def',
      cookie: 'a=b',
      'x-moltin-customer-token': 'tok',
      'content-type': 'application/json',
    });
    expect(out).toEqual({
      Authorization: `Bearer ${REDACTED}`,
      cookie: REDACTED,
      'x-moltin-customer-token': REDACTED,
      'content-type': 'application/json',
    });
  });

  it('redacts any header that names a token, password, secret, API key or session; keeps the diagnostic ones', () => {
    const out = redactHeaders({
      'set-cookie': 'sid=abc; HttpOnly',
      'x-auth-token': 'tok',
      'X-Refresh-Token': 'tok2',
      'x-api-key': 'k',
      'x-password': 'p',
      'x-client-secret': 's',
      'x-session-id': 'sess',
      'www-authenticate': 'Bearer realm="api"',
      'x-ratelimit-remaining': '9',
    });
    expect(out).toEqual({
      'set-cookie': REDACTED,
      'x-auth-token': REDACTED,
      'X-Refresh-Token': REDACTED,
      'x-api-key': REDACTED,
      'x-password': REDACTED,
      'x-client-secret': REDACTED,
      'x-session-id': REDACTED,
      'www-authenticate': 'Bearer realm="api"',
      'x-ratelimit-remaining': '9',
    });
  });
});

describe('redactBody', () => {
  it('redacts secret members at any depth and keeps the rest', () => {
    const body = JSON.stringify({
      data: [{ type: 'x', password: 'p', nested: { client_secret: 's', token_type: 'Bearer' } }],
      access_token: 't',
      token: 'u',
      password_profile_id: 'keep',
    });
    expect(JSON.parse(redactBody(body))).toEqual({
      data: [{ type: 'x', password: REDACTED, nested: { client_secret: REDACTED, token_type: 'Bearer' } }],
      access_token: REDACTED,
      token: REDACTED,
      password_profile_id: 'keep',
    });
  });

  it('returns the exact bytes when nothing is secret', () => {
    const body = '{ "data" : { "id": 1.0 } }';
    expect(redactBody(body)).toBe(body);
  });

  it('a member named with escapes, or in any case, is still a secret; a list page naming none comes back as the same string', () => {
    expect(JSON.parse(redactBody('{"data":{"p\\u0061ssword":"hunter2222","Access_TOKEN":"t1","name":"n"}}'))).toEqual({ data: { password: REDACTED, Access_TOKEN: REDACTED, name: 'n' } });
    expect(redactBody('{"data":{"pass\\u0077ord":"x"')).toBe(`{"data":{"pass\\u0077ord":"x"`);
    const page = JSON.stringify({
      data: Array.from({ length: 100 }, (_, i) => ({ id: `id-${i}`, type: 'account', meta: { timestamps: { created_at: '2025-01-01T00:00:00.000Z' } } })),
      meta: { page: { limit: 100 } },
    });
    expect(redactBody(page)).toBe(page);
  });

  it('on any JSON, the same as reading it: every member named as a secret replaced, and the text itself when none is', () => {
    // Names a secret member may have, spelt plainly, in another case, or with JSON escapes; and names that are not.
    const SECRET = /^(?:[a-z0-9]+_)*(?:token|password|secret)$/i;
    const names = fc.constantFrom('password', 'PASSWORD', 'access_token', 'client_Secret', 'token_type', 'passwords', 'id', 'name', 'meta', 'data', 'x_secret_y');
    const escaped = (name: string, at: number) =>
      name.slice(0, at % (name.length + 1)) + [...name.slice(at % (name.length + 1))].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null), fc.boolean());
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('tree'), { maxLength: 3 }), fc.array(fc.tuple(names, tie('tree'), fc.nat(12), fc.boolean()), { maxLength: 4 })),
    }));
    // An object's members are written by hand, so that a name may be spelt with escapes.
    const text = (v: unknown): string => {
      if (Array.isArray(v) && v.every((m) => Array.isArray(m) && m.length === 4 && typeof m[0] === 'string' && typeof m[3] === 'boolean')) {
        return `{${(v as [string, unknown, number, boolean][]).map(([k, val, at, esc]) => `"${esc ? escaped(k, at) : k}":${text(val)}`).join(',')}}`;
      }
      if (Array.isArray(v)) return `[${v.map(text).join(',')}]`;
      return JSON.stringify(v);
    };
    const secretsIn = (v: unknown, out: [string, unknown][]): [string, unknown][] => {
      if (Array.isArray(v)) for (const x of v) secretsIn(x, out);
      else if (v !== null && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (SECRET.test(k) && x !== null) out.push([k, x]);
          else secretsIn(x, out);
        }
      }
      return out;
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(names, tree, fc.nat(12), fc.boolean()), { maxLength: 4 }), (members) => {
        const body = text(members);
        const parsed: unknown = JSON.parse(body);
        const out = redactBody(body);
        if (secretsIn(parsed, []).length === 0) {
          expect(out).toBe(body);
          return;
        }
        expect(secretsIn(JSON.parse(out), []).every(([, x]) => x === REDACTED)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('redacts form pairs and JSON cut short', () => {
    expect(redactBody('grant_type=password&username=jo&password=p%21&client_secret=s')).toBe(`grant_type=password&username=jo&password=${REDACTED}&client_secret=${REDACTED}`);
    expect(redactBody('{"data":{"password":"abc\\"def","name":"n"')).toBe(`{"data":{"password":"${REDACTED}","name":"n"`);
  });
});

describe('redactText', () => {
  it('replaces every spelling of each secret, longest first', () => {
    const secret = 'a"b c';
    const text = `raw ${secret} json ${JSON.stringify(secret)} url ${encodeURIComponent(secret)} form a%22b+c`;
    const out = redactText(text, [secret, '', 'b']);
    expect(out).not.toContain('a"b');
    expect(out).not.toContain('a%22b');
    expect(out).toBe(`raw ${REDACTED} json "${REDACTED}" url ${REDACTED} form ${REDACTED}`);
    // Whatever order the secrets come in: the one inside another is replaced after it.
    expect(redactText(text, ['b', secret])).toBe(out);
  });
});

describe('excerpt', () => {
  const page = (n: number) =>
    JSON.stringify({
      data: Array.from({ length: n }, (_, i) => ({ id: `acc-${i}`, type: 'account', name: `name ${i} ${'x'.repeat(300)}` })),
      links: { next: '/v2/accounts?page[offset]=100', current: '/v2/accounts?page[offset]=0' },
      meta: { page: { limit: n, offset: 0, current: 1, total: 9 }, results: { total: 900 } },
    });
  const exchangeOf = (body: string, headers: Record<string, string> = {}) =>
    toExchange({ method: 'GET', url: '/v2/accounts?token=abc&page[limit]=3', headers: { authorization: 'Bearer abc' } }, { status: 200, headers, body });

  it('redacts the request and keeps a whole page of 100 records', () => {
    const body = page(100);
    expect(body.length).toBeGreaterThan(30_000);
    expect(body.length).toBeLessThan(DEFAULT_MAX_BODY);
    const e = excerpt(exchangeOf(body), { secrets: ['abc'] });
    expect(e.url).toBe(`/v2/accounts?token=${REDACTED}&page[limit]=3`);
    expect(e.requestHeaders).toEqual({ authorization: `Bearer ${REDACTED}` });
    expect(e).not.toHaveProperty('requestBody');
    expect(e.responseBody).toBe(body);
    expect(e).not.toHaveProperty('evidence');
    expect(excerpt(exchangeOf(body), { evidence: true }).evidence).toBe(true);
  });

  it('keeps response headers, sorted, secrets redacted, without the clock', () => {
    const e = excerpt(
      exchangeOf('{}', {
        'set-cookie': 'sid=abc; HttpOnly',
        'x-auth-token': 'tok-9',
        location: '/v2/accounts?access_token=abc&x=1',
        date: 'Mon, 23 Nov 2026 06:00:00 GMT',
        'content-type': 'application/json',
      }),
      { secrets: ['tok-9'] },
    );
    expect(e.responseHeaders).toEqual({
      'content-type': 'application/json',
      location: `/v2/accounts?access_token=${REDACTED}&x=1`,
      'set-cookie': REDACTED,
      'x-auth-token': REDACTED,
    });
    expect(transcript(e)).toContain(`HTTP 200\ncontent-type: application/json\nlocation: /v2/accounts?access_token=${REDACTED}&x=1`);
  });

  it('past the cap, a JSON body keeps meta, links, the first and last records and the member a failure read', () => {
    const body = page(100);
    const e = excerpt(exchangeOf(body), { maxBody: 8000, keep: ['$.data[57].id'] });
    expect(e.responseBody.length).toBeLessThanOrEqual(8000);
    const json = JSON.parse(e.responseBody) as { data: unknown[]; meta: unknown; links: unknown };
    const full = JSON.parse(body) as { data: { id: string }[]; meta: unknown; links: unknown };
    expect(json.meta).toEqual(full.meta);
    expect(json.links).toEqual(full.links);
    expect(json.data[0]).toEqual(full.data[0]);
    expect(json.data.at(-1)).toEqual(full.data[99]);
    expect(json.data).toContainEqual(full.data[57]);
    expect(json.data.some((d) => typeof d === 'string' && /^… \d+ more items …$/.test(d))).toBe(true);
  });

  it('when even that is too long, an outline: meta, links and the kept member whole, the rest as sizes', () => {
    const body = page(100);
    const out = JSON.parse(shrinkJson(body, 900, [parseJsonPath('$.data[-1].name') ?? []])) as { data: unknown[]; meta: unknown; links: unknown };
    const full = JSON.parse(body) as { data: { name: string }[]; meta: unknown; links: unknown };
    expect(out.meta).toEqual(full.meta);
    expect(out.links).toEqual(full.links);
    expect(out.data).toEqual(['… 99 more items …', { id: 'acc-99', type: 'account', name: full.data[99]?.name }]);
  });

  it('cuts a long body that is not JSON with a marker', () => {
    const long = 'x'.repeat(DEFAULT_MAX_BODY + 10);
    expect(excerpt(exchangeOf(long)).responseBody).toBe(`${'x'.repeat(DEFAULT_MAX_BODY)}… [10 more chars]`);
  });

  it('parses the JSON paths expectations use', () => {
    expect(parseJsonPath('$.data[57].id')).toEqual(['data', 57, 'id']);
    expect(parseJsonPath('$.meta.page.current')).toEqual(['meta', 'page', 'current']);
    expect(parseJsonPath(`$.data[-1]['self link']`)).toEqual(['data', -1, 'self link']);
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('data.id')).toBeUndefined();
    expect(parseJsonPath('$.data[x]')).toBeUndefined();
  });

  it('never cuts a surrogate pair in half', () => {
    expect(cut('ab😀cd', 3)).toBe('ab… [4 more chars]');
  });
});
