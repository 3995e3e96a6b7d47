/**
 * Maps and sets of ids in shards (store/id-map.ts): they answer what a Map and a Set answer for any
 * sequence of writes, and ids of the shapes records have spread over the shards (what keeps each growth
 * a 64th of the whole).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdMap, IdSet, shardOf, SHARDS } from '../../src/store/id-map.js';
import { createRandom } from '../../src/store/random.js';

const ids = fc.oneof(fc.uuid(), fc.string({ maxLength: 6 }), fc.constantFrom('', 'a', 'acc-00000001', 'acc-00000002'));
const op = fc.oneof(fc.record({ kind: fc.constant('set' as const), id: ids, value: fc.nat() }), fc.record({ kind: fc.constant('delete' as const), id: ids }));

describe('IdMap and IdSet', () => {
  it('answer get, has, size and the values held as a Map and a Set do, after any writes, below and past the split into shards', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.nat(12_000), (ops, filler) => {
        const map = new IdMap<number>();
        const model = new Map<string, number>();
        const set = new IdSet();
        const modelSet = new Set<string>();
        // Up to 12,000 numbered ids first: past 8,192 the map splits into shards, the writes then land on those.
        for (let i = 0; i < filler; i++) {
          map.set(`n${i}`, i);
          model.set(`n${i}`, i);
          set.add(`n${i}`);
          modelSet.add(`n${i}`);
        }
        for (const o of ops) {
          if (o.kind === 'set') {
            map.set(o.id, o.value);
            model.set(o.id, o.value);
            set.add(o.id);
            modelSet.add(o.id);
          } else expect(map.delete(o.id)).toBe(model.delete(o.id));
          expect(map.size).toBe(model.size);
          expect(set.size).toBe(modelSet.size);
        }
        for (const o of ops) {
          expect(map.get(o.id)).toBe(model.get(o.id));
          expect(map.has(o.id)).toBe(model.has(o.id));
          expect(set.has(o.id)).toBe(modelSet.has(o.id));
        }
        expect([...map.values()].sort()).toEqual([...model.values()].sort());
        expect([...set.values()].sort()).toEqual([...modelSet].sort());
      }),
      { seed: 36, numRuns: 100 },
    );
  });

  it.each([
    ['UUIDs', (i: number, uuid: () => string) => (i < 0 ? '' : uuid())],
    ['numbered ids', (i: number) => `acc-${String(i).padStart(8, '0')}`],
  ])('%s spread over the shards: each shard holds its share of 65,536 within a quarter', (_, make) => {
    const random = createRandom(36);
    const counts = new Array<number>(SHARDS).fill(0);
    for (let i = 0; i < 65_536; i++) {
      const shard = shardOf(make(i, () => random.uuid()));
      counts[shard] = (counts[shard] ?? 0) + 1;
    }
    // A share is 256 ids; a quarter of it is four standard deviations of a uniform draw.
    expect(Math.max(...counts)).toBeLessThan((1.25 * 65_536) / SHARDS);
    expect(Math.min(...counts)).toBeGreaterThan((0.75 * 65_536) / SHARDS);
  });
});
