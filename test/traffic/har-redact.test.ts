/**
 * What the HAR writer's redaction learns from an entry and gives back (src/traffic/har/redact.ts): a
 * secret member is learned however its name is spelt, a body naming none is passed through as the same
 * text, and the redacted exchange reads as its own text parsed (parsed only when read).
 */
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import { REDACTED } from '../../src/report/redact.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { redactEntry } from '../../src/traffic/har/redact.js';

const entry = (responseBody: string): TrafficEntry => ({
  exchange: toExchange({ method: 'POST', url: '/oauth/access_token', headers: {} }, { status: 200, headers: { 'content-type': 'application/json' }, body: responseBody }),
  origin: 'https://api.test',
  source: 'test',
});

describe('redactEntry', () => {
  it('learns a token from a member whose name is spelt with escapes, and takes it out of the body', () => {
    const body = '{"access_\\u0074oken":"abcdefghijkl123","expires":3600}';
    const { entry: clean, learned } = redactEntry(entry(body), []);
    expect(learned).toEqual(['abcdefghijkl123']);
    expect(clean.exchange.json).toEqual({ access_token: REDACTED, expires: 3600 });
  });

  it('a body that names no secret comes back as the same text, learns nothing, and reads as that text parsed', () => {
    const body = JSON.stringify({ data: [{ id: 'a1', type: 'account', name: 'Jo' }], meta: { page: { limit: 100 } } });
    const { entry: clean, learned } = redactEntry(entry(body), []);
    expect(learned).toEqual([]);
    expect(clean.exchange.response.body).toBe(body);
    expect(clean.exchange.json).toEqual(JSON.parse(body));
  });

  it('a known secret is taken out of a body that names none', () => {
    const body = JSON.stringify({ data: [{ id: 'a1', note: 'sent with abcdefghijkl123 in it' }] });
    const { entry: clean } = redactEntry(entry(body), ['abcdefghijkl123']);
    expect(clean.exchange.response.body).toBe(JSON.stringify({ data: [{ id: 'a1', note: `sent with ${REDACTED} in it` }] }));
  });
});
