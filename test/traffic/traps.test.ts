/**
 * The naive readers of test/client/traps.test.ts, judged by the traffic judge: each is flagged by the
 * client rule for its mistake, and ground truth counts exactly what it lost or repeated. The reference
 * client (iterate, syncSince, exportAccounts) gets no finding under every adversity dataset.
 */
import { describe, expect, it } from 'vitest';
import { exportAccounts } from '../../src/client/export.js';
import { iterate, timestampOf } from '../../src/client/keyset.js';
import { syncSince } from '../../src/client/sync.js';
import { simulatorTruth } from '../../src/traffic/sessions/ground-truth.js';
import { createTrafficJudge, type TrafficResult } from '../../src/traffic/judge/judge.js';
import { observedTarget } from '../../src/traffic/observed-target.js';
import { naiveGtReader, naiveOffsetReader, recordsOf } from '../client/naive-readers.js';
import { between, insertAccount, simFor, visibleAccounts, type SimSetup } from '../client/helpers.js';
import type { Target } from '../../src/port.js';

/** A judge with ground truth on `s`, and a target whose traffic it sees. */
function judged(s: SimSetup) {
  const truth = simulatorTruth(s.sim);
  const judge = createTrafficJudge({ complete: true, groundTruth: truth });
  // A virtual wall clock: the client's sleeps (Retry-After) move it, and the judge reads requests' times from it.
  let wall = Date.UTC(2025, 5, 1);
  const sleep = (ms: number): Promise<void> => {
    wall += ms;
    return Promise.resolve();
  };
  return { judge, sleep, target: observedTarget(s.target, (e) => judge.observe(e), { now: () => wall, stamp: () => truth.clock() }) };
}

const clientFailures = (r: TrafficResult): string[] => [...new Set(r.findings.filter((f) => f.party === 'client' && f.status === 'fail').map((f) => f.ruleId))].sort();

