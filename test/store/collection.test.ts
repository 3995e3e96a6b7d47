import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_OPS, compileClause, type FilterClause, type FilterSpec, parseFilter } from '../../src/engine/filter.js';
import { Collection, fieldText, recordOrder, type SimRecord } from '../../src/store/collection.js';
import { accounts } from '../../src/store/resources.js';

/**
 * The collection's reads (index cuts, interval intersection, another field's index as driver, lookups
 * of `in` values, the copy-on-write merge over a shared base) against the plainest reading: filter every
 * record, sort, slice. Under a budget, a read is refused exactly when its estimated cost is over it.
 */
// The accounts table, with `in` on the timestamps and every operator on name, so that each way of reading has a clause.
const spec: FilterSpec = {
  ...accounts.filter,
  created_at: { kind: 'timestamp', ops: ['eq', 'in', 'gt', 'ge', 'lt', 'le'] },
  updated_at: { kind: 'timestamp', ops: ['eq', 'in', 'gt', 'ge', 'lt', 'le'] },
  name: { kind: 'string', ops: FILTER_OPS },
};
const T0 = Date.UTC(2024, 0, 1);
const hex = (n: number) => n.toString(16).padStart(8, '0');
const idOf = (i: number) => `${hex((i * 2654435761) >>> 0)}-0000-4000-8000-${String(i).padStart(12, '0')}`;
const record = (i: number, created: number, updated: number): SimRecord => ({
  id: idOf(i),
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
  // Lookups read other records than scans do (over a base, hidden ones too): weighted up so that they meet writes often.
  // Ids of seeded, inserted and unknown records, sometimes repeated.
  { weight: 2, arbitrary: fc.array(fc.integer({ min: 0, max: 420 }), { minLength: 1, maxLength: 6 }).map((is) => `in(id,${is.map(idOf).join(',')})`) },
  {
    weight: 3,
    arbitrary: fc.array(fc.integer({ min: -1, max: 31 }), { minLength: 1, maxLength: 4 }).chain((ss) => fc.constantFrom('created_at', 'updated_at').map((f) => `in(${f},${ss.map(iso).join(',')})`)),
  },
  fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 3 }).map((ns) => `in(name,${ns.map((n) => `Name ${n}`).join(',')})`),
  fc.constantFrom('like(name,N**e*3)', 'like(legal_name,*e*1*)', 'ilike(name,*name 1*)', 'contains(name,me 2)', 'is_null(name)'),
);

type Op = { kind: 'insert'; i: number } | { kind: 'update'; pick: number; by: number } | { kind: 'remove'; pick: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.integer({ min: 300, max: 400 }).map((i) => ({ kind: 'insert' as const, i })),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), by: fc.integer({ min: -5, max: 30 }) }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
);

const matchesAll = (r: SimRecord, clauses: readonly FilterClause[]): boolean => clauses.every((c) => compileClause(c, spec)(fieldText(r, c.field)));

function reference(records: readonly SimRecord[], filter: string, field: string, direction: 'asc' | 'desc', offset: number, limit: number, visible?: (r: SimRecord) => boolean) {
  const parsed = parseFilter(filter, spec);
  const clauses = parsed.ok ? parsed.value : [];
  const all = records.filter((r) => matchesAll(r, clauses) && (visible === undefined || visible(r))).sort(recordOrder(field, direction));
  return { total: all.length, ids: all.slice(offset, offset + limit).map((r) => r.id) };
}

describe('Collection reads', () => {
  it('answer every filter, sort and page like a plain filter-sort-slice, over a shared base with writes on top; refused iff the estimate is over the budget', () => {
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
        fc.option(fc.integer({ min: 1, max: 3000 }), { nil: undefined }),
        (n, ops, clauses, field, direction, offset, limit, layered, hideSome, budget) => {
          const seeded = Array.from({ length: n }, (_, i) => record(i, i % 20, (i * 7) % 30));
          const base = new Collection(spec);
          base.load(seeded);
          const coll = layered ? new Collection(spec, base) : new Collection(spec);
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
          const parsed = parseFilter(filter, spec);
          if (!parsed.ok) return;
          const visible = hideSome ? (r: SimRecord) => r.createdMs % 3000 !== 0 : undefined;
          const read = { clauses: parsed.value, sort: { field, direction }, offset, limit, ...(visible ? { visible } : {}) };
          const got = coll.page(read);
          const want = reference([...model.values()], filter, field, direction, offset, limit, visible);
          expect(got.refused).toBeUndefined();
          expect({ total: got.total, ids: got.records.map((r) => r.id) }).toEqual(want);
          if (budget !== undefined) {
            // The estimate is made before the read and does not depend on the budget. Within it, the read
            // is answered; over it, refused (reading nothing), unless it is a walk that met its page within
            // the budget's worth of records (Collection.page): then the page is right.
            const budgeted = coll.page({ ...read, maxScan: budget });
            expect(budgeted.cost).toBe(got.cost);
            if (budgeted.refused !== undefined) expect([got.cost > budget, budgeted]).toEqual([true, { total: 0, records: [], cost: got.cost, refused: { cost: got.cost } }]);
            else expect({ total: budgeted.total, ids: budgeted.records.map((r) => r.id) }).toEqual(want);
            if (got.cost <= budget) expect(budgeted.refused).toBeUndefined();
          }
          expect(coll.size).toBe(model.size);
          // The shared base is never written: its records keep their seeded values.
          for (const r of seeded) expect(base.get(r.id)?.updatedMs).toBe(r.updatedMs);
        },
      ),
      { numRuns: 800 },
    );
  });

  it('a walk whose worst case is over the budget answers when it meets its page within the budget, and is refused when it does not', () => {
    // One interval on updated_at, sorted by name: the walk in name order stops once it has the page.
    const build = (nameOf: (i: number) => string) => {
      const c = new Collection(spec);
      c.load(Array.from({ length: 1000 }, (_, i) => ({ ...record(i, i, i), attrs: { name: nameOf(i), legal_name: null, registration_id: null, external_ref: null } })));
      return c;
    };
    const read = { clauses: [{ op: 'ge' as const, field: 'updated_at', values: [iso(500)] }], sort: { field: 'name', direction: 'asc' as const }, offset: 0, limit: 10 };
    // Matches spread through the name order: met early.
    const spread = build((i) => `n${String((i * 7919) % 1000).padStart(4, '0')}`);
    const early = spread.page({ ...read, maxScan: 1000 });
    expect(early.cost).toBeGreaterThan(1000);
    expect(early.refused).toBeUndefined();
    expect(early.total).toBe(500);
    expect(early.records.map((r) => r.id)).toEqual(spread.page(read).records.map((r) => r.id));
    // Matches all after the 500 others in name order: the budget runs out first.
    const late = build((i) => (i >= 500 ? `z${i}` : `a${i}`)).page({ ...read, maxScan: 1000 });
    expect(late).toEqual({ total: 0, records: [], cost: late.cost, refused: { cost: late.cost } });
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
