/**
 * The client rules at their boundaries and down each branch, on traffic written out by hand: a value
 * exactly at a limit and one past it, each way a rule may pass, fail or say nothing. Expected verdicts
 * come from the rule's own sentence (its statement and evidence), never from its code: offset 10,000 is
 * within "past offset 10,000"; a page that holds what results.total says is the whole list; a resume point
 * exactly 10 s before the answer's Date is "no later than its Date less 10 s".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import { clientRules } from '../../src/traffic/client-rules/catalogue.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { createTrafficJudge, type TrafficResult } from '../../src/traffic/judge/judge.js';
import { retryUntil } from '../../src/traffic/client-rules/retry.js';

interface Rec {
  readonly id: string;
  readonly at?: string;
}

/** A list answer of these records (created_at and updated_at both `at`); `limit` undefined leaves meta.page.limit out. */
function page(records: readonly Rec[], meta: { limit?: number; offset?: number; total?: number }): string {
  return JSON.stringify({
    data: records.map((r) => ({ id: r.id, type: 'account', meta: { timestamps: { created_at: r.at ?? '2025-01-01T00:00:00.000Z', updated_at: r.at ?? '2025-01-01T00:00:00.000Z' } } })),
    meta: {
      page: { ...(meta.limit === undefined ? {} : { limit: meta.limit }), offset: meta.offset ?? 0, current: 1, total: 1 },
      results: { total: meta.total ?? records.length },
    },
  });
}

