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
