/**
 * The traps of §4.3 on the same data, side by side: naive readers lose or repeat records where the
 * reference client delivers each exactly once. Each case asserts both halves, so the simulator's
 * adversity is shown to bite (the naive reader fails) and the client is shown to handle it.
 */
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/client/csv.js';
import { exportAccounts } from '../../src/client/export.js';
import { iterate, timestampOf } from '../../src/client/keyset.js';
import { syncSince, type SyncCheckpoint } from '../../src/client/sync.js';
import type { Target } from '../../src/port.js';
import { between, calm, createdId, insertAccount, noSleep, passWindow, simFor, visibleAccounts } from './helpers.js';
import { naiveGtReader, naiveOffsetReader, recordsOf } from './naive-readers.js';

const SEEDS = [1, 2, 3, 4, 5];

/** Counts of what a reader delivered against the records it should have. */
function tally(delivered: readonly string[], expected: Iterable<string>) {
  const counts = new Map<string, number>();
  for (const id of delivered) counts.set(id, (counts.get(id) ?? 0) + 1);
  const missed = [...expected].filter((id) => !counts.has(id));
  const repeated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  return { missed, repeated };
}

describe('trap: offset paging while records are inserted (POST /v2/accounts between pages)', () => {
  it.each(SEEDS)('seed %i: the offset reader repeats records; the keyset export delivers each once', async (seed) => {
    const naive = await simFor('default', { seed });
    const expected = [...visibleAccounts(naive.project).keys()];
    const inserting = (t: Target) => between(t, async (read) => void (await insertAccount(t, `inserted ${read}`)));
    const offsetIds = await naiveOffsetReader(inserting(naive.target), 10);
    const bad = tally(
      offsetIds.filter((id) => expected.includes(id)),
      expected,
    );
    expect(bad.repeated.length + bad.missed.length, 'the offset reader repeats or misses records').toBeGreaterThan(0);

    const reference = await simFor('default', { seed });
    let csv = '';
    await exportAccounts(inserting(reference.target), { write: (c) => void (csv += c) }, { pageSize: 10 });
    const exported = parseCsv(csv)
      .slice(1)
      .map((row) => row[3] ?? '');
    const good = tally(
      exported.filter((id) => expected.includes(id)),
      expected,
    );
    expect(good).toEqual({ missed: [], repeated: [] });
    expect(new Set(exported).size).toBe(exported.length);
  });

  it('with deletes between pages (DELETE /v2/accounts/:id of a record already read) the offset reader misses records', async () => {
    const s = await simFor('default', { seed: 8 });
    const expected = [...visibleAccounts(s.project).keys()].sort();
    const deleted = new Set<string>();
    const deleting = between(s.target, async (read) => {
      const victim = expected[read - 1];
      if (victim === undefined) return;
      deleted.add(victim);
      await s.target.send({ method: 'DELETE', url: `/v2/accounts/${victim}` });
    });
    const ids = await naiveOffsetReader(deleting, 10);
    const { missed } = tally(
      ids,
      expected.filter((id) => !deleted.has(id)),
    );
    expect(missed.length, 'surviving records the offset reader never saw').toBeGreaterThan(0);
  });
});

describe('trap: gt on a shared timestamp', () => {
  it.each(SEEDS)('seed %i: the gt(created_at) reader loses the rest of each burst; the iterator reads all', async (seed) => {
    const s = await simFor('shared-timestamps', { seed, accounts: 320 });
    const expected = [...visibleAccounts(s.project).keys()];
    const naive = tally(await naiveGtReader(s.target, 100), expected);
    // Bursts of 150, 150 and 20: after each full page of a burst, gt skips its other 50.
    expect(naive.missed.length, 'records the gt reader lost').toBe(100);
    const records: string[] = [];
    for await (const r of iterate(s.target, '/v2/accounts', { attribute: 'created_at', pageSize: 100 })) records.push(r.id);
    expect(tally(records, expected)).toEqual({ missed: [], repeated: [] });
  });
});