describe('traffic judge on the naive readers of §4.3', () => {
  it.each([1, 2, 3])('seed %i: gt(created_at) over bursts is client.keyset.timestamp-ge, and ground truth counts the 100 records lost', async (seed) => {
    const s = await simFor('shared-timestamps', { seed, accounts: 320 });
    const { judge, target } = judged(s);
    const ids = await naiveGtReader(target, 100);
    const r = judge.finish();
    expect(clientFailures(r)).toContain('client.keyset.timestamp-ge');
    const walk = r.walks.find((w) => w.truth !== undefined && w.label.includes('created_at'));
    const lost = [...visibleAccounts(s.project).keys()].filter((id) => !ids.includes(id)).length;
    expect(lost).toBe(100);
    expect(walk?.truth).toMatchObject({ visible: 320, once: 220, never: 100, twice: 0 });
    expect(walk?.truth?.summary).toMatch(/100 never \(the client: .*gt/);
  });

  it('offset paging while records are inserted is client.offset.changing-data, and ground truth counts the repeats', async () => {
    const s = await simFor('default', { seed: 1 });
    const { judge, target } = judged(s);
    const expected = new Set(visibleAccounts(s.project).keys());
    const inserting = between(target, async (read) => void (await insertAccount(target, `inserted ${read}`)));
    const ids = await naiveOffsetReader(inserting, 10);
    const r = judge.finish();
    expect(clientFailures(r)).toEqual(['client.offset.changing-data']);
    const counts = new Map<string, number>();
    for (const id of ids) if (expected.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
    const repeated = [...counts.values()].filter((n) => n > 1).length;
    const never = [...expected].filter((id) => !counts.has(id)).length;
    expect(repeated + never).toBeGreaterThan(0);
    const walk = r.walks.find((w) => w.truth !== undefined);
    expect(walk?.truth).toMatchObject({ twice: repeated, never });
  });

  it('an offset reader that moves on by the page[limit]=150 it asked, not the 100 it was granted, is client.limit.clamped; ground truth counts the skipped records as never received', async () => {
    const s = await simFor('default', { seed: 2, accounts: 500 });
    const { judge, target } = judged(s);
    const received: string[] = [];
    for (let offset = 0; offset < 500; offset += 150)
      received.push(...recordsOf((await target.send({ method: 'GET', url: `/v2/accounts?sort=id&page[limit]=150&page[offset]=${offset}` })).body).map((r) => r.id));
    const r = judge.finish();
    expect(clientFailures(r)).toEqual(['client.limit.clamped']);
    const f = r.findings.find((x) => x.ruleId === 'client.limit.clamped');
    expect(f?.level).toBe('documented');
    expect(f?.message).toMatch(/50 records \(101 to 150\) skipped/);
    // Pages at 0, 150, 300, 450 of 100, 100, 100, 50: 350 received, 150 skipped in the gaps.
    expect(received.length).toBe(350);
    expect(r.walks[0]?.truth).toMatchObject({ visible: 500, once: 350, twice: 0, never: 150, unread: 0 });
  });

  it('one read that asked page[limit]=1000 and got 100 of 250, then something else: an assumed client.limit.clamped-stop, and ground truth counts the rest as not read', async () => {
    const s = await simFor('default', { seed: 2, accounts: 250 });
    const { judge, target } = judged(s);
    await target.send({ method: 'GET', url: '/v2/accounts?sort=id&page[limit]=1000' });
    await target.send({ method: 'GET', url: '/v2/settings' });
    const r = judge.finish();
    expect(clientFailures(r)).toEqual(['client.limit.clamped-stop']);
    expect(r.findings.find((x) => x.ruleId === 'client.limit.clamped-stop')?.level).toBe('assumed');
    expect(r.walks[0]?.truth).toMatchObject({ visible: 250, once: 100, never: 0, unread: 150 });
  });

  /** An id walk of pages of 20 over 45 accounts that stops at its short page (then, if asked, reads the settings). */
  const stopAtShortPage = async (target: Target, after: boolean) => {
    let last: string | undefined;
    for (;;) {
      const filter = last === undefined ? '' : `&filter=gt(id,${last})`;
      const records = recordsOf((await target.send({ method: 'GET', url: `/v2/accounts?sort=id&page[limit]=20${filter}` })).body);
      last = records.at(-1)?.id;
      if (records.length < 20) break;
    }
    if (after) await target.send({ method: 'GET', url: '/v2/settings' });
  };

  it('an id walk that stops at a short page, then goes on to something else, is client.keyset.id-stop', async () => {
    const s = await simFor('default', { seed: 3, accounts: 45 });
    const { judge, target } = judged(s);
    await stopAtShortPage(target, true);
    const r = judge.finish();
    expect(clientFailures(r)).toEqual(['client.keyset.id-stop']);
    expect(r.walks.find((w) => w.truth !== undefined)?.truth).toMatchObject({ visible: 45, once: 45, never: 0 });
  });

  it('the same walk at the very end of the traffic is inconclusive: whether the client read on is not in it', async () => {
    const s = await simFor('default', { seed: 3, accounts: 45 });
    const { judge, target } = judged(s);
    await stopAtShortPage(target, false);
    const r = judge.finish();
    expect(clientFailures(r)).toEqual([]);
    expect(r.findings.filter((f) => f.party === 'client').map((f) => [f.ruleId, f.status])).toEqual([['client.keyset.id-stop', 'inconclusive']]);
  });

  it('a walk that filters on created_at but sorts by id is client.keyset.sort-matches-filter', async () => {
    const s = await simFor('default', { seed: 4, accounts: 60 });
    const { judge, target } = judged(s);
    let last: string | undefined;
    for (let i = 0; i < 4; i++) {
      const filter = last === undefined ? '' : `&filter=ge(created_at,${last})`;
      const records = recordsOf((await target.send({ method: 'GET', url: `/v2/accounts?sort=id&page[limit]=20${filter}` })).body);
      const tail = records.at(-1);
      if (tail === undefined) break;
      last = timestampOf(tail, 'created_at');
    }
    expect(clientFailures(judge.finish())).toContain('client.keyset.sort-matches-filter');
  });
});

describe('the reference client gets no finding', () => {
  const DATASETS = ['default', 'shared-timestamps', 'updates-during-traversal', 'eventual-consistency', 'hostile'];
  it.each(DATASETS)('%s: iterate by id, created_at and updated_at, syncSince and exportAccounts', async (dataset) => {
    const s = await simFor(dataset, { seed: 5, accounts: 150 });
    const { judge, target, sleep } = judged(s);
    const options = { pageSize: 20, sleep, now: s.now, bufferMs: 10_000 };
    for (const attribute of ['id', 'created_at', 'updated_at'] as const) for await (const _r of iterate(target, '/v2/accounts', { attribute, ...options })) void _r;
    const first = await syncSince(target, '/v2/accounts', undefined, options);
    await syncSince(target, '/v2/accounts', first.checkpoint, options);
    await exportAccounts(target, { write: () => undefined }, options);
    const r = judge.finish();
    expect(r.findings.filter((f) => f.party === 'client').map((f) => `${f.ruleId}: ${f.message}`)).toEqual([]);
    expect(r.walks.filter((w) => (w.truth?.never ?? 0) > 0).map((w) => `${w.label}: ${w.truth?.summary ?? ''}`)).toEqual([]);
  });
});

describe('a read is not a walk', () => {
  it('one full page of one timestamp, read once without a cursor (a peek), is no finding; the same page followed by gt is', async () => {
    const s = await simFor('shared-timestamps', { seed: 1, accounts: 320 });
    const peek = judged(s);
    await peek.target.send({ method: 'GET', url: '/v2/accounts?sort=created_at&page[limit]=100' });
    expect(clientFailures(peek.judge.finish())).toEqual([]);
    const walk = judged(s);
    const first = recordsOf((await walk.target.send({ method: 'GET', url: '/v2/accounts?sort=created_at&page[limit]=100' })).body);
    const last = timestampOf(first.at(-1) ?? first[0]!, 'created_at');
    await walk.target.send({ method: 'GET', url: `/v2/accounts?sort=created_at&page[limit]=100&filter=gt(created_at,${last})` });
    expect(clientFailures(walk.judge.finish())).toEqual(['client.keyset.shared-timestamp', 'client.keyset.timestamp-ge']);
  });
});
