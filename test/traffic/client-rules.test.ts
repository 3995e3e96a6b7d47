/**
 * Every client rule, documented or assumed, on traffic written out by hand: the exchange (or two) that
 * breaks it fails it, and the same conduct done right passes it. The judge is the one `check` runs; the
 * answers are shaped as the public API shapes them (meta.page, meta.results, meta.timestamps).
 */
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import { clientRules } from '../../src/traffic/client-rules/catalogue.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { createTrafficJudge, type TrafficResult } from '../../src/traffic/judge/judge.js';
import { rules } from '../../src/cli/rules.js';
import { CLIENT_RULE_IDS } from '../../src/rules/ids.js';
import { captureIo } from '../support/cli-io.js';

interface Rec {
  readonly id: string;
  readonly at?: string;
}

/** A list answer of these records (created_at and updated_at both `at`), with the page meta a server sends. */
function page(records: readonly Rec[], meta: { limit: number; offset?: number; total?: number }): string {
  return JSON.stringify({
    data: records.map((r) => ({ id: r.id, type: 'account', meta: { timestamps: { created_at: r.at ?? '2025-01-01T00:00:00.000Z', updated_at: r.at ?? '2025-01-01T00:00:00.000Z' } } })),
    meta: { page: { limit: meta.limit, offset: meta.offset ?? 0, current: 1, total: 1 }, results: { total: meta.total ?? records.length } },
  });
}

