import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimRecord } from '../../src/store/collection.js';
import { sortById } from '../../src/store/ordered-runs.js';

const record = (id: string): SimRecord => ({ id, createdMs: 0, updatedMs: 0, attrs: {} });
const plain = (ids: readonly string[]) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('sortById (the packed native sort of the id index)', () => {
  it('orders UUID-shaped ids exactly as string comparison does, shared 32-bit prefixes included', () => {
    const hex = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });
    // Few distinct prefixes, so many ids share their first 8 digits and take the tie-breaking path.
    const id = fc.tuple(fc.constantFrom('00000000', '0000000f', 'ffffffff', '7a3c9e01'), hex(4), hex(4)).map(([p, a, b]) => `${p}-${a}-4${b.slice(1)}`);
    fc.assert(
      fc.property(fc.uniqueArray(id, { maxLength: 300 }), (ids) => {
        expect(sortById(ids.map(record)).map((r) => r.id)).toEqual(plain(ids));
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('falls back to the comparator for ids that are not hex-prefixed', () => {
    const ids = ['b', 'A', 'ffffffff-x', '0', 'zz', 'ffffffff-a'];
    expect(sortById(ids.map(record)).map((r) => r.id)).toEqual(plain(ids));
  });

  it('orders random UUIDs of the seeded generator', async () => {
    const { createRandom } = await import('../../src/store/random.js');
    const random = createRandom(3);
    const ids = Array.from({ length: 5000 }, () => random.uuid());
    expect(sortById(ids.map(record)).map((r) => r.id)).toEqual(plain(ids));
  });
});