let n = 0;
/** One exchange of client `token` (default client-a): `method` (GET) `url`, answered `status` (200) with `body`, sent at `sentAt` (ms), answered with `date`. */
function ex(
  url: string,
  body: string,
  o: { method?: string; token?: string; status?: number; sentAt?: number; date?: string; headers?: Record<string, string>; requestBody?: string } = {},
): TrafficEntry {
  n++;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(o.date === undefined ? {} : { date: o.date }), ...(o.headers ?? {}) };
  return {
    exchange: toExchange(
      {
        method: o.method ?? 'GET',
        url,
        headers: { authorization: `Bearer ${o.token ?? 'client-a'}`, ...(o.requestBody === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(o.requestBody === undefined ? {} : { body: o.requestBody }),
      },
      { status: o.status ?? 200, headers, body },
    ),
    origin: 'https://api.test',
    source: `entry ${n}`,
    ...(o.sentAt === undefined ? {} : { startedAt: new Date(o.sentAt).toISOString() }),
  };
}

function judged(entries: readonly TrafficEntry[]): TrafficResult {
  const judge = createTrafficJudge();
  for (const e of entries) judge.observe(e);
  return judge.finish();
}

/** A rule's counts: passed, failed, inconclusive. */
const counts = (r: TrafficResult, id: string): [number, number, number] => {
  const t = r.tallies.get(id);
  return [t?.passed ?? 0, t?.failed ?? 0, t?.inconclusive ?? 0];
};
const PASSED: [number, number, number] = [1, 0, 0];
const FAILED: [number, number, number] = [0, 1, 0];
const INCONCLUSIVE: [number, number, number] = [0, 0, 1];
const SILENT: [number, number, number] = [0, 0, 0];
const messages = (r: TrafficResult, id: string) => r.findings.filter((f) => f.ruleId === id).map((f) => f.message);

const ids = (from: number, count: number): Rec[] => Array.from({ length: count }, (_, i) => ({ id: `a${String(from + i).padStart(4, '0')}` }));
const other = () => ex('/v2/settings', '{}');

describe('the offset limits of §8 at offset 10,000', () => {
  it('client.offset.hard-limit: /v2/orders and /v2/files at page[offset]=10000 pass, at 10001 fail', () => {
    for (const path of ['/v2/orders', '/v2/files']) {
      expect(counts(judged([ex(`${path}?page[offset]=10000`, page([], { limit: 25, offset: 10_000 }))]), 'client.offset.hard-limit'), path).toEqual(PASSED);
      const past = judged([ex(`${path}?page[offset]=10001`, '{"errors":[{"status":400}]}', { status: 400 })]);
      expect(counts(past, 'client.offset.hard-limit'), path).toEqual(FAILED);
      expect(messages(past, 'client.offset.hard-limit'), path).toEqual([`GET ${path}?page[offset]=10001: offset 10001 on ${path}`]);
      // The hard paths are the hard rule's alone.
      expect(counts(past, 'client.offset.soft-limit'), path).toEqual(SILENT);
    }
  });

  it('client.offset.soft-limit: another paginated path at page[offset]=10000 passes, at 10001 fails (assumed); page[offset]=0 is no offset asked', () => {
    expect(counts(judged([ex('/v2/accounts?page[offset]=10000', page([], { limit: 25, offset: 10_000 }))]), 'client.offset.soft-limit')).toEqual(PASSED);
    const past = judged([ex('/v2/accounts?page[offset]=10001', page([], { limit: 25, offset: 10_001 }))]);
    expect(counts(past, 'client.offset.soft-limit')).toEqual(FAILED);
    expect(past.findings.filter((f) => f.ruleId === 'client.offset.soft-limit').map((f) => f.level)).toEqual(['assumed']);
    expect(counts(past, 'client.offset.hard-limit')).toEqual(SILENT);
    expect(counts(judged([ex('/v2/accounts?page[offset]=0', page([], { limit: 25 }))]), 'client.offset.soft-limit')).toEqual(SILENT);
  });

  it('only a GET pages: a POST to /v2/orders or /v2/accounts with page[offset]=10001 in its URL is neither rule’s', () => {
    for (const path of ['/v2/orders', '/v2/accounts']) {
      const post = judged([ex(`${path}?page[offset]=10001`, '{"data":{}}', { method: 'POST', status: 201, requestBody: '{"data":{}}' })]);
      expect([counts(post, 'client.offset.hard-limit'), counts(post, 'client.offset.soft-limit')], path).toEqual([SILENT, SILENT]);
    }
  });
});

describe('client.limit.clamped-stop (assumed): one read that asked above 100 and read no further', () => {
  it('got fewer than asked and results.total says one more remains: fails', () => {
    const r = judged([ex('/v2/accounts?page[limit]=150', page(ids(1, 100), { limit: 100, total: 101 })), other()]);
    expect(counts(r, 'client.limit.clamped-stop')).toEqual(FAILED);
    expect(messages(r, 'client.limit.clamped-stop')).toEqual(['GET /v2/accounts?page[limit]=150: asked page[limit]=150, got 100 of 101 and read no further']);
  });

  it('results.total equal to what it was sent (the whole list): passes', () => {
    expect(counts(judged([ex('/v2/accounts?page[limit]=150', page(ids(1, 100), { limit: 100, total: 100 })), other()]), 'client.limit.clamped-stop')).toEqual(PASSED);
    // Further on by page[offset]: what it saw counts the records before its page.
    expect(counts(judged([ex('/v2/accounts?page[limit]=150&page[offset]=50', page(ids(51, 100), { limit: 100, offset: 50, total: 150 })), other()]), 'client.limit.clamped-stop')).toEqual(PASSED);
  });

  it('got exactly as many as it asked (a server that grants 150): nothing to say', () => {
    expect(counts(judged([ex('/v2/accounts?page[limit]=150', page(ids(1, 150), { limit: 150, total: 400 })), other()]), 'client.limit.clamped-stop')).toEqual(SILENT);
  });

  it('asked exactly 100, the maximum: nothing to say; nor when the traffic ends after the page', () => {
    expect(counts(judged([ex('/v2/accounts?page[limit]=100', page(ids(1, 60), { limit: 100, total: 400 })), other()]), 'client.limit.clamped-stop')).toEqual(SILENT);
    expect(counts(judged([ex('/v2/accounts?page[limit]=150', page(ids(1, 100), { limit: 100, total: 400 }))]), 'client.limit.clamped-stop')).toEqual(SILENT);
  });
});

describe('client.limit.clamped: moving page[offset] on by the limit asked, not the one granted', () => {
  const first = (meta: { limit?: number; total: number }, count = 100) => ex('/v2/accounts?sort=id&page[limit]=150', page(ids(1, count), meta));
  const second = (total: number) => ex('/v2/accounts?sort=id&page[limit]=150&page[offset]=150', page(ids(151, 0), { limit: 100, offset: 150, total }));

  it('records lie between the granted page and the next offset: fails, counting them; none do (results.total reached): passes', () => {
    const one = judged([first({ limit: 100, total: 101 }), second(101)]);
    expect(counts(one, 'client.limit.clamped')).toEqual(FAILED);
    expect(messages(one, 'client.limit.clamped')).toEqual([
      'GET /v2/accounts?sort=id&page[limit]=150&page[offset]=150: asked page[limit]=150, was granted 100, and moved page[offset] on by 150: 1 record (101 to 101) skipped',
    ]);
    expect(counts(judged([first({ limit: 100, total: 100 }), second(100)]), 'client.limit.clamped')).toEqual(PASSED);
  });

  it('granted shown only by a full page of 100 (no meta.page.limit): fails the same; a page of 99 shows no grant: nothing to say', () => {
    expect(counts(judged([first({ total: 400 }), second(400)]), 'client.limit.clamped')).toEqual(FAILED);
    expect(counts(judged([first({ total: 400 }, 99), second(400)]), 'client.limit.clamped')).toEqual(SILENT);
  });

  it('asked no more than it was granted: nothing to say', () => {
    const asked100 = ex('/v2/accounts?sort=id&page[limit]=100', page(ids(1, 100), { limit: 100, total: 400 }));
    expect(counts(judged([asked100, ex('/v2/accounts?sort=id&page[limit]=100&page[offset]=100', page(ids(101, 100), { limit: 100, offset: 100, total: 400 }))]), 'client.limit.clamped')).toEqual(
      SILENT,
    );
  });
});

describe('client.keyset.sort-matches-filter: the page the value came from is sorted by the attribute too', () => {
  const next = ex('/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0005)', page(ids(6, 3), { limit: 3, total: 4 }));

  it('the previous page sorted by another attribute, or by id descending: fails, naming that page', () => {
    for (const sort of ['created_at', '-id']) {
      const prev = ex(`/v2/accounts?sort=${sort}&page[limit]=3`, page([{ id: 'a0009' }, { id: 'a0002' }, { id: 'a0005' }], { limit: 3, total: 9 }));
      const r = judged([prev, next]);
      expect(counts(r, 'client.keyset.sort-matches-filter'), sort).toEqual(FAILED);
      expect(messages(r, 'client.keyset.sort-matches-filter'), sort).toEqual([
        `GET /v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0005): carries the last id of GET /v2/accounts?sort=${sort}&page[limit]=3, a page not sorted by id`,
      ]);
    }
  });

  it('both pages sorted by id: passes', () => {
    const prev = ex('/v2/accounts?sort=id&page[limit]=3', page(ids(3, 3), { limit: 3, total: 9 }));
    expect(counts(judged([prev, next]), 'client.keyset.sort-matches-filter')).toEqual(PASSED);
  });
});

describe('client.offset.changing-data (assumed): an offset walk over a list that changes', () => {
  const p1 = ex('/v2/accounts?page[limit]=3', page(ids(1, 3), { limit: 3, total: 9 }));
  const p2 = () => ex('/v2/accounts?page[limit]=3&page[offset]=3', page(ids(4, 3), { limit: 3, offset: 3, total: 9 }));
  const write = (path: string, token = 'client-a') =>
    ex(path, JSON.stringify({ data: { id: 'new', type: 'account' } }), { method: 'POST', status: 201, token, requestBody: JSON.stringify({ data: { type: 'account', name: 'n' } }) });

  it("the client's own write to that list between two pages (results.total unchanged): fails", () => {
    const r = judged([p1, write('/v2/accounts'), p2()]);
    expect(counts(r, 'client.offset.changing-data')).toEqual(FAILED);
    expect(messages(r, 'client.offset.changing-data')).toEqual(['GET /v2/accounts?page[limit]=3&page[offset]=3: the client wrote to this list between two pages of an offset walk']);
  });

  it('a write to another list, or by another client (traffic not known complete), between the pages: passes', () => {
    expect(counts(judged([p1, write('/v2/customers'), p2()]), 'client.offset.changing-data')).toEqual(PASSED);
    expect(counts(judged([p1, write('/v2/accounts', 'client-b'), p2()]), 'client.offset.changing-data')).toEqual(PASSED);
  });
});

describe('client.sync.buffer (assumed): a walk read to its end resumed below its answer’s Date less 10 s', () => {
  const date = 'Fri, 20 Nov 2026 10:00:10 GMT';
  /** A walk by updated_at read to its end, its newest value `at`, answered at `date`; then resumed at `at`. */
  const resumedAt = (at: string) =>
    judged([
      ex(`/v2/accounts?sort=updated_at&page[limit]=3`, page([{ id: 'a0001', at }], { limit: 3, total: 1 }), { date }),
      ex(`/v2/accounts?sort=updated_at&page[limit]=3&filter=ge(updated_at,${at})&page[offset]=0`, page([{ id: 'a0001', at }], { limit: 3, total: 1 })),
    ]);

  it('exactly 10 s before the Date passes ("no later than its Date less 10 s"); a millisecond later fails', () => {
    expect(counts(resumedAt('2026-11-20T10:00:00.000Z'), 'client.sync.buffer')).toEqual(PASSED);
    const inside = resumedAt('2026-11-20T10:00:00.001Z');
    expect(counts(inside, 'client.sync.buffer')).toEqual(FAILED);
    expect(inside.findings.find((f) => f.ruleId === 'client.sync.buffer')).toMatchObject({ status: 'fail', expected: 'a resume point at or before 2026-11-20T10:00:00.000Z' });
  });

  it('without a Date on the answer, nothing to say', () => {
    const at = '2026-11-20T10:00:00.000Z';
    const r = judged([
      ex(`/v2/accounts?sort=updated_at&page[limit]=3&filter=ge(updated_at,${at})`, page([{ id: 'a0001', at }], { limit: 3, total: 1 })),
      ex(`/v2/accounts?sort=updated_at&page[limit]=3&filter=ge(updated_at,${at})&page[offset]=0`, page([{ id: 'a0001', at }], { limit: 3, total: 1 })),
    ]);
    expect(counts(r, 'client.sync.buffer')).toEqual(SILENT);
  });
});

describe('client.keyset.id-stop: an id walk ends at an empty page', () => {
  const p1 = ex('/v2/accounts?sort=id&page[limit]=3', page(ids(1, 3), { limit: 3, total: 5 }));
  const short = ex('/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0003)', page(ids(4, 2), { limit: 3, total: 2 }));

  it('stopped at a short page and the traffic ends there: inconclusive (whether it read on is not in the traffic)', () => {
    expect(counts(judged([p1, short]), 'client.keyset.id-stop')).toEqual(INCONCLUSIVE);
  });

  it('stopped at a full page, then something else: the client chose to stop, nothing to say', () => {
    const full = ex('/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0003)', page(ids(4, 3), { limit: 3, total: 6 }));
    expect(counts(judged([p1, full, other()]), 'client.keyset.id-stop')).toEqual(SILENT);
  });

  it('one filtered read (no step from a page before it): a query, not a walk, nothing to say', () => {
    expect(counts(judged([ex('/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0003)', page(ids(4, 2), { limit: 3, total: 2 })), other()]), 'client.keyset.id-stop')).toEqual(SILENT);
  });
});

describe('client.retry.retry-after (assumed): the same request again no sooner than Retry-After allows', () => {
  const t0 = Date.UTC(2026, 10, 20, 10);
  const refused = (headers: Record<string, string>) => ex('/v2/accounts?page[limit]=3', '{"errors":[{"status":429}]}', { status: 429, sentAt: t0, headers });
  const again = (sentAt: number, url = '/v2/accounts?page[limit]=3') => ex(url, page(ids(1, 3), { limit: 3 }), { sentAt });

  it('Retry-After in seconds: exactly at the time passes, a millisecond before fails', () => {
    expect(counts(judged([refused({ 'retry-after': '5' }), again(t0 + 5_000)]), 'client.retry.retry-after')).toEqual(PASSED);
    const early = judged([refused({ 'retry-after': '5' }), again(t0 + 4_999)]);
    expect(counts(early, 'client.retry.retry-after')).toEqual(FAILED);
    expect(messages(early, 'client.retry.retry-after')).toEqual(['GET /v2/accounts?page[limit]=3: sent again 0 s before Retry-After allowed']);
  });

  it('Retry-After as an HTTP date: at it passes, a second before fails', () => {
    const until = { 'retry-after': 'Fri, 20 Nov 2026 10:00:30 GMT' };
    expect(counts(judged([refused(until), again(t0 + 30_000)]), 'client.retry.retry-after')).toEqual(PASSED);
    expect(counts(judged([refused(until), again(t0 + 29_000)]), 'client.retry.retry-after')).toEqual(FAILED);
  });

  it('Retry-After is delay-seconds (digits only, RFC 9110 §10.2.3) or an HTTP date; anything else asks no wait', () => {
    expect(retryUntil(' 15 ', t0)).toBe(t0 + 15_000);
    expect(retryUntil('Fri, 20 Nov 2026 10:00:30 GMT', t0)).toBe(t0 + 30_000);
    for (const value of [undefined, '15s', 'x15', 'soon']) expect(retryUntil(value, t0), String(value)).toBeUndefined();
    // Two digits: 15 s, not a date of the year 2015 long past (a retry 5 s later is early).
    expect(counts(judged([refused({ 'retry-after': '15' }), again(t0 + 5_000)]), 'client.retry.retry-after')).toEqual(FAILED);
  });

  it('another request meanwhile is not the same request: nothing to say', () => {
    expect(counts(judged([refused({ 'retry-after': '5' }), again(t0 + 1_000, '/v2/accounts?page[limit]=4')]), 'client.retry.retry-after')).toEqual(SILENT);
  });
});

describe('the document behind each client rule', () => {
  it("every documented client rule quotes commerce-api.md in the document's own words; an assumed one quotes nothing and says why it is assumed", () => {
    const spec = readFileSync(new URL('../../docs/commerce-api.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const { meta: rule } of clientRules) {
      expect(rule.statement.length, rule.id).toBeGreaterThan(20);
      expect(rule.evidence.length, rule.id).toBeGreaterThan(20);
      if (rule.level === 'assumed') {
        expect(rule.quote, rule.id).toBeUndefined();
        continue;
      }
      const quote = rule.quote ?? '';
      expect(quote.length, rule.id).toBeGreaterThan(20);
      // Each sentence-long run of the quote (table cells joined with ' | ' or ': ') stands in the document as written.
      const runs = quote
        .split(/(?<=\.) | \| |: /)
        .map((t) => t.replace(/[.;]$/, '').trim())
        .filter((t) => t.length >= 12);
      expect(runs.length, rule.id).toBeGreaterThan(0);
      expect(
        runs.filter((run) => !spec.includes(run)),
        rule.id,
      ).toEqual([]);
    }
  });
});
