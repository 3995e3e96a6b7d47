/** The §4.3 iterator against the in-process simulator: every attribute, both ways of paging ties, resuming, extra filters. */
import { describe, expect, it } from 'vitest';
import { iterate, timestampOf, type IterateOptions, type KeysetReader, type ListRecord } from '../../src/client/keyset.js';
import { iso } from '../../src/store/clock.js';
import { noSleep, simFor, visibleAccounts } from './helpers.js';

async function drain(reader: KeysetReader): Promise<ListRecord[]> {
  const out: ListRecord[] = [];
  for await (const r of reader) out.push(r);
  return out;
}

const sortedIds = (records: readonly { id: string }[]) => records.map((r) => r.id).sort();

describe('iterate', () => {
  it.each(['id', 'created_at', 'updated_at'] as const)('by %s visits every account once, in order', async (attribute) => {
    const s = await simFor('default', { seed: 3, accounts: 137 });
    const records = await drain(iterate(s.target, '/v2/accounts', { attribute, pageSize: 10, sleep: noSleep }));
    expect(sortedIds(records)).toEqual([...visibleAccounts(s.project).keys()].sort());
    const keys = records.map((r) => (attribute === 'id' ? r.id : (timestampOf(r, attribute) ?? '')));
    expect(keys).toEqual([...keys].sort());
  });

  it("by id sends the document's requests: sort=id, gt(id,<last>), and stops at the first empty page", async () => {
    const s = await simFor('default', { seed: 1, accounts: 5 });
    const urls: string[] = [];
    const reader = iterate(s.target, '/v2/accounts', { attribute: 'id', pageSize: 2, onPage: (p) => urls.push(p.url) });
    const records = await drain(reader);
    expect(urls).toEqual([
      '/v2/accounts?sort=id&page[limit]=2',
      `/v2/accounts?sort=id&filter=gt(id,${records[1]?.id})&page[limit]=2`,
      `/v2/accounts?sort=id&filter=gt(id,${records[3]?.id})&page[limit]=2`,
      `/v2/accounts?sort=id&filter=gt(id,${records[4]?.id})&page[limit]=2`,
    ]);
    expect(reader.stats).toMatchObject({ pages: 4, records: 5, requests: 4 });
    expect(reader.position()).toEqual({ attribute: 'id', after: records[4]?.id });
  });

  it.each(['keyset', 'offset'] as const)('pages through bursts sharing one timestamp, larger than a page (ties: %s)', async (ties) => {
    const s = await simFor('shared-timestamps', { seed: 9, accounts: 320 });
    for (const attribute of ['created_at', 'updated_at'] as const) {
      for (const pageSize of [1, 7, 100]) {
        const reader = iterate(s.target, '/v2/accounts', { attribute, pageSize, ties });
        const records = await drain(reader);
        expect(records).toHaveLength(320);
        expect(new Set(records.map((r) => r.id)).size).toBe(320);
      }
    }
  });

  it('resumes a timestamp traversal from its position without repeating the boundary', async () => {
    const s = await simFor('shared-timestamps', { seed: 4, accounts: 320 });
    const options: IterateOptions = { attribute: 'created_at', pageSize: 40 };
    const first = iterate(s.target, '/v2/accounts', options);
    const head: ListRecord[] = [];
    for await (const r of first) {
      head.push(r);
      if (head.length === 170) break; // inside the second burst
    }
    const position = first.position();
    if (position.attribute === 'id' || position.from === undefined) throw new Error('no position');
    expect(position.from.ids).toHaveLength(20);
    const tail = await drain(iterate(s.target, '/v2/accounts', { ...options, from: position.from }));
    expect(sortedIds([...head, ...tail])).toEqual([...visibleAccounts(s.project).keys()].sort());
  });

  it('resumes an id traversal after a given id', async () => {
    const s = await simFor('default', { seed: 5, accounts: 50 });
    const all = await drain(iterate(s.target, '/v2/accounts', { attribute: 'id', pageSize: 100 }));
    const rest = await drain(iterate(s.target, '/v2/accounts', { attribute: 'id', pageSize: 7, after: all[19]?.id ?? '' }));
    expect(rest.map((r) => r.id)).toEqual(all.slice(20).map((r) => r.id));
  });

  it('joins a caller filter to its own with ":" and keeps other parameters', async () => {
    const s = await simFor('default', { seed: 6, accounts: 60 });
    const urls: string[] = [];
    const records = await drain(iterate(s.target, '/v2/accounts', { attribute: 'id', pageSize: 5, query: { filter: 'like(name,Acme*)' }, onPage: (p) => urls.push(p.url) }));
    const expected = [...visibleAccounts(s.project).values()].filter((r) => r.attrs['name']?.startsWith('Acme')).map((r) => r.id);
    expect(records.map((r) => r.id)).toEqual(expected.sort());
    expect(urls[1]).toMatch(/filter=like\(name,Acme\*\):gt\(id,[0-9a-f-]+\)/);
    expect(() => iterate(s.target, '/v2/accounts', { attribute: 'id', query: { sort: 'name' } })).toThrow(RangeError);
  });

  it('keeps a record back until it is older than the buffer (eventual consistency)', async () => {
    const s = await simFor('default', { seed: 7, accounts: 20 });
    const newest = Math.max(...[...visibleAccounts(s.project).values()].map((r) => r.createdMs));
    const now = () => newest + 60_000;
    const records = await drain(iterate(s.target, '/v2/accounts', { attribute: 'created_at', bufferMs: 60_000 + 30_000 * 5, now }));
    expect(records).toHaveLength(15);
    expect(records.every((r) => (timestampOf(r, 'created_at') ?? '') <= iso(newest - 30_000 * 5))).toBe(true);
  });

  it('by id with a buffer leaves out accounts created within it', async () => {
    const s = await simFor('default', { seed: 7, accounts: 20 });
    const created = [...visibleAccounts(s.project).values()].map((r) => r.createdMs).sort((a, b) => a - b);
    const newest = created[created.length - 1] ?? 0;
    const records = await drain(iterate(s.target, '/v2/accounts', { attribute: 'id', bufferMs: 100_000, now: () => newest + 10_000 }));
    expect(records).toHaveLength(created.filter((ms) => ms <= newest - 90_000).length);
    expect(records.length).toBeLessThan(20);
  });

  it('never delivers the boundary twice from a target whose gt behaves as ge', async () => {
    const { Simulator } = await import('../../src/sim/simulator.js');
    const { simTargetOf } = await import('../../src/adapters/simulator.js');
    const sim = new Simulator({ seed: 8, accounts: 33, deviate: ['filter.gt'], wallClock: () => 0 });
    const records = await drain(iterate(simTargetOf(sim), '/v2/accounts', { attribute: 'id', pageSize: 4 }));
    expect(records).toHaveLength(33);
    expect(new Set(records.map((r) => r.id)).size).toBe(33);
  });

  it('reports CLIENT_NO_PROGRESS when the target answers the same page whatever the filter', async () => {
    const page = JSON.stringify({ data: [{ id: 'a' }, { id: 'b' }] });
    const target = { kind: 'http' as const, baseUrl: 'http://x.test', vars: {}, send: () => Promise.resolve({ status: 200, headers: {}, body: page }), close: () => Promise.resolve() };
    await expect(drain(iterate(target, '/v2/accounts', { attribute: 'id', pageSize: 2 }))).rejects.toMatchObject({ code: 'CLIENT_NO_PROGRESS' });
  });

  it('reports CLIENT_BAD_RESPONSE for a body that is not a list of records', async () => {
    const target = {
      kind: 'http' as const,
      baseUrl: 'http://x.test',
      vars: {},
      send: () => Promise.resolve({ status: 200, headers: {}, body: '{"data":[{"name":"no id"}]}' }),
      close: () => Promise.resolve(),
    };
    await expect(drain(iterate(target, '/v2/accounts', { attribute: 'id' }))).rejects.toMatchObject({ code: 'CLIENT_BAD_RESPONSE' });
  });
});
