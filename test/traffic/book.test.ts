/**
 * The one recorder of verdicts (Book.verdict), for the server's rules and the client's alike: every verdict
 * tallied; a failure, or a documented rule's inconclusive, recorded with the exchanges it rests on (asked for
 * only then); an assumed rule's inconclusive and a pass counted only; past the first few per rule a finding is
 * counted and handed to onFinding without its exchanges.
 */
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import { catalogue } from '../../src/rules/catalogue.js';
import { clientRules } from '../../src/traffic/client-rules/catalogue.js';
import { Book } from '../../src/traffic/judge/book.js';
import type { Finding } from '../../src/traffic/judge/result.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';

const DOCUMENTED = catalogue.find((r) => r.level === 'documented')?.id ?? '';
const ASSUMED = catalogue.find((r) => r.level === 'assumed')?.id ?? '';

const entry = (n: number): TrafficEntry => ({
  exchange: toExchange(
    { method: 'GET', url: `/v2/accounts?page[offset]=${n}`, headers: {}, body: '' },
    { status: 200, headers: { 'content-type': 'application/json' }, body: `{"data":[{"id":"a${n}"}]}` },
  ),
  origin: 'http://api.test',
  source: `traffic.har entry ${n}`,
});

const fail = { status: 'fail', message: 'not sorted', expected: ['a', 'b'], actual: ['b', 'a'] } as const;

