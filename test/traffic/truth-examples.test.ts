/**
 * The ids a walk's ground truth names as examples (never read, read more than once) are the lowest ones,
 * whatever order the store's pass met the records in: the store promises none (its id map's shards, or the
 * order records were loaded in), and a report must not change with how memory is laid out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepLowest } from '../../src/traffic/sessions/ground-truth.js';

describe('keepLowest', () => {
  it('keeps the five lowest ids, ascending, from any order: the same as sorting them all and taking five', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 40 }), (ids) => {
        const lowest: string[] = [];
        for (const id of ids) keepLowest(lowest, id);
        expect(lowest).toEqual([...ids].sort().slice(0, 5));
      }),
      { numRuns: 300 },
    );
  });

  it('at the boundary: a sixth id above the five is not kept, one below them pushes out the highest', () => {
    const lowest: string[] = [];
    for (const id of ['c', 'e', 'a', 'd', 'b']) keepLowest(lowest, id);
    keepLowest(lowest, 'f');
    expect(lowest).toEqual(['a', 'b', 'c', 'd', 'e']);
    keepLowest(lowest, '0');
    expect(lowest).toEqual(['0', 'a', 'b', 'c', 'd']);
  });
});
