import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileClause, type FilterClause, parseFilter } from '../../src/engine/filter.js';
import { Collection, fieldText, recordOrder, type SimRecord } from '../../src/store/collection.js';
import { accounts } from '../../src/store/resources.js';

/**
 * The collection's reads (index cuts, interval intersection, another field's index as driver, the
 * copy-on-write merge over a shared base) against the plainest reading: filter every record, sort, slice.
 */
const T0 = Date.UTC(2024, 0, 1);
const hex = (n: number) => n.toString(16).padStart(8, '0');
const record = (i: number, created: number, updated: number): SimRecord => ({
  id: `${hex((i * 2654435761) >>> 0)}-0000-4000-8000-${String(i).padStart(12, '0')}`,
  createdMs: T0 + created * 1000,
  updatedMs: T0 + updated * 1000,
  attrs: { name: `Name ${i % 7}`, legal_name: `Legal ${i}`, registration_id: `REG-${i}`, external_ref: null },
});

const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const RANGE_OPS = ['gt', 'ge', 'lt', 'le', 'eq'] as const;
const clause = fc.oneof(
  fc.tuple(fc.constantFrom(...RANGE_OPS), fc.constantFrom('created_at', 'updated_at'), fc.integer({ min: -2, max: 32 })).map(([op, f, s]) => `${op}(${f},${iso(s)})`),
  // Two bounds on one value: which of them is the tighter decides the interval's ends.
  fc
    .tuple(fc.constantFrom(...RANGE_OPS), fc.constantFrom(...RANGE_OPS), fc.constantFrom('created_at', 'updated_at'), fc.integer({ min: 0, max: 30 }))
    .map(([a, b, f, s]) => `${a}(${f},${iso(s)}):${b}(${f},${iso(s)})`),
  fc.tuple(fc.constantFrom('gt', 'ge', 'lt', 'le'), fc.integer({ min: 0, max: 60 })).map(([op, i]) => `${op}(id,${hex((i * 2654435761) >>> 0)})`),
  fc.integer({ min: 0, max: 8 }).map((n) => `eq(name,Name ${n})`),
  fc.constant('like(legal_name,Legal 1*)'),
);

type Op = { kind: 'insert'; i: number } | { kind: 'update'; pick: number; by: number } | { kind: 'remove'; pick: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.integer({ min: 300, max: 400 }).map((i) => ({ kind: 'insert' as const, i })),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), by: fc.integer({ min: -5, max: 30 }) }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
);

const matchesAll = (r: SimRecord, clauses: readonly FilterClause[]): boolean => clauses.every((c) => compileClause(c, accounts.filter)(fieldText(r, c.field)));

function reference(records: readonly SimRecord[], filter: string, field: string, direction: 'asc' | 'desc', offset: number, limit: number, visible?: (r: SimRecord) => boolean) {
  const parsed = parseFilter(filter, accounts.filter);
  const clauses = parsed.ok ? parsed.value : [];
  const all = records.filter((r) => matchesAll(r, clauses) && (visible === undefined || visible(r))).sort(recordOrder(field, direction));
  return { total: all.length, ids: all.slice(offset, offset + limit).map((r) => r.id) };
}

describe('Collection reads', () => {
  it('answer every filter, sort and page like a plain filter-sort-slice, over a shared base with writes on top', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 260 }),
        fc.array(op, { maxLength: 40 }),
        fc.array(clause, { maxLength: 10 }),
        fc.constantFrom('created_at', 'updated_at', 'id', 'name'),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.nat({ max: 260 }),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        fc.boolean(),
        (n, ops, clauses, field, direction, offset, limit, layered, hideSome) => {
          const seeded = Array.from({ length: n }, (_, i) => record(i, i % 20, (i * 7) % 30));
          const base = new Collection(accounts.filter);
          base.load(seeded);
          const coll = layered ? new Collection(accounts.filter, base) : new Collection(accounts.filter);
          if (!layered) coll.load(seeded.map((r) => ({ ...r, attrs: { ...r.attrs } })));
          // Read once first so indexes exist and writes must keep them ordered.
          coll.page({ clauses: [], sort: { field, direction }, offset: 0, limit: 1 });
          const model = new Map<string, SimRecord>(seeded.map((r) => [r.id, { ...r, attrs: { ...r.attrs } }]));
          for (const o of ops) {
            const ids = [...model.keys()].sort();
            if (o.kind === 'insert') {
              const r = record(o.i, o.i % 20, o.i % 30);
              if (model.has(r.id)) continue;
              coll.insert({ ...r, attrs: { ...r.attrs } });
              model.set(r.id, r);
            } else if (ids.length > 0) {
              const id = ids[o.pick % ids.length] as string;
              const current = coll.get(id) as SimRecord;
              if (o.kind === 'remove') {
                coll.remove(id);
                model.delete(id);
              } else {
                const updated = coll.update(current, (r) => {
                  r.updatedMs = T0 + o.by * 1000;
                });
                expect(updated.updatedMs).toBe(T0 + o.by * 1000);
                model.set(id, { ...(model.get(id) as SimRecord), updatedMs: T0 + o.by * 1000 });
              }
            }
          }
          const filter = clauses.join(':');
          const parsed = parseFilter(filter, accounts.filter);
          if (!parsed.ok) return;
          const visible = hideSome ? (r: SimRecord) => r.createdMs % 3000 !== 0 : undefined;
          const got = coll.page({ clauses: parsed.value, sort: { field, direction }, offset, limit, ...(visible ? { visible } : {}) });
          const want = reference([...model.values()], filter, field, direction, offset, limit, visible);
          expect({ total: got.total, ids: got.records.map((r) => r.id) }).toEqual(want);
          expect(coll.size).toBe(model.size);
          // The shared base is never written: its records keep their seeded values.
          for (const r of seeded) expect(base.get(r.id)?.updatedMs).toBe(r.updatedMs);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a collection over a base stores only its own writes and deletes', () => {
    const base = new Collection(accounts.filter);
    base.load(Array.from({ length: 1000 }, (_, i) => record(i, i, i)));
    const coll = new Collection(accounts.filter, base);
    expect(coll.ownRecords()).toHaveLength(0);
    const first = coll.page({ clauses: [], sort: { field: 'id', direction: 'asc' }, offset: 0, limit: 3 }).records;
    coll.update(first[0] as SimRecord, (r) => {
      r.updatedMs += 1;
    });
    coll.remove((first[1] as SimRecord).id);
    coll.insert(record(5000, 1, 1));
    expect(
      coll
        .ownRecords()
        .map((r) => r.id)
        .sort(),
    ).toEqual([(first[0] as SimRecord).id, record(5000, 1, 1).id].sort());
    expect(coll.deletedBaseIds()).toEqual([(first[1] as SimRecord).id]);
    expect(coll.size).toBe(1000);
  });
});