let n = 0;
/** One exchange of the client `token`: a GET answering `body`, sent at `sentAt` (ms), answered with `date`. */
function get(url: string, body: string, o: { token?: string; status?: number; sentAt?: number; date?: string; headers?: Record<string, string> } = {}): TrafficEntry {
  n++;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(o.date === undefined ? {} : { date: o.date }), ...(o.headers ?? {}) };
  return {
    exchange: toExchange({ method: 'GET', url, headers: { authorization: `Bearer ${o.token ?? 'client-a'}` } }, { status: o.status ?? 200, headers, body }),
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

const failed = (r: TrafficResult, id: string) => r.findings.filter((f) => f.ruleId === id && f.status === 'fail');
const tally = (r: TrafficResult, id: string) => r.tallies.get(id) ?? { passed: 0, failed: 0, inconclusive: 0, skipped: 0 };

const ids = (from: number, count: number): Rec[] => Array.from({ length: count }, (_, i) => ({ id: `a${String(from + i).padStart(4, '0')}` }));
const T1 = '2025-01-01T00:00:01.000Z';
const T2 = '2025-01-01T00:00:02.000Z';
const atT = (ids: readonly Rec[], at: string): Rec[] => ids.map((r) => ({ ...r, at }));

describe('each client rule fails on the traffic that breaks it and passes on the conduct done right', () => {
  it('client.keyset.timestamp-ge: gt carrying the last created_at of the previous page fails; ge passes', () => {
    const first = get('/v2/accounts?sort=created_at&page[limit]=3', page([...atT(ids(1, 2), T1), ...atT(ids(3, 1), T2)], { limit: 3, total: 6 }));
    const bad = judged([first, get(`/v2/accounts?sort=created_at&page[limit]=3&filter=gt(created_at,${T2})`, page([], { limit: 3, total: 0 }))]);
    expect(failed(bad, 'client.keyset.timestamp-ge')).toHaveLength(1);
    expect(failed(bad, 'client.keyset.timestamp-ge')[0]?.level).toBe('documented');
    const good = judged([first, get(`/v2/accounts?sort=created_at&page[limit]=3&filter=ge(created_at,${T2})`, page(atT(ids(3, 1), T2), { limit: 3, total: 1 }))]);
    expect(tally(good, 'client.keyset.timestamp-ge')).toMatchObject({ passed: 1, failed: 0 });
  });

  it('client.keyset.shared-timestamp: after a full page of one created_at, gt or an offset past it fails; ge further on by page[offset] passes; a re-read is waste, not a failure', () => {
    const uniform = get(`/v2/accounts?sort=created_at&page[limit]=3&filter=ge(created_at,${T1})`, page(atT(ids(1, 3), T1), { limit: 3, total: 5 }));
    const at = (offset: number, records: Rec[]) => get(`/v2/accounts?sort=created_at&page[limit]=3&page[offset]=${offset}&filter=ge(created_at,${T1})`, page(records, { limit: 3, offset, total: 5 }));
    const gt = judged([uniform, get(`/v2/accounts?sort=created_at&page[limit]=3&filter=gt(created_at,${T1})`, page(atT(ids(6, 1), T2), { limit: 3, total: 1 }))]);
    expect(failed(gt, 'client.keyset.shared-timestamp').map((f) => f.message)).toEqual([expect.stringContaining('passes over the rest of that run')]);
    const skipped = judged([uniform, at(4, atT(ids(5, 1), T1))]);
    expect(failed(skipped, 'client.keyset.shared-timestamp').map((f) => f.message)).toEqual([expect.stringContaining('page[offset]=4 skips records 4 to 4')]);
    const further = judged([uniform, at(3, atT(ids(4, 2), T1))]);
    expect(tally(further, 'client.keyset.shared-timestamp')).toMatchObject({ passed: 1, failed: 0 });
    expect(further.walks.map((w) => w.reread ?? 0)).toEqual([0]);
    // A first page sorted by created_at, then ge(<value>) at offset 0 (step 3 to the letter: the last value of the previous page), then on: 3 records re-read, no failure.
    const start = get('/v2/accounts?sort=created_at&page[limit]=3', page(atT(ids(1, 3), T1), { limit: 3, total: 5 }));
    const literal = judged([start, at(0, atT(ids(1, 3), T1)), at(3, atT(ids(4, 2), T1)), get('/v2/settings', '{}')]);
    expect(failed(literal, 'client.keyset.shared-timestamp')).toEqual([]);
    expect(literal.walks.map((w) => [w.pages, w.reread])).toEqual([[3, 3]]);
    // Stopping after such a page is the client's choice: no verdict.
    expect(tally(judged([uniform, get('/v2/settings', '{}')]), 'client.keyset.shared-timestamp')).toMatchObject({ passed: 0, failed: 0 });
    // A walk that steps to ge(<value>), re-reads the page, gets nothing new and ends there may have given up on the run, or
    // stopped by choice (a page cap): no documented finding; client.keyset.run-abandoned (assumed) warns once the client goes on.
    const gaveUp = judged([start, at(0, atT(ids(1, 3), T1)), get('/v2/settings', '{}')]);
    expect(tally(gaveUp, 'client.keyset.shared-timestamp')).toMatchObject({ failed: 0, inconclusive: 0 });
    expect(failed(gaveUp, 'client.keyset.run-abandoned').map((f) => [f.level, f.message])).toEqual([['assumed', expect.stringContaining('read nothing new, and ended without the rest of that run')]]);
    // When the traffic ends there, nothing is said; nor after a walk that read something new on its last page.
    expect(tally(judged([start, at(0, atT(ids(1, 3), T1))]), 'client.keyset.run-abandoned')).toEqual({ passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
    expect(tally(judged([start, at(3, atT(ids(4, 3), T1)), get('/v2/settings', '{}')]), 'client.keyset.run-abandoned')).toEqual({ passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
    const retried = judged([start, at(3, atT(ids(4, 3), T1)), at(3, atT(ids(4, 3), T1)), get('/v2/settings', '{}')]);
    expect(tally(retried, 'client.keyset.shared-timestamp')).toMatchObject({ failed: 0, inconclusive: 0 });
    expect(retried.walks.map((w) => [w.pages, w.reread])).toEqual([[3, 3]]);
  });

  it('ge exactly a millisecond past a full page of one value is gt of it; a hair past elsewhere is a query of its own', () => {
    const T1ms = '2025-01-01T00:00:01.001Z';
    const uniform = get(`/v2/accounts?sort=created_at&page[limit]=3&filter=ge(created_at,${T1})`, page(atT(ids(1, 3), T1), { limit: 3, total: 5 }));
    const past = (value: string) => get(`/v2/accounts?sort=created_at&page[limit]=3&filter=ge(created_at,${value})`, page(atT(ids(6, 1), T2), { limit: 3, total: 1 }));
    const failedIds = (r: TrafficResult) => [...new Set(r.findings.filter((f) => f.status === 'fail' && f.party === 'client').map((f) => f.ruleId))].sort();
    expect(failedIds(judged([uniform, past(T1ms)]))).toEqual(['client.keyset.shared-timestamp', 'client.keyset.timestamp-ge']);
    // Two milliseconds past, or past a page that was not one value: no step carried the value, no finding.
    expect(failedIds(judged([uniform, past('2025-01-01T00:00:01.002Z')]))).toEqual([]);
    const mixed = get('/v2/accounts?sort=created_at&page[limit]=3', page([...atT(ids(1, 1), '2025-01-01T00:00:00.500Z'), ...atT(ids(2, 2), T1)], { limit: 3, total: 5 }));
    expect(failedIds(judged([mixed, past(T1ms)]))).toEqual([]);
  });

  it('client.keyset.shared-timestamp: ge(<value>) at page[offset] = the records of that value held passes; past them fails', () => {
    // The first page ends in a run of two records at T2; ge(T2) at offset 2 reads on from them, at offset 3 skips one.
    const first = get('/v2/accounts?sort=created_at&page[limit]=3', page([...atT(ids(1, 1), T1), ...atT(ids(2, 2), T2)], { limit: 3, total: 6 }));
    const next = (offset: number) =>
      get(`/v2/accounts?sort=created_at&page[limit]=3&page[offset]=${offset}&filter=ge(created_at,${T2})`, page(atT(ids(2 + offset, 3), T2), { limit: 3, offset, total: 5 }));
    expect(tally(judged([first, next(2)]), 'client.keyset.shared-timestamp')).toMatchObject({ passed: 1, failed: 0 });
    expect(failed(judged([first, next(3)]), 'client.keyset.shared-timestamp').map((f) => f.message)).toEqual([expect.stringContaining('holding 2 records at created_at')]);
    // At offset 0, the two are read again: waste.
    const again = judged([first, next(0)]);
    expect(failed(again, 'client.keyset.shared-timestamp')).toEqual([]);
    expect(again.walks.map((w) => w.reread)).toEqual([2]);
  });

  it('client.keyset.sort-matches-filter: gt(id,<last>) after an unsorted page, with no sort, fails (the issue’s miss); sorted by id passes', () => {
    const unsorted = get('/v2/accounts?page[limit]=3', page([{ id: 'a0009' }, { id: 'a0002' }, { id: 'a0005' }], { limit: 3, total: 9 }));
    const bad = judged([unsorted, get('/v2/accounts?page[limit]=3&filter=gt(id,a0005)', page(ids(6, 3), { limit: 3, total: 4 }))]);
    expect(failed(bad, 'client.keyset.sort-matches-filter').map((f) => f.message)).toEqual([expect.stringContaining('walks on id without sort=id')]);
    expect(bad.walks).toHaveLength(1);
    const sorted = get('/v2/accounts?sort=id&page[limit]=3', page(ids(1, 3), { limit: 3, total: 9 }));
    const good = judged([sorted, get('/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0003)', page(ids(4, 3), { limit: 3, total: 6 }))]);
    expect(tally(good, 'client.keyset.sort-matches-filter')).toMatchObject({ passed: 1, failed: 0 });
  });

  it('client.keyset.id-stop: an id walk that stops at a short page, then sends something else, fails; an empty last page passes', () => {
    const p1 = get('/v2/accounts?sort=id&page[limit]=3', page(ids(1, 3), { limit: 3, total: 5 }));
    const p2 = get('/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0003)', page(ids(4, 2), { limit: 3, total: 2 }));
    expect(failed(judged([p1, p2, get('/v2/settings', '{}')]), 'client.keyset.id-stop')).toHaveLength(1);
    const p3 = get('/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0005)', page([], { limit: 3, total: 0 }));
    expect(tally(judged([p1, p2, p3, get('/v2/settings', '{}')]), 'client.keyset.id-stop')).toMatchObject({ passed: 1, failed: 0 });
    // The short page sent again (a retry after a lost answer) takes no step: the walk then reads its empty page and passes.
    const p2Again = get('/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0003)', page(ids(4, 2), { limit: 3, total: 2 }));
    const retried = judged([p1, p2, p2Again, p3, get('/v2/settings', '{}')]);
    expect(tally(retried, 'client.keyset.id-stop')).toMatchObject({ passed: 1, failed: 0 });
    expect(retried.walks.map((w) => [w.pages, w.reread])).toEqual([[4, 2]]);
  });

  it('client.limit.clamped: asked 150, granted 100, page[offset] moved on by 150 fails (50 skipped); moved on by 100 passes', () => {
    const first = get('/v2/accounts?sort=id&page[limit]=150', page(ids(1, 100), { limit: 100, total: 400 }));
    const bad = judged([first, get('/v2/accounts?sort=id&page[limit]=150&page[offset]=150', page(ids(151, 100), { limit: 100, offset: 150, total: 400 }))]);
    expect(failed(bad, 'client.limit.clamped').map((f) => f.message)).toEqual([expect.stringContaining('50 records (101 to 150) skipped')]);
    const good = judged([first, get('/v2/accounts?sort=id&page[limit]=150&page[offset]=100', page(ids(101, 100), { limit: 100, offset: 100, total: 400 }))]);
    expect(tally(good, 'client.limit.clamped')).toMatchObject({ passed: 1, failed: 0 });
  });

  it('client.limit.clamped-stop (assumed): one read that asked 150 and got 100 of 400, then something else, fails; a second page passes', () => {
    const first = get('/v2/accounts?page[limit]=150', page(ids(1, 100), { limit: 100, total: 400 }));
    const bad = judged([first, get('/v2/settings', '{}')]);
    expect(failed(bad, 'client.limit.clamped-stop').map((f) => f.level)).toEqual(['assumed']);
    const good = judged([first, get('/v2/accounts?page[limit]=150&page[offset]=100', page(ids(101, 100), { limit: 100, offset: 100, total: 400 })), get('/v2/settings', '{}')]);
    expect(tally(good, 'client.limit.clamped-stop')).toMatchObject({ passed: 1, failed: 0 });
  });

  it('client.offset.hard-limit: page[offset] past 10,000 on /v2/orders or /v2/files fails; 10,000 passes', () => {
    expect(failed(judged([get('/v2/files?page[offset]=10001', '{"errors":[]}', { status: 400 })]), 'client.offset.hard-limit')).toHaveLength(1);
    expect(tally(judged([get('/v2/orders?page[offset]=10000', page([], { limit: 25, offset: 10000 }))]), 'client.offset.hard-limit')).toMatchObject({ passed: 1, failed: 0 });
  });

  it('client.offset.soft-limit (assumed): page[offset] past 10,000 on another endpoint fails as a warning; within passes', () => {
    const bad = judged([get('/v2/accounts?page[offset]=10100', page([], { limit: 25, offset: 10100 }))]);
    expect(failed(bad, 'client.offset.soft-limit').map((f) => f.level)).toEqual(['assumed']);
    expect(tally(judged([get('/v2/accounts?page[offset]=9000', page([], { limit: 25, offset: 9000 }))]), 'client.offset.soft-limit')).toMatchObject({ passed: 1, failed: 0 });
  });

  it('client.offset.changing-data (assumed): results.total moving between two offset pages fails; an unchanging list passes', () => {
    const first = get('/v2/accounts?page[limit]=3', page(ids(1, 3), { limit: 3, total: 9 }));
    expect(failed(judged([first, get('/v2/accounts?page[limit]=3&page[offset]=3', page(ids(4, 3), { limit: 3, offset: 3, total: 11 }))]), 'client.offset.changing-data')).toHaveLength(1);
    expect(tally(judged([first, get('/v2/accounts?page[limit]=3&page[offset]=3', page(ids(4, 3), { limit: 3, offset: 3, total: 9 }))]), 'client.offset.changing-data')).toMatchObject({
      passed: 1,
      failed: 0,
    });
  });

  it('client.sync.buffer (assumed): resuming at the newest value of a read to its end, a second before that answer’s Date, fails; an older one passes', () => {
    const at = '2026-11-20T10:00:00.000Z';
    const end = (date: string) => get(`/v2/accounts?sort=updated_at&page[limit]=3&filter=ge(updated_at,2026-11-20T09:00:00.000Z)`, page(atT(ids(1, 1), at), { limit: 3, total: 1 }), { date });
    const resume = () => get(`/v2/accounts?sort=updated_at&page[limit]=3&filter=ge(updated_at,${at})&page[offset]=0`, page(atT(ids(1, 1), at), { limit: 3, total: 1 }));
    const bad = judged([end('Fri, 20 Nov 2026 10:00:01 GMT'), resume()]);
    expect(failed(bad, 'client.sync.buffer').map((f) => f.level)).toEqual(['assumed']);
    const good = judged([end('Fri, 20 Nov 2026 10:05:00 GMT'), resume()]);
    expect(tally(good, 'client.sync.buffer')).toMatchObject({ passed: 1, failed: 0 });
  });

  it('client.retry.retry-after (assumed): the same request again 1 s after a 429 asking for 5 fails; after 5 s passes', () => {
    const refused = (sentAt: number) => get('/v2/accounts?page[limit]=3', '{"errors":[{"status":429}]}', { status: 429, sentAt, headers: { 'retry-after': '5' } });
    const t0 = Date.UTC(2026, 10, 20, 10);
    expect(failed(judged([refused(t0), get('/v2/accounts?page[limit]=3', page(ids(1, 3), { limit: 3 }), { sentAt: t0 + 1_000 })]), 'client.retry.retry-after').map((f) => f.level)).toEqual([
      'assumed',
    ]);
    expect(tally(judged([refused(t0), get('/v2/accounts?page[limit]=3', page(ids(1, 3), { limit: 3 }), { sentAt: t0 + 5_000 })]), 'client.retry.retry-after')).toMatchObject({ passed: 1, failed: 0 });
  });

  it('covers every client rule', () => {
    const titled = [
      'timestamp-ge',
      'shared-timestamp',
      'sort-matches-filter',
      'id-stop',
      'limit.clamped',
      'clamped-stop',
      'hard-limit',
      'soft-limit',
      'changing-data',
      'sync.buffer',
      'retry-after',
      'run-abandoned',
    ];
    // The create operation's rules have their own file (create-rules.test.ts).
    const here = clientRules.map((r) => r.meta).filter((rule) => !rule.id.startsWith('client.create.'));
    for (const rule of here)
      expect(
        titled.some((t) => rule.id.endsWith(t)),
        rule.id,
      ).toBe(true);
    expect(here).toHaveLength(titled.length);
  });
});

/**
 * What a report says of each client rule's failure, word for word: the message, expected and actual, with
 * the values of the traffic built here and the words of the rule's sentence (its statement and evidence).
 */
describe('the finding each client rule reports', () => {
  type Seen = { message: string; expected?: unknown; actual?: unknown };
  const seen = (r: TrafficResult, id: string): Seen[] =>
    r.findings
      .filter((f) => f.ruleId === id)
      .map((f) => (f.status !== 'fail' || (f.expected === undefined && f.actual === undefined) ? { message: f.message } : { message: f.message, expected: f.expected, actual: f.actual }));
  const T1ms = '2025-01-01T00:00:01.001Z';
  const walk = (filter: string, offset = 0) => `/v2/accounts?sort=created_at&page[limit]=3${offset === 0 ? '' : `&page[offset]=${offset}`}&filter=${filter}`;
  const uniform = get(walk(`ge(created_at,${T1})`), page(atT(ids(1, 3), T1), { limit: 3, total: 5 }));

  it('client.keyset.timestamp-ge: gt on the last value; ge a millisecond past a page of one value', () => {
    const first = get('/v2/accounts?sort=created_at&page[limit]=3', page([...atT(ids(1, 2), T1), ...atT(ids(3, 1), T2)], { limit: 3, total: 6 }));
    const gt = walk(`gt(created_at,${T2})`);
    expect(seen(judged([first, get(gt, page([], { limit: 3, total: 0 }))]), 'client.keyset.timestamp-ge')).toEqual([
      { message: `GET ${gt}: continues a created_at walk with gt: records sharing ${T2} beyond the previous page are skipped`, expected: `ge(created_at,${T2})`, actual: `gt(created_at,${T2})` },
    ]);
    const past = walk(`ge(created_at,${T1ms})`);
    const r = judged([uniform, get(past, page(atT(ids(6, 1), T2), { limit: 3, total: 1 }))]);
    expect(seen(r, 'client.keyset.timestamp-ge')).toEqual([
      {
        message: `GET ${past}: continues a created_at walk with ge(created_at,${T1ms}), gt of ${T1} at millisecond precision: records sharing ${T1} beyond the previous page are skipped`,
        expected: `ge(created_at,${T1})`,
        actual: `ge(created_at,${T1ms})`,
      },
    ]);
    expect(seen(r, 'client.keyset.shared-timestamp')).toEqual([
      {
        message: `GET ${past}: after a full page whose created_at is ${T1} throughout, ge(created_at,${T1ms}) passes over the rest of that run`,
        expected: `ge(created_at,${T1}) further on by page[offset], or eq(created_at,${T1}) paged to its end`,
        actual: `ge(created_at,${T1ms}) at page[offset]=0`,
      },
    ]);
  });

  it('client.keyset.shared-timestamp: an offset past the run read, after a page of one value or holding one or two records of it', () => {
    const four = walk(`ge(created_at,${T1})`, 4);
    expect(seen(judged([uniform, get(four, page(atT(ids(5, 1), T1), { limit: 3, offset: 4, total: 5 }))]), 'client.keyset.shared-timestamp')).toEqual([
      {
        message: `GET ${four}: after a full page whose created_at is ${T1} throughout, page[offset]=4 skips records 4 to 4 of ge(created_at,${T1})`,
        expected: 'page[offset]=3 at most',
        actual: `ge(created_at,${T1}) at page[offset]=4`,
      },
    ]);
    // The first page ends in two records at T2 (then one): ge(T2) at offset 3 skips the third; at offset 2, the second.
    for (const [held, offset] of [
      [2, 3],
      [1, 2],
    ] as const) {
      const first = get('/v2/accounts?sort=created_at&page[limit]=3', page([...atT(ids(1, 3 - held), T1), ...atT(ids(4 - held, held), T2)], { limit: 3, total: 6 }));
      const next = walk(`ge(created_at,${T2})`, offset);
      expect(seen(judged([first, get(next, page(atT(ids(5, 3), T2), { limit: 3, offset, total: 5 }))]), 'client.keyset.shared-timestamp')).toEqual([
        {
          message: `GET ${next}: holding ${held} record${held === 1 ? '' : 's'} at created_at ${T2}, page[offset]=${offset} skips records ${held + 1} to ${offset} of ge(created_at,${T2})`,
          expected: `page[offset]=${held} at most`,
          actual: `ge(created_at,${T2}) at page[offset]=${offset}`,
        },
      ]);
    }
  });

  it('client.keyset.run-abandoned (assumed): a re-read page of one value, then something else', () => {
    const start = get('/v2/accounts?sort=created_at&page[limit]=3', page(atT(ids(1, 3), T1), { limit: 3, total: 5 }));
    const again = walk(`ge(created_at,${T1})`);
    expect(seen(judged([start, get(again, page(atT(ids(1, 3), T1), { limit: 3, total: 5 })), get('/v2/settings', '{}')]), 'client.keyset.run-abandoned')).toEqual([
      {
        message: `GET ${again}: the walk re-read a full page whose created_at is ${T1} throughout, read nothing new, and ended without the rest of that run`,
        expected: `ge(created_at,${T1}) further on by page[offset]`,
        actual: 'the walk ended',
      },
    ]);
  });

  it('client.keyset.sort-matches-filter: no sort, another sort, or a previous page not sorted by the attribute', () => {
    const unsorted = get('/v2/accounts?page[limit]=3', page([{ id: 'a0009' }, { id: 'a0002' }, { id: 'a0005' }], { limit: 3, total: 9 }));
    for (const [sort, shown] of [
      ['', 'no sort'],
      ['&sort=created_at', 'sort=created_at'],
    ] as const) {
      const next = `/v2/accounts?page[limit]=3${sort}&filter=gt(id,a0005)`;
      expect(seen(judged([unsorted, get(next, page(ids(6, 3), { limit: 3, total: 4 }))]), 'client.keyset.sort-matches-filter')).toEqual([
        { message: `GET ${next}: walks on id without sort=id`, expected: 'sort=id', actual: shown },
      ]);
    }
    const sorted = '/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0005)';
    expect(seen(judged([unsorted, get(sorted, page(ids(6, 3), { limit: 3, total: 4 }))]), 'client.keyset.sort-matches-filter')).toEqual([
      { message: `GET ${sorted}: carries the last id of GET /v2/accounts?page[limit]=3, a page not sorted by id`, expected: 'sort=id on the page the value came from', actual: 'no sort' },
    ]);
  });

  it('client.keyset.id-stop: a short last page, then something else (fails) or the end of the traffic (inconclusive)', () => {
    const p1 = get('/v2/accounts?sort=id&page[limit]=3', page(ids(1, 3), { limit: 3, total: 5 }));
    const url = '/v2/accounts?sort=id&page[limit]=3&filter=gt(id,a0003)';
    const p2 = get(url, page(ids(4, 2), { limit: 3, total: 2 }));
    expect(seen(judged([p1, p2, get('/v2/settings', '{}')]), 'client.keyset.id-stop')).toEqual([
      { message: `GET ${url}: the id walk stopped after a page of 2 records, not after an empty one`, expected: 'a page of zero records', actual: '2 records' },
    ]);
    expect(seen(judged([p1, p2]), 'client.keyset.id-stop')).toEqual([
      { message: `GET ${url}: the id walk's last page held 2 records, fewer than its page size, and the traffic ends there: whether the client read on to an empty page is not in it` },
    ]);
  });

  it('client.limit.clamped and client.limit.clamped-stop: the records skipped, and the page taken for the list', () => {
    for (const [asked, skipped] of [
      [150, '50 records (101 to 150)'],
      [101, '1 record (101 to 101)'],
    ] as const) {
      const first = get(`/v2/accounts?sort=id&page[limit]=${asked}`, page(ids(1, 100), { limit: 100, total: 400 }));
      const next = `/v2/accounts?sort=id&page[limit]=${asked}&page[offset]=${asked}`;
      expect(seen(judged([first, get(next, page(ids(asked + 1, 100), { limit: 100, offset: asked, total: 400 }))]), 'client.limit.clamped')).toEqual([
        {
          message: `GET ${next}: asked page[limit]=${asked}, was granted 100, and moved page[offset] on by ${asked}: ${skipped} skipped`,
          expected: 'page[offset]=100',
          actual: `page[offset]=${asked}`,
        },
      ]);
    }
    const one = '/v2/accounts?page[limit]=150';
    expect(seen(judged([get(one, page(ids(1, 100), { limit: 100, total: 400 })), get('/v2/settings', '{}')]), 'client.limit.clamped-stop')).toEqual([
      { message: `GET ${one}: asked page[limit]=150, got 100 of 400 and read no further`, expected: 'the next page', actual: 'no further request' },
    ]);
  });

  it('client.offset.hard-limit and client.offset.soft-limit: the offset asked', () => {
    expect(seen(judged([get('/v2/files?page[offset]=10001', '{"errors":[]}', { status: 400 })]), 'client.offset.hard-limit')).toEqual([
      { message: 'GET /v2/files?page[offset]=10001: offset 10001 on /v2/files', expected: 'at most 10000; sort and filter beyond', actual: 10001 },
    ]);
    expect(seen(judged([get('/v2/accounts?page[offset]=10100', page([], { limit: 25, offset: 10100 }))]), 'client.offset.soft-limit')).toEqual([
      { message: 'GET /v2/accounts?page[offset]=10100: offset 10100 past the soft limit', expected: 'at most 10000, or the sort-and-filter pattern of §4.3', actual: 10100 },
    ]);
  });

  it('client.offset.changing-data (assumed): results.total moving between two offset pages', () => {
    const first = get('/v2/accounts?page[limit]=3', page(ids(1, 3), { limit: 3, total: 9 }));
    const next = '/v2/accounts?page[limit]=3&page[offset]=3';
    expect(seen(judged([first, get(next, page(ids(4, 3), { limit: 3, offset: 3, total: 11 }))]), 'client.offset.changing-data')).toEqual([
      { message: `GET ${next}: results.total moved from 9 to 11 during an offset walk`, expected: 'an unchanging list, or a keyset walk', actual: '9 → 11' },
    ]);
  });

  it('client.sync.buffer (assumed): the resume point and the latest the buffer allows', () => {
    const at = '2026-11-20T10:00:00.000Z';
    const end = get(`/v2/accounts?sort=updated_at&page[limit]=3&filter=ge(updated_at,2026-11-20T09:00:00.000Z)`, page(atT(ids(1, 1), at), { limit: 3, total: 1 }), {
      date: 'Fri, 20 Nov 2026 10:00:01 GMT',
    });
    const resume = `/v2/accounts?sort=updated_at&page[limit]=3&filter=ge(updated_at,${at})&page[offset]=0`;
    expect(seen(judged([end, get(resume, page(atT(ids(1, 1), at), { limit: 3, total: 1 }))]), 'client.sync.buffer')).toEqual([
      {
        message: `GET ${resume}: resumes a updated_at walk at ${at}, the newest value of a read to the end answered at Fri, 20 Nov 2026 10:00:01 GMT: records that become visible later with an earlier updated_at are missed`,
        expected: 'a resume point at or before 2026-11-20T09:59:51.000Z',
        actual: at,
      },
    ]);
  });

  it('client.retry.retry-after (assumed): how early, and the time Retry-After allowed', () => {
    const t0 = Date.UTC(2026, 10, 20, 10);
    const refused = get('/v2/accounts?page[limit]=3', '{"errors":[{"status":429}]}', { status: 429, sentAt: t0, headers: { 'retry-after': '5' } });
    // Sent 1.234 s early: shown to the hundredth of a second.
    expect(seen(judged([refused, get('/v2/accounts?page[limit]=3', page(ids(1, 3), { limit: 3 }), { sentAt: t0 + 3_766 })]), 'client.retry.retry-after')).toEqual([
      { message: 'GET /v2/accounts?page[limit]=3: sent again 1.23 s before Retry-After allowed', expected: 'not before 2026-11-20T10:00:05.000Z', actual: '2026-11-20T10:00:03.766Z' },
    ]);
  });
});

describe('commerce-sim rules --client', () => {
  it('--json prints each client rule once, in the catalogue’s order, of the client family, with a one-line statement', async () => {
    const c = captureIo();
    expect(await rules(['--client', '--json'], c.io)).toBe(0);
    const printed = JSON.parse(c.out()) as { id: string; family: string; level: string; statement: string; quote?: string }[];
    expect(printed.map((r) => r.id)).toEqual([...CLIENT_RULE_IDS]);
    for (const r of printed) {
      expect(r.family, r.id).toBe('client');
      // What a client does, one sentence: a lower-case start, a full stop, no line break.
      expect(r.statement, r.id).toMatch(/^[a-z][^\n]*\.$/);
      // A documented rule quotes the document; an assumed one does not.
      expect(r.quote !== undefined, r.id).toBe(r.level === 'documented');
    }
  });

  it('the table shows each rule’s id, level, section and statement, and a documented rule’s quote under it', async () => {
    const json = captureIo();
    await rules(['--client', '--json'], json.io);
    const printed = JSON.parse(json.out()) as { id: string; level: string; section: string; statement: string; quote?: string }[];
    const c = captureIo();
    expect(await rules(['--client'], c.io)).toBe(0);
    const lines = c.out().trimEnd().split('\n');
    for (const r of printed) {
      const at = lines.findIndex((l) => l.startsWith(`${r.id} `));
      expect(
        lines[at]?.split(' | ').map((cell) => cell.trim()),
        r.id,
      ).toEqual([r.id, r.level, r.section, r.statement]);
      if (r.quote !== undefined) expect(lines[at + 1], r.id).toBe(`    “${r.quote}”`);
    }
  });
});
