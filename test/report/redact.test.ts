import { describe, expect, it } from 'vitest';
import { cut, excerpt, REDACTED, redactBody, redactHeaders, redactText } from '../../src/report/redact.js';
import { toExchange } from '../../src/target/types.js';

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
    expect(redactBody('grant_type=password&username=jo&password=p%21&client_secret=s')).toBe(
      `grant_type=password&username=jo&password=${REDACTED}&client_secret=${REDACTED}`,
    );
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
  it('builds a redacted excerpt and cuts long bodies with a marker', () => {
    const long = JSON.stringify({ data: 'x'.repeat(3000) });
    const e = excerpt(
      toExchange(
        { method: 'GET', url: '/v2/accounts?token=abc&page[limit]=3', headers: { authorization: 'Bearer abc' } },
        { status: 200, headers: {}, body: long },
      ),
      { secrets: ['abc'] },
    );
    expect(e.url).toBe(`/v2/accounts?token=${REDACTED}&page[limit]=3`);
    expect(e.requestHeaders).toEqual({ authorization: `Bearer ${REDACTED}` });
    expect(e).not.toHaveProperty('requestBody');
    expect(e.responseBody.startsWith(long.slice(0, 2000))).toBe(true);
    expect(e.responseBody).toContain(`… [${long.length - 2000} more chars]`);
  });

  it('never cuts a surrogate pair in half', () => {
    expect(cut('ab😀cd', 3)).toBe('ab… [4 more chars]');
  });
});
