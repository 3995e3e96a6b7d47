/**
 * The client rules in ESLint's shape (issue 34): each is `meta` and `create(context)`, created once for each
 * client the judge follows, its listeners holding that client's state and reporting through the context.
 * What could break: a rule's state shared between clients (one client's 429 excusing or failing another's
 * request), a wait asked twice, the bound on what a rule remembers, a listener the judge never asks.
 */
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import { clientRules } from '../../src/traffic/client-rules/catalogue.js';
import { retryAfter } from '../../src/traffic/client-rules/retry.js';
import type { ClientOutcome, RequestContext } from '../../src/traffic/client-rules/rule.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { createTrafficJudge } from '../../src/traffic/judge/judge.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');

function request(url: string, status: number, sentAt: number, retryAfterSeconds?: string): RequestContext {
  const headers: Record<string, string> = retryAfterSeconds === undefined ? {} : { 'retry-after': retryAfterSeconds };
  const entry: TrafficEntry = { exchange: toExchange({ method: 'GET', url, headers: {} }, { status, headers, body: '{}' }), origin: 'https://api.test', source: url };
  return { ex: entry.exchange, entry, sentAt };
}

/** The retry rule created for one client: what it reports on each request, in order (undefined: nothing). */
function retryClient(): (ctx: RequestContext) => ClientOutcome | undefined {
  let said: ClientOutcome | undefined;
  const listeners = retryAfter.create({ report: (o) => (said = o) });
  return (ctx) => {
    said = undefined;
    listeners.request?.(ctx);
    return said;
  };
}

describe('client rules in ESLint shape', () => {
  it('each rule is meta and create, and create gives at least one of the three listeners and nothing else', () => {
    for (const rule of clientRules) {
      const listeners = rule.create({ report: () => undefined });
      const names = Object.keys(listeners);
      expect(names.length, rule.meta.id).toBeGreaterThan(0);
      expect(
        names.filter((n) => !['request', 'next', 'end'].includes(n)),
        rule.meta.id,
      ).toEqual([]);
      for (const n of names) expect(typeof (listeners as Record<string, unknown>)[n], `${rule.meta.id} ${n}`).toBe('function');
    }
  });

  it("the retry rule's waits are its client's own: another client's 429 neither excuses nor fails this one", () => {
    const a = retryClient();
    const b = retryClient();
    expect(a(request('/v2/accounts', 429, T0, '5'))).toBeUndefined();
    // B never got a 429: its request at once is judged by nothing.
    expect(b(request('/v2/accounts', 200, T0 + 1_000))).toBeUndefined();
    expect(a(request('/v2/accounts', 200, T0 + 1_000))).toEqual({
      status: 'fail',
      message: 'GET /v2/accounts: sent again 4 s before Retry-After allowed',
      expected: 'not before 2025-06-01T12:00:05.000Z',
      actual: '2025-06-01T12:00:01.000Z',
    });
    // Asked once: the same request again is judged by nothing until another 429.
    expect(a(request('/v2/accounts', 200, T0 + 2_000))).toBeUndefined();
    expect(a(request('/v2/accounts', 429, T0 + 3_000, '1'))).toBeUndefined();
    expect(a(request('/v2/accounts', 200, T0 + 4_000))).toEqual({ status: 'pass' });
  });

  it('only a 429 asks to wait: a 503 with Retry-After, or a 429 without a readable one, leaves nothing to judge', () => {
    const a = retryClient();
    a(request('/v2/accounts', 503, T0, '5'));
    expect(a(request('/v2/accounts', 200, T0 + 1_000))).toBeUndefined();
    a(request('/v2/accounts', 429, T0 + 2_000, 'soon'));
    expect(a(request('/v2/accounts', 200, T0 + 2_500))).toBeUndefined();
  });

  it('a request without a time is not judged, and leaves the wait in place', () => {
    const a = retryClient();
    a(request('/v2/accounts', 429, T0, '5'));
    const untimed = request('/v2/accounts', 200, T0);
    expect(a({ ...untimed, sentAt: undefined })).toBeUndefined();
    expect(a(request('/v2/accounts', 200, T0 + 6_000))).toEqual({ status: 'pass' });
  });

  it('remembers 256 requests a 429 answered; the next one forgets them (bounded state)', () => {
    const kept = retryClient();
    kept(request('/v2/accounts?x=0', 429, T0, '5'));
    for (let i = 1; i < 256; i++) kept(request(`/v2/accounts?x=${i}`, 429, T0, '5'));
    expect(kept(request('/v2/accounts?x=0', 200, T0 + 1_000))?.status).toBe('fail');
    const forgot = retryClient();
    forgot(request('/v2/accounts?x=0', 429, T0, '5'));
    for (let i = 1; i <= 256; i++) forgot(request(`/v2/accounts?x=${i}`, 429, T0, '5'));
    expect(forgot(request('/v2/accounts?x=0', 200, T0 + 1_000))).toBeUndefined();
  });

  it('through the judge, one client per credential: only the client that was asked to wait fails', () => {
    const judge = createTrafficJudge();
    const entry = (token: string, status: number, sentAt: number): TrafficEntry => ({
      exchange: toExchange(
        { method: 'GET', url: '/v2/accounts?page[limit]=3', headers: { authorization: `Bearer ${token}` } },
        { status, headers: status === 429 ? { 'retry-after': '5' } : { 'content-type': 'application/json' }, body: status === 429 ? '{"errors":[{"status":"429"}]}' : '{"data":[]}' },
      ),
      origin: 'https://api.test',
      source: `${token} ${sentAt}`,
      startedAt: new Date(sentAt).toISOString(),
    });
    for (const e of [entry('a', 429, T0), entry('b', 200, T0 + 500), entry('a', 200, T0 + 1_000)]) judge.observe(e);
    const found = judge.finish().findings.filter((f) => f.ruleId === 'client.retry.retry-after');
    expect(found.map((f) => [f.status, f.evidence])).toEqual([['fail', ['a 1748779201000']]]);
  });
});
