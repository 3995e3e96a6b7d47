/** Links for the origin the client used: behind a proxy that says it (Forwarded, X-Forwarded-Host/-Proto), the simulator builds them on it. */
import { describe, expect, it } from 'vitest';
import { forwardedOrigin } from '../../src/sim/forwarded.js';
import { at, harness, str } from './helpers.js';

describe('links for the origin the client used', () => {
  it('reads Forwarded first, then X-Forwarded-Host and -Proto; keeps its own origin for anything malformed', () => {
    const own = 'http://127.0.0.1:4747';
    expect(forwardedOrigin({}, own)).toBe(own);
    expect(forwardedOrigin({ 'x-forwarded-host': 'shop.example.com', 'x-forwarded-proto': 'https' }, own)).toBe('https://shop.example.com');
    expect(forwardedOrigin({ 'x-forwarded-host': 'proxy.test:4748' }, own)).toBe('http://proxy.test:4748');
    expect(forwardedOrigin({ forwarded: 'for=1.2.3.4;host="gw.example.com:8443";proto=https, for=10.0.0.1;host=inner', 'x-forwarded-host': 'ignored.test' }, own)).toBe('https://gw.example.com:8443');
    expect(forwardedOrigin({ 'x-forwarded-host': 'a.test, b.test' }, own)).toBe('http://a.test');
    expect(forwardedOrigin({ 'x-forwarded-host': '[::1]:4748' }, own)).toBe('http://[::1]:4748');
    for (const bad of ['evil.test/path', 'a b', 'x.test@y', '', 'h.test:99999999']) expect(forwardedOrigin({ 'x-forwarded-host': bad }, own), bad).toBe(own);
    expect(forwardedOrigin({ 'x-forwarded-host': 'ok.test', 'x-forwarded-proto': 'javascript' }, own)).toBe(own);
  });

  it('list links and the create’s self link are built on the forwarded origin', () => {
    const h = harness();
    const headers = { 'x-forwarded-host': 'proxy.test:4748', 'x-forwarded-proto': 'http' };
    const list = h.get('/v2/accounts?page[limit]=2', { headers });
    expect(str(list.json, 'links.next')).toMatch(/^http:\/\/proxy\.test:4748\/v2\/accounts\?/);
    expect(String(at(list.json, 'data.0.links.self'))).toMatch(/^http:\/\/proxy\.test:4748\/v2\/accounts\//);
    const plain = h.get('/v2/accounts?page[limit]=2');
    expect(str(plain.json, 'links.next')).toMatch(/^http:\/\/127\.0\.0\.1:4747\//);
  });
});