describe('Book.verdict', () => {
  it('tallies every verdict by its status', () => {
    const book = new Book(20, 10, undefined);
    const none = () => [];
    for (const status of ['pass', 'pass', 'skip'] as const)
      book.verdict({ ruleId: DOCUMENTED, party: 'server', outcome: status === 'pass' ? { status } : { status, reason: 'no setup' }, evidence: none });
    book.verdict({ ruleId: DOCUMENTED, party: 'server', outcome: fail, evidence: none });
    book.verdict({ ruleId: DOCUMENTED, party: 'server', outcome: { status: 'inconclusive', reason: 'r', dependsOn: [] }, evidence: none });
    book.verdict({ ruleId: ASSUMED, party: 'server', outcome: { status: 'inconclusive', reason: 'r', dependsOn: [] }, evidence: none });
    expect(book.tallies.get(DOCUMENTED)).toEqual({ passed: 2, failed: 1, inconclusive: 1, skipped: 1 });
    expect(book.tallies.get(ASSUMED)).toEqual({ passed: 0, failed: 0, inconclusive: 1, skipped: 0 });
    // A client rule's tally is there from the start; an id of no rule is not tallied, and stops nothing.
    const client = clientRules[0]?.meta.id ?? '';
    expect(book.tallies.get(client)).toEqual({ passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
    book.verdict({ ruleId: client, party: 'client', outcome: { status: 'pass' }, evidence: none });
    expect(book.tallies.get(client)?.passed).toBe(1);
    expect(book.verdict({ ruleId: 'no.such.rule', party: 'client', outcome: { status: 'pass' }, evidence: none })).toBe(false);
    expect(book.tallies.has('no.such.rule')).toBe(false);
  });

  it("keeps an evidence body whole up to 256,000 characters (a report's excerpt is cut at 64,000)", () => {
    const book = new Book(20, 10, undefined);
    const body = JSON.stringify({ data: [{ id: 'x'.repeat(100_000) }] });
    const big: TrafficEntry = { ...entry(0), exchange: toExchange({ method: 'GET', url: '/v2/accounts', headers: {}, body: '' }, { status: 200, headers: {}, body }) };
    book.verdict({ ruleId: DOCUMENTED, party: 'server', outcome: fail, evidence: () => [big] });
    expect(book.result(false).findings[0]?.exchanges[0]?.responseBody).toBe(body);
  });

  it('records a failure with expected, actual, the walk and its evidence, in the order a report writes them', () => {
    const book = new Book(20, 10, undefined);
    const evidence = [entry(0), entry(1)];
    expect(book.verdict({ ruleId: DOCUMENTED, party: 'client', outcome: fail, walk: 'accounts by id (keyset) #1', evidence: () => evidence })).toBe(true);
    const [f] = book.result(false).findings;
    expect(Object.keys(f ?? {})).toEqual(['ruleId', 'level', 'party', 'status', 'message', 'expected', 'actual', 'walk', 'evidence', 'exchanges']);
    expect(f).toMatchObject({
      ruleId: DOCUMENTED,
      level: 'documented',
      party: 'client',
      status: 'fail',
      message: 'not sorted',
      expected: ['a', 'b'],
      actual: ['b', 'a'],
      walk: 'accounts by id (keyset) #1',
    });
    expect(f?.evidence).toEqual(['traffic.har entry 0', 'traffic.har entry 1']);
    expect(f?.exchanges.map((x) => x.url)).toEqual(['/v2/accounts?page[offset]=0', '/v2/accounts?page[offset]=1']);
  });

  it("records a documented rule's inconclusive with its reason and no expected or actual; an assumed one's and a pass are counted only, their evidence never asked", () => {
    const book = new Book(20, 10, undefined);
    let asked = 0;
    const evidence = () => (asked++, [entry(3)]);
    expect(book.verdict({ ruleId: ASSUMED, party: 'server', outcome: { status: 'inconclusive', reason: 'r', dependsOn: [] }, evidence })).toBe(false);
    expect(book.verdict({ ruleId: DOCUMENTED, party: 'server', outcome: { status: 'pass' }, evidence })).toBe(false);
    expect(book.verdict({ ruleId: DOCUMENTED, party: 'server', outcome: { status: 'skip', reason: 'no setup' }, evidence })).toBe(false);
    expect(asked).toBe(0);
    expect(book.verdict({ ruleId: DOCUMENTED, party: 'server', outcome: { status: 'inconclusive', reason: 'outside the surface', dependsOn: [] }, evidence })).toBe(true);
    expect(asked).toBe(1);
    const findings = book.result(false).findings;
    expect(findings).toHaveLength(1);
    expect(Object.keys(findings[0] ?? {})).toEqual(['ruleId', 'level', 'party', 'status', 'message', 'evidence', 'exchanges']);
    expect(findings[0]).toMatchObject({ status: 'inconclusive', message: 'outside the surface', evidence: ['traffic.har entry 3'] });
  });

  it('keeps the first few per rule; the rest go to onFinding without exchanges, and a throwing printer stops nothing', () => {
    const heard: Finding[] = [];
    const book = new Book(2, 10, (f) => {
      heard.push(f);
      throw new Error('printer broke');
    });
    for (let i = 0; i < 3; i++) expect(book.verdict({ ruleId: DOCUMENTED, party: 'server', outcome: fail, evidence: () => [entry(i)] })).toBe(true);
    expect(book.verdict({ ruleId: ASSUMED, party: 'server', outcome: fail, evidence: () => [entry(9)] })).toBe(true);
    const kept = book.result(false).findings;
    expect(kept.map((f) => [f.ruleId, f.evidence[0], f.exchanges.length])).toEqual([
      [DOCUMENTED, 'traffic.har entry 0', 1],
      [DOCUMENTED, 'traffic.har entry 1', 1],
      [ASSUMED, 'traffic.har entry 9', 1],
    ]);
    expect(heard.map((f) => [f.evidence[0], f.exchanges.length])).toEqual([
      ['traffic.har entry 0', 1],
      ['traffic.har entry 1', 1],
      ['traffic.har entry 2', 0],
      ['traffic.har entry 9', 1],
    ]);
    expect(book.tallies.get(DOCUMENTED)?.failed).toBe(3);
    // Without a listener, one past the first few is counted only.
    const quiet = new Book(1, 10, undefined);
    for (let i = 0; i < 2; i++) quiet.verdict({ ruleId: DOCUMENTED, party: 'server', outcome: fail, evidence: () => [entry(i)] });
    expect(quiet.result(false).findings.map((f) => f.evidence)).toEqual([['traffic.har entry 0']]);
  });
});
