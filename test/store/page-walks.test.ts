/**
 * The walks of a list read (src/store/page-walks.ts) against a reference that is not them: the records
 * as the test wrote them, filtered by the clauses' meaning written out here, sorted by the documented
 * order (the field, ties by ascending id), and sliced. A walk yields every 2,048 records it meets; a slip
 * at a step boundary drops or repeats the record met there, which only a read of more than one step
 * shows. So each plan the store chooses between (a scan, a walk to the first matches, a driver, a
 * lookup) is forced by the shape of the read, checked to be the one taken, and made to meet 2,047 to
 * 6,145 records: one below, at and above each of the first three step boundaries.
 */
import { describe, expect, it, vi } from 'vitest';
import type { FilterClause } from '../../src/engine/filter.js';
import { Collection, type PageQuery, type PageResult } from '../../src/store/collection.js';
import { accounts } from '../../src/store/resources.js';

/** The plans the walks were asked to run, in order (planSteps is the one entry of each plan). */
const taken = vi.hoisted(() => [] as string[]);
vi.mock('../../src/store/page-walks.js', async (importOriginal) => {
  const walks = await importOriginal<typeof import('../../src/store/page-walks.js')>();
  return {
    ...walks,
    planSteps: (...args: Parameters<typeof walks.planSteps>) => {
      taken.push(args[1].kind);
      return walks.planSteps(...args);
    },
  };
});

/** One record as the test wrote it. */
interface Plain {
  readonly id: string;
  readonly createdMs: number;
  readonly updatedMs: number;
  readonly name: string;
}

