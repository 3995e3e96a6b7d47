/**
 * Indexes built ahead of the first read (warmSteps) and descending indexes derived from ascending ones
 * order records exactly as a sort does: equal values (shared timestamps, missing names) included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Collection, recordOrder, type SimRecord } from '../../src/store/collection.js';
import { accounts } from '../../src/store/resources.js';
import { drain } from '../../src/store/steps.js';

const record = (i: number, created: number, updated: number, name: string | null): SimRecord => ({
  id: `${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`,
  createdMs: created * 1000,
  updatedMs: updated * 1000,
  attrs: { name, legal_name: null, registration_id: null, external_ref: null },
});

describe('warmed and derived indexes', () => {
  it('page like a sort of every record, both directions, both tie orders', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.option(fc.constantFrom('a', 'b', 'c'))), { maxLength: 300 }),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.boolean(),
        (rows, ties, warm) => {
          const records = rows.map(([c, u, n], i) => record(i, c, u, n));
          const coll = new Collection(accounts.filter, undefined, ties);
          coll.load(records);
          if (warm) drain(coll.warmSteps(['id', 'created_at', 'updated_at', 'name']));
          for (const field of ['id', 'created_at', 'updated_at', 'name'])
            for (const direction of ['asc', 'desc'] as const) {
              const page = coll.page({ clauses: [], sort: { field, direction }, offset: 0, limit: records.length + 1 });
              expect(page.records.map((r) => r.id)).toEqual([...records].sort(recordOrder(field, direction, ties)).map((r) => r.id));
            }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('leaves no index for a first read to build: every field in both directions', () => {
    const records = Array.from({ length: 5000 }, (_, i) => record(i, i % 7, i % 11, i % 3 === 0 ? null : `n${i % 13}`));
    const coll = new Collection(accounts.filter, undefined, 'asc');
    coll.load(records);
    drain(coll.warmSteps(['id', 'created_at', 'updated_at', 'name']));
    // The index map is private: what is asserted is that reads in any order add nothing to it.
    const built = (coll as unknown as { indexes: Map<string, unknown> }).indexes;
    const before = [...built.keys()].sort();
    for (const field of ['id', 'created_at', 'updated_at', 'name']) for (const direction of ['asc', 'desc'] as const) coll.page({ clauses: [], sort: { field, direction }, offset: 10, limit: 5 });
    expect(before).toHaveLength(8);
    expect([...built.keys()].sort()).toEqual(before);
    // The work budget's measure of each filterable field is taken too, not by the first filter on it.
    const measured = (coll as unknown as { longestText: { longest: Map<string, number> } }).longestText.longest;
    expect([...measured.keys()].sort()).toEqual(Object.keys(accounts.filter).sort());
    expect(measured.get('name')).toBe(3);
  });
});
