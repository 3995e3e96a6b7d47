/**
 * The record budget's pieces (store/record-budget.ts): the default from the heap, what a record weighs,
 * and a collection's tally kept right through any sequence of writes over a shared base.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Collection, type SimRecord } from '../../src/store/collection.js';
import { defaultMaxRecords, RecordBudget, RecordTally, recordWeight, seededRecordCount } from '../../src/store/record-budget.js';
import { accounts, listResources } from '../../src/store/resources.js';

const record = (i: number, name = `Name ${i}`): SimRecord => ({ id: `id-${String(i).padStart(4, '0')}`, createdMs: i, updatedMs: i, attrs: { name } });

describe('the record budget', () => {
  it('defaults to the heap limit at 2 KiB a record', () => {
    expect(defaultMaxRecords(4 * 2 ** 30)).toBe(2_097_152);
    expect(defaultMaxRecords(512 * 2 ** 20)).toBe(262_144);
  });

  it('weighs a record one per 256 characters of its text, at least one', () => {
    expect(recordWeight({ id: 'x'.repeat(36), attrs: { name: 'Acme Traders 1', legal_name: 'Acme Traders 1 Ltd', registration_id: null } })).toBe(1);
    expect(recordWeight({ id: 'x'.repeat(36), attrs: { a: 'n'.repeat(255), b: 'n'.repeat(255), c: 'n'.repeat(255), d: 'n'.repeat(255) } })).toBe(5);
    expect(recordWeight({ id: 'x', attrs: {}, credential: 'h'.repeat(600) })).toBe(3);
  });

  it('counts the seeded records of every list collection, defaults included', () => {
    const defaults = listResources.reduce((n, r) => n + r.defaultCount, 0);
    expect(seededRecordCount({})).toBe(defaults);
    expect(seededRecordCount({ accounts: 1000 })).toBe(defaults - accounts.defaultCount + 1000);
  });

  it("passes a project's tally on to the budget, and gives it back", () => {
    const budget = new RecordBudget(100, 10);
    budget.seeded = 50;
    const a = new RecordTally(budget);
    const b = new RecordTally(budget);
    a.add(30);
    b.add(10);
    expect(budget.free).toBe(0);
    a.release();
    expect(budget.written).toBe(10);
    expect(budget.free).toBe(30);
  });
});

type Op = { kind: 'insert'; i: number; long: boolean } | { kind: 'update'; pick: number; long: boolean } | { kind: 'remove'; pick: number } | { kind: 'hide'; pick: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), i: fc.integer({ min: 0, max: 60 }), long: fc.boolean() }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), long: fc.boolean() }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('hide' as const), pick: fc.nat({ max: 40 }) }),
);

describe("a collection's tally", () => {
  it('is always its own records by weight plus its deleted base records, whatever the writes', () => {
    const base = new Collection(accounts.filter);
    base.load(Array.from({ length: 30 }, (_, i) => record(i)));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const tally = new RecordTally();
        const coll = new Collection(accounts.filter, base, undefined, tally);
        for (const o of ops) {
          const all = [...coll.values()];
          if (o.kind === 'insert') {
            if (coll.get(record(o.i).id) === undefined) coll.insert(record(o.i, o.long ? 'n'.repeat(300) : 'short'));
          } else if (o.kind === 'hide') coll.hide(record(o.pick).id);
          else if (all.length > 0) {
            const target = all[o.pick % all.length] as SimRecord;
            if (o.kind === 'update')
              coll.update(target, (r) => {
                r.attrs['name'] = o.long ? 'n'.repeat(600) : 'changed';
              });
            else coll.remove(target.id);
          }
        }
        const own = coll.ownRecords();
        const ownIds = new Set(own.map((r) => r.id));
        const expected = own.reduce((n, r) => n + recordWeight(r), 0) + coll.deletedBaseIds().filter((id) => !ownIds.has(id)).length;
        expect(tally.count).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});
