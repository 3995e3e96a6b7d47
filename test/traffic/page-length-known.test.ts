/**
 * pagination.limit.default on traffic (§8: the default page length is "changeable globally per project
 * through a settings endpoint"): a page of 20 without page[limit] fails the rule only where the traffic
 * showed the project's page length; otherwise the finding is inconclusive, with why. A client that set the
 * page length itself is judged by pagination.limit.project-setting instead. The rule declares both
 * (`onTraffic`); the judge's loop applies them without naming the rule.
 */
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { judgeTraffic, type TrafficResult } from '../../src/traffic/judge/judge.js';

const AUTH = { authorization: 'Bearer t0ken-for-tests' };
let n = 0;
const entry = (method: string, url: string, status: number, body: unknown, requestBody?: unknown): TrafficEntry => ({
  exchange: toExchange(
    { method, url, headers: { ...AUTH, ...(requestBody === undefined ? {} : { 'content-type': 'application/json' }) }, ...(requestBody === undefined ? {} : { body: JSON.stringify(requestBody) }) },
    { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  ),
  origin: 'https://api.example.test',
  source: `entry ${++n}`,
});

/** A page of `count` accounts, meta.page.limit `count`, more records behind it: the answer to a read without page[limit] from a server whose default is `count`. */
const pageOf = (count: number): TrafficEntry =>
  entry('GET', '/v2/accounts', 200, {
    data: Array.from({ length: count }, (_, i) => ({ id: `a${String(i).padStart(3, '0')}`, type: 'account' })),
    meta: { page: { limit: count, offset: 0, current: 1, total: 5 }, results: { total: count * 5 } },
  });
const settingsRead = (pageLength: number) => entry('GET', '/v2/settings', 200, { data: { page_length: pageLength } });
const settingsWrite = (pageLength: number) => entry('PUT', '/v2/settings', 200, { data: { page_length: pageLength } }, { data: { page_length: pageLength } });

const findingsOf = (r: TrafficResult, id: string) => r.findings.filter((f) => f.ruleId === id).map((f) => ({ status: f.status, message: f.message }));

describe('pagination.limit.default on traffic', () => {
  it('is inconclusive on a page of 20 when the traffic never showed the page length', async () => {
    const r = await judgeTraffic([pageOf(20)]);
    expect(findingsOf(r, 'pagination.limit.default')).toEqual([
      {
        status: 'inconclusive',
        message: "the project's page length is not known from this traffic (§8: it is changeable per project; a GET or write of the settings endpoint in the traffic tells it)",
      },
    ]);
  });

  it('fails a page of 20 once a settings read showed 25', async () => {
    const r = await judgeTraffic([settingsRead(25), pageOf(20)]);
    expect(findingsOf(r, 'pagination.limit.default').map((f) => f.status)).toEqual(['fail']);
  });

  it('passes a page of 30 after a settings read showed 30', async () => {
    const r = await judgeTraffic([settingsRead(30), pageOf(30)]);
    expect(findingsOf(r, 'pagination.limit.default')).toEqual([]);
    // The settings read is offered too, and skipped (not a list).
    expect(r.tallies.get('pagination.limit.default')).toEqual({ passed: 1, failed: 0, inconclusive: 0, skipped: 1 });
  });

  it('is not offered the reads of a client that set the page length itself (project-setting judges them)', async () => {
    // Complete traffic: project-setting's verdict rests on two exchanges, and no other client's write can come between them.
    const r = await judgeTraffic([settingsWrite(30), pageOf(20)], { complete: true });
    expect(r.tallies.get('pagination.limit.default')).toEqual({ passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
    expect(findingsOf(r, 'pagination.limit.project-setting').map((f) => f.status)).toEqual(['fail']);
  });

  it('is offered them again once the client wrote the default back', async () => {
    const r = await judgeTraffic([settingsWrite(30), settingsWrite(25), pageOf(20)]);
    expect(findingsOf(r, 'pagination.limit.default').map((f) => f.status)).toEqual(['fail']);
  });
});