const N = 20_000;
const T0 = Date.UTC(2025, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
/** Ids in an order unrelated to creation: i·7919 mod 20,011 (a prime) is one-to-one on 0..20,010. */
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Record i: created i seconds after T0 (one per second), updated in groups of three sharing a second, in another order. */
function seeded(): Plain[] {
  return Array.from({ length: N }, (_, i) => ({
    id: idOf((i * 7919) % 20_011),
    createdMs: T0 + i * 1000,
    updatedMs: T0 + 1000 * Math.floor(((i * 37) % N) / 3),
    name: `name ${i % 37}`,
  }));
}

const stored = (p: Plain) => ({ id: p.id, createdMs: p.createdMs, updatedMs: p.updatedMs, attrs: { name: p.name } });

// ---------- the reference: filter, sort, slice, each written out plainly ----------

function valueOf(r: Plain, field: string): string | number {
  if (field === 'id') return r.id;
  if (field === 'created_at') return r.createdMs;
  if (field === 'updated_at') return r.updatedMs;
  return r.name;
}

/** A clause's meaning: timestamps compare as instants, ids and names as text; `like` here is only ever `*text*`. */
function clauseTest(c: FilterClause): (r: Plain) => boolean {
  const asValue = (v: string) => (c.field === 'created_at' || c.field === 'updated_at' ? Date.parse(v) : v);
  const first = asValue(c.values[0] ?? '');
  switch (c.op) {
    case 'ge':
      return (r) => valueOf(r, c.field) >= first;
    case 'gt':
      return (r) => valueOf(r, c.field) > first;
    case 'le':
      return (r) => valueOf(r, c.field) <= first;
    case 'lt':
      return (r) => valueOf(r, c.field) < first;
    case 'in': {
      const wanted = new Set(c.values.map(asValue));
      return (r) => wanted.has(valueOf(r, c.field));
    }
    case 'like': {
      const inner = /^\*([^*]+)\*$/.exec(c.values[0] ?? '')?.[1];
      if (inner === undefined) throw new Error(`the reference reads only *text* patterns, not ${c.values[0]}`);
      return (r) => String(valueOf(r, c.field)).includes(inner);
    }
    default:
      throw new Error(`the reference does not read ${c.op}`);
  }
}

function reference(records: readonly Plain[], q: PageQuery): { total: number; ids: string[] } {
  const tests = q.clauses.map(clauseTest);
  const matching = records.filter((r) => tests.every((t) => t(r)));
  const sign = q.sort.direction === 'asc' ? 1 : -1;
  const byId = (a: Plain, b: Plain) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  matching.sort((a, b) => {
    const x = valueOf(a, q.sort.field);
    const y = valueOf(b, q.sort.field);
    if (x !== y) return sign * (x < y ? -1 : 1);
    // Ties by ascending id, whatever the direction; on id itself there are none.
    return byId(a, b);
  });
  return { total: matching.length, ids: matching.slice(q.offset, q.offset + q.limit).map((r) => r.id) };
}

// ---------- the read under test ----------

/** The read run in its steps, one at a time, as the served simulator runs it: the page, the plans taken and the yields between slices. */
function sliced(c: Collection, q: PageQuery): { result: PageResult; plans: string[]; yields: number } {
  taken.length = 0;
  const read = c.read(q, 0);
  if (read.kind !== 'steps') throw new Error(`expected a read in steps, got one answered at once (${JSON.stringify(read.result.total)})`);
  let yields = 0;
  let next = read.steps.next();
  while (next.done !== true) {
    yields++;
    next = read.steps.next();
  }
  return { result: next.value, plans: [...taken], yields };
}

/** Records met: one below, at and above each of the first three step boundaries. */
const SIZES = [2047, 2048, 2049, 4095, 4096, 4097, 6143, 6144, 6145];
const like = (text: string): FilterClause => ({ op: 'like', field: 'name', values: [`*${text}*`] });
const clause = (op: FilterClause['op'], field: string, ...values: string[]): FilterClause => ({ op, field, values });

/** One read's clauses and sort, the plan it must take, and the pages asked of it. */
interface Case {
  readonly plan: 'scan' | 'first-matches' | 'driver' | 'lookup';
  readonly what: string;
  readonly clauses: readonly FilterClause[];
  readonly sort: PageQuery['sort'];
  readonly pages: readonly { readonly offset: number; readonly limit: number }[];
}

/** Pages of a read meeting `size` records: all of it, a short page across its first step boundary, and one at its end. */
const across = (size: number) => [
  { offset: 0, limit: size + 10 },
  { offset: 2040, limit: 20 },
  { offset: size - 15, limit: 100 },
];

/**
 * Reads whose plan each size forces, over `records`:
 * - scan: an interval on the sort field cuts a run of `size` records, and a pattern no index answers tests each;
 * - first-matches: one interval on another field and nothing else, its page ending `size` records into the walk;
 * - driver: sorted by id (records scattered in memory), an interval on created_at of `size` records and a pattern;
 * - lookup: `in` on id or created_at naming `size` records, sorted by id.
 */
function cases(records: readonly Plain[], size: number): Case[] {
  const byCreated = [...records].sort((a, b) => a.createdMs - b.createdMs || (a.id < b.id ? -1 : 1));
  const ids = records.map((r) => r.id).sort();
  const fromCreated = clause('ge', 'created_at', iso((byCreated[byCreated.length - size] as Plain).createdMs));
  const fromId = clause('ge', 'id', ids[ids.length - size] as string);
  const everyThird = byCreated.filter((_, i) => i % 3 === 0).slice(0, size);
  const out: Case[] = [];
  for (const direction of ['asc', 'desc'] as const) {
    const by = (field: string) => ({ field, direction });
    out.push({ plan: 'scan', what: `created_at ${direction}, every record a match`, clauses: [fromCreated, like('name')], sort: by('created_at'), pages: across(size) });
    out.push({ plan: 'scan', what: `created_at ${direction}, some records a match`, clauses: [fromCreated, like('1')], sort: by('created_at'), pages: across(size) });
    out.push({ plan: 'scan', what: `id ${direction}`, clauses: [fromId, like('name')], sort: by('id'), pages: across(size) });
    // Every record matches: the walk meets exactly offset + limit records.
    const to = [
      { offset: 0, limit: size },
      { offset: size - 20, limit: 20 },
    ];
    out.push({ plan: 'first-matches', what: `created_at ${direction}, every record a match`, clauses: [clause('ge', 'updated_at', iso(T0))], sort: by('created_at'), pages: to });
    // About half match, scattered: the walk meets about twice as many as it keeps.
    out.push({ plan: 'first-matches', what: `created_at ${direction}, half matching`, clauses: [clause('lt', 'updated_at', iso(T0 + 1000 * Math.floor(N / 6)))], sort: by('created_at'), pages: to });
    out.push({ plan: 'driver', what: `id ${direction}, every record of the run a match`, clauses: [fromCreated, like('name')], sort: by('id'), pages: across(size) });
    out.push({ plan: 'driver', what: `id ${direction}, some records of the run a match`, clauses: [fromCreated, like('2')], sort: by('id'), pages: across(size) });
    out.push({ plan: 'lookup', what: `in(id) of ${size} ids, id ${direction}`, clauses: [clause('in', 'id', ...everyThird.map((r) => r.id))], sort: by('id'), pages: across(size) });
    const instants = clause('in', 'created_at', ...everyThird.map((r) => iso(r.createdMs)));
    out.push({ plan: 'lookup', what: `in(created_at) of ${size} instants, id ${direction}`, clauses: [instants], sort: by('id'), pages: across(size) });
  }
  return out;
}

function check(c: Collection, records: readonly Plain[], size: number): void {
  for (const { plan, what, clauses, sort, pages } of cases(records, size)) {
    const all = reference(records, { clauses, sort, offset: 0, limit: records.length });
    for (const { offset, limit } of pages) {
      const label = `${plan}, ${what}, ${size} records met, page[offset]=${offset} page[limit]=${limit}`;
      const { result, plans, yields } = sliced(c, { clauses, sort, offset, limit });
      expect(plans, label).toEqual([plan]);
      expect(result.total, label).toBe(all.total);
      expect(
        result.records.map((r) => r.id),
        label,
      ).toEqual(all.ids.slice(offset, offset + limit));
      // The read really ran in slices: at least one yield per full step it met.
      if (offset + limit >= size) expect(yields, label).toBeGreaterThanOrEqual(Math.floor(size / 2048));
    }
  }
}

describe('every plan of a sliced read gives the page a plain filter, sort and slice gives, across step boundaries', () => {
  const records = seeded();
  const plain = new Collection(accounts.filter);
  plain.load(records.map(stored));

  for (const size of SIZES) it(`one collection, ${size} records met`, () => check(plain, records, size));

  it('a project over a shared base (own records, deleted and changed base records), 2,047 to 6,145 records met', () => {
    const layer = new Collection(accounts.filter, plain);
    const model = new Map(records.map((r) => [r.id, r]));
    // Own records created between the base's (half a second after each 37th), ids in a range of their own.
    for (let k = 0; k < 500; k++) {
      const own: Plain = { id: `10000000-0000-4000-8000-${String(k).padStart(12, '0')}`, createdMs: T0 + k * 37_000 + 500, updatedMs: T0 + k * 11_000 + 1, name: `own ${k}` };
      layer.insert(stored(own));
      model.set(own.id, own);
    }
    // Base records deleted (every 61st) and changed (every 53rd: a new name and updated_at, on a private copy).
    for (let i = 0; i < N; i += 61) {
      const id = (records[i] as Plain).id;
      expect(layer.remove(id)?.id).toBe(id);
      model.delete(id);
    }
    for (let i = 7; i < N; i += 53) {
      const r = model.get((records[i] as Plain).id);
      if (r === undefined) continue;
      const changed: Plain = { ...r, updatedMs: r.updatedMs + 1500, name: `changed ${i % 37}` };
      layer.update(layer.get(r.id) as ReturnType<Collection['get']> & object, (x) => {
        x.updatedMs = changed.updatedMs;
        x.attrs['name'] = changed.name;
      });
      model.set(r.id, changed);
    }
    const now = [...model.values()];
    expect(layer.size).toBe(now.length);
    for (const size of [2047, 4096, 6145]) check(layer, now, size);
  });
});
