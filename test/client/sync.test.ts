/** The incremental sync: only what changed since a stored checkpoint, each once, and checkpoints that survive JSON. */
import { describe, expect, it } from 'vitest';
import { readCheckpoint, syncSince } from '../../src/client/sync.js';
import { createdId, insertAccount, simFor } from './helpers.js';

describe('syncSince', () => {
  it('from no checkpoint delivers every record; from its checkpoint, read back from JSON, only what changed since', async () => {
    const s = await simFor('shared-timestamps', { seed: 2, accounts: 320 });
    const first = await syncSince(s.target, '/v2/accounts', undefined, { pageSize: 50 });
    expect(first.upserts).toHaveLength(320);
    const stored = readCheckpoint(JSON.parse(JSON.stringify(first.checkpoint)));
    expect(stored).toEqual(first.checkpoint);
    // The last burst (20 records) shares the checkpoint's timestamp: all of them are remembered.
    expect(stored?.ids).toHaveLength(20);

    expect((await syncSince(s.target, '/v2/accounts', stored, { pageSize: 50 })).upserts).toEqual([]);
    const victim = first.upserts[7]?.id ?? '';
    const put = await s.target.send({ method: 'PUT', url: `/v2/accounts/${victim}`, headers: { 'content-type': 'application/json' }, body: '{"data":{"type":"account","name":"Renamed"}}' });
    expect(put.status).toBe(200);
    const added = createdId((await insertAccount(s.target, 'Added')).body);
    const next = await syncSince(s.target, '/v2/accounts', stored, { pageSize: 50 });
    expect(next.upserts.map((u) => [u.id, u['name']])).toEqual([
      [victim, 'Renamed'],
      [added, 'Added'],
    ]);
    expect(next.checkpoint?.ids).toEqual([added]);
  });

  it('an empty collection gives no checkpoint; the next call starts from the beginning', async () => {
    const s = await simFor('default', { seed: 2, accounts: 0 });
    const r = await syncSince(s.target, '/v2/accounts', undefined);
    expect(r).toMatchObject({ upserts: [], checkpoint: undefined, deletesVisible: false });
  });

  it.each([
    null,
    'x',
    { attribute: 'created_at', value: '2025-01-01T00:00:00.000Z', ids: [] },
    { attribute: 'updated_at', value: 'soon', ids: [] },
    { attribute: 'updated_at', value: '2025-01-01T00:00:00.000Z', ids: [1] },
  ])('readCheckpoint refuses %j', (value) => {
    expect(readCheckpoint(value)).toBeUndefined();
  });
});