describe('trap: updates during an updated_at traversal', () => {
  it('an unbounded ge(updated_at) walk meets records twice; a sync delivers each once, in its latest version', async () => {
    const s = await simFor('updates-during-traversal', { seed: 4 });
    const met: string[] = [];
    let last: string | undefined;
    for (let page = 0; page < 200; page++) {
      const filter = last === undefined ? '' : `&filter=ge(updated_at,${last})`;
      const records = recordsOf((await s.target.send({ method: 'GET', url: `/v2/accounts?sort=updated_at&page[limit]=20${filter}` })).body);
      // De-duplicate the boundary (the previous page), as §4.3 says: what is left met twice was updated meanwhile.
      const boundary = new Set(met.slice(-20));
      met.push(...records.map((r) => r.id).filter((id) => !boundary.has(id)));
      const tail = records.at(-1);
      if (records.length < 20 || tail === undefined) break;
      last = timestampOf(tail, 'updated_at');
    }
    expect(new Set(met).size, 'records met more than once').toBeLessThan(met.length);

    const again = await simFor('updates-during-traversal', { seed: 4 });
    const first = await syncSince(again.target, '/v2/accounts', undefined, { pageSize: 20 });
    const ids = first.upserts.map((u) => u.id);
    expect(new Set(ids).size, 'each record once in a sync').toBe(ids.length);
    // Records updated during the sync moved past its upper bound: the next sync delivers them.
    calm(again);
    const second = await syncSince(again.target, '/v2/accounts', first.checkpoint, { pageSize: 20 });
    expect(new Set([...ids, ...second.upserts.map((u) => u.id)]).size).toBe(120);
  });
});

describe('trap: eventual consistency', () => {
  /** Syncs in rounds while records are inserted, then lets the window pass and syncs once more. */
  async function replicate(seed: number, bufferMs: number | undefined) {
    const s = await simFor('eventual-consistency', { seed });
    const replica = new Set<string>();
    let checkpoint: SyncCheckpoint | undefined;
    const options = { pageSize: 10, now: s.now, ...(bufferMs === undefined ? {} : { bufferMs }) };
    for (let round = 0; round < 6; round++) {
      const r = await syncSince(s.target, '/v2/accounts', checkpoint, options);
      for (const u of r.upserts) replica.add(u.id);
      checkpoint = r.checkpoint;
    }
    calm(s);
    passWindow(s);
    for (const u of (await syncSince(s.target, '/v2/accounts', checkpoint, options)).upserts) replica.add(u.id);
    return { missed: [...visibleAccounts(s.project).keys()].filter((id) => !replica.has(id)) };
  }

  it.each(SEEDS)('seed %i: a sync that trusts the newest visible timestamp loses records; one with a buffer of the window does not', async (seed) => {
    expect((await replicate(seed, undefined)).missed.length, 'records lost for good without a buffer').toBeGreaterThan(0);
    expect((await replicate(seed, 10_000)).missed).toEqual([]);
  });
});

describe('trap: deletes are invisible to an updated_at sync', () => {
  it('the sync says so; a deleted record stays in the replica until an id export is compared', async () => {
    const s = await simFor('default', { seed: 6, accounts: 30 });
    const first = await syncSince(s.target, '/v2/accounts', undefined, {});
    expect(first.deletesVisible).toBe(false);
    expect(first.note).toMatch(/deletes are not visible/i);
    const replica = new Set(first.upserts.map((u) => u.id));
    const doomed = createdId((await insertAccount(s.target, 'doomed')).body);
    const second = await syncSince(s.target, '/v2/accounts', first.checkpoint, {});
    expect(second.upserts.map((u) => u.id)).toEqual([doomed]);
    replica.add(doomed);
    expect((await s.target.send({ method: 'DELETE', url: `/v2/accounts/${doomed}` })).status).toBe(204);
    const third = await syncSince(s.target, '/v2/accounts', second.checkpoint, {});
    expect(third.upserts).toEqual([]);
    let csv = '';
    await exportAccounts(s.target, { write: (c) => void (csv += c) }, { sleep: noSleep });
    const live = new Set(
      parseCsv(csv)
        .slice(1)
        .map((row) => row[3] ?? ''),
    );
    expect([...replica].filter((id) => !live.has(id))).toEqual([doomed]);
  });
});
