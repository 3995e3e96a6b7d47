/**
 * Long reads in slices, not refusals (issue 28): a list read whose plan costs more than a slice runs as
 * steps between other requests and answers exactly what an unsliced read answers, on one version of the
 * data: changes to its project wait for it. Work is counted in steps and orderings, never in time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FilterClause } from '../../src/engine/filter.js';
import { scanCap } from '../../src/engine/read-cost.js';
import { Lifecycle, listen } from '../../src/sim/server.js';
import { sliced } from '../../src/sim/slicer.js';
import { Simulator } from '../../src/sim/simulator.js';
import type { SimResponse } from '../../src/sim/messages.js';
import { Collection, type PageQuery } from '../../src/store/collection.js';
import { accounts } from '../../src/store/resources.js';
import { drain, type Steps } from '../../src/store/steps.js';
import { at, harness } from './helpers.js';

/** A slicer the test drives: jobs wait until `runAll` runs them, each to the end, in the order they came. */
function manualSlicer() {
  const jobs: { steps: Steps<unknown>; resolve: (done: boolean) => void }[] = [];
  let steps = 0;
  return {
    slicer: (s: Steps<unknown>) => new Promise<boolean>((resolve) => jobs.push({ steps: s, resolve })),
    pending: () => jobs.length,
    steps: () => steps,
    /** Runs every job (and any a finished one let start) to the end, letting answers settle between. */
    async runAll(): Promise<void> {
      for (;;) {
        await new Promise((r) => setImmediate(r));
        const job = jobs.shift();
        if (job === undefined) return;
        let next = job.steps.next();
        while (next.done !== true) {
          steps++;
          next = job.steps.next();
        }
        job.resolve(true);
      }
    },
  };
}

const body = (r: SimResponse) => JSON.parse(r.body) as { data: { id: string; name: string; registration_id: string }[] };
const total = (r: SimResponse) => at(JSON.parse(r.body), 'meta.results.total');
const answer = async (r: SimResponse) => (r.deferred === undefined ? r : await r.deferred);

describe('Collection.read: long plans as steps', () => {
  it('steps give exactly the page an unsliced read gives, for any filter, sort and page, over a base with writes', () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const base = new Collection(accounts.filter);
    for (let i = 0; i < 600; i++)
      base.insert({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        createdMs: 1_000 * Math.floor(i / 3),
        updatedMs: 1_000 * Math.floor(i / 3) + (i % 7),
        attrs: { name: `name ${i % 37}`, registration_id: `REG-${i}` },
      });
    const layer = new Collection(accounts.filter, base);
    for (let i = 0; i < 40; i++)
      layer.insert({ id: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`, createdMs: 7_000 * i, updatedMs: 7_000 * i + 1, attrs: { name: `own ${i}`, registration_id: null } });
    for (let i = 0; i < 30; i++) layer.remove(`00000000-0000-4000-8000-${String(i * 11).padStart(12, '0')}`);
    const filters: (readonly FilterClause[])[] = [
      [],
      [{ op: 'like', field: 'name', values: ['*1*'] }],
      [{ op: 'eq', field: 'registration_id', values: ['REG-17'] }],
      [
        { op: 'ge', field: 'updated_at', values: [iso(50_000)] },
        { op: 'like', field: 'name', values: ['*3*'] },
      ],
      [{ op: 'in', field: 'id', values: ['00000000-0000-4000-8000-000000000005', '10000000-0000-4000-8000-000000000003'] }],
      [{ op: 'gt', field: 'created_at', values: [iso(30_000)] }],
      [
        { op: 'in', field: 'created_at', values: [iso(3_000), iso(7_000), iso(14_000)] },
        { op: 'like', field: 'name', values: ['*e*'] },
      ],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...filters),
        fc.constantFrom('id', 'created_at', 'updated_at'),
        fc.boolean(),
        fc.nat(700),
        fc.integer({ min: 1, max: 100 }),
        (clauses, field, desc, offset, limit) => {
          const query: PageQuery = { clauses, sort: { field, direction: desc ? 'desc' : 'asc' }, offset, limit };
          const whole = layer.page(query);
          const read = layer.read(query, 0);
          const sliced = read.kind === 'steps' ? drain(read.steps) : read.result;
          expect(sliced.total).toBe(whole.total);
          expect(sliced.records.map((r) => r.id)).toEqual(whole.records.map((r) => r.id));
        },
      ),
      { seed: 28, numRuns: 200 },
    );
  });

  it('a full scan of 20,000 records yields between slices of records; index arithmetic answers at once', () => {
    const c = new Collection(accounts.filter);
    for (let i = 0; i < 20_000; i++) c.insert({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, createdMs: i, updatedMs: i, attrs: { name: `n${i}` } });
    const clauses: FilterClause[] = [{ op: 'eq', field: 'name', values: ['n7'] }];
    const scan = c.read({ clauses, sort: { field: 'created_at', direction: 'asc' }, offset: 0, limit: 25 }, 0);
    expect(scan.kind).toBe('steps');
    let yields = 0;
    if (scan.kind === 'steps') {
      let next = scan.steps.next();
      while (next.done !== true) {
        yields++;
        next = scan.steps.next();
      }
      expect(next.value.records.map((r) => r.attrs['name'])).toEqual(['n7']);
    }
    expect(yields).toBeGreaterThanOrEqual(5);
    expect(c.read({ clauses: [], sort: { field: 'created_at', direction: 'asc' }, offset: 19_000, limit: 25 }, 0).kind).toBe('now');
  });
});

describe('the default cap: a full scan with the costliest ordinary filter, not 100,000 units', () => {
  it('is far above a full scan of the collection, grows with it, and a hostile filter is still refused', () => {
    expect(scanCap(1_000_000)).toBeGreaterThan(50 * 1_000_000);
    expect(scanCap(10)).toBe(100_000);
    const h = harness({ accounts: 20_000 });
    // Before: 400, "would cost about ... more than the 100000 one request may spend".
    for (const filter of ['eq(registration_id,REG-00000001)', 'like(name,*Outfitters 1*)', 'eq(name,no-such-account)', 'like(name,*a*e*i*o*):like(legal_name,*L*t*d*):like(registration_id,*0*1*)']) {
      const res = h.get(`/v2/accounts?filter=${filter}&page[limit]=100`);
      expect(res.status, `${filter}: ${res.body.slice(0, 200)}`).toBe(200);
    }
    const one = h.get('/v2/accounts?filter=eq(registration_id,REG-00000001)');
    expect(body(one).data.map((r) => r.registration_id)).toEqual(['REG-00000001']);
    expect(total(h.get('/v2/accounts?filter=eq(name,no-such-account)'))).toBe(0);
  });

  it('a filter whose tests are the cost (ten patterns of hundreds of parts over values of 250 characters) is past the cap and refused before it starts', () => {
    const c = new Collection(accounts.filter);
    for (let i = 0; i < 5_000; i++) c.insert({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, createdMs: i, updatedMs: i, attrs: { name: `${'a'.repeat(250)}${i}` } });
    const hostile: FilterClause[] = Array.from({ length: 10 }, () => ({ op: 'like' as const, field: 'name', values: [`*${'a*'.repeat(300)}`] }));
    const maxScan = scanCap(c.size);
    const read = c.read({ clauses: hostile, sort: { field: 'id', direction: 'asc' }, offset: 0, limit: 25, maxScan }, 0);
    expect(read.kind).toBe('now');
    expect(read.kind === 'now' ? read.result.refused?.cost : undefined).toBeGreaterThan(maxScan);
    // Four patterns of four parts, the costliest ordinary filter, over the same values: answered (in slices).
    const ordinary: FilterClause[] = Array.from({ length: 4 }, () => ({ op: 'like' as const, field: 'name', values: ['*a*b*c*d*'] }));
    const answered = c.read({ clauses: ordinary, sort: { field: 'id', direction: 'asc' }, offset: 0, limit: 25, maxScan }, 0);
    expect(answered.kind).toBe('steps');
    expect(answered.kind === 'steps' ? drain(answered.steps).refused : 'now').toBeUndefined();
  });
});

describe('a served simulator: long reads in slices, changes held until they end', () => {
  function served() {
    const h = harness({ accounts: 3000 });
    const manual = manualSlicer();
    h.sim.slicer = manual.slicer;
    h.sim.sliceAbove = 1000;
    return { h, manual };
  }
  const LONG = '/v2/accounts?filter=like(name,*Zz*)&page[limit]=100';

  it('a long read is deferred and run in slices; a cheap read meanwhile is answered at once; both answer what an unsliced read does', async () => {
    const { h, manual } = served();
    const plain = harness({ accounts: 3000 }).get(LONG);
    const long = h.get(LONG);
    expect(long.deferred).toBeDefined();
    const cheap = h.get('/v2/accounts?page[limit]=5');
    expect(cheap.deferred).toBeUndefined();
    expect(cheap.status).toBe(200);
    await manual.runAll();
    expect(manual.steps()).toBeGreaterThan(0);
    const done = await answer(long);
    expect(done.status).toBe(200);
    expect(done.body).toBe(plain.body);
  });

  it("a write to the read's project waits for it, so the read counts the data as it was; another project's write does not wait", async () => {
    const { h, manual } = served();
    const before = total(harness({ accounts: 3000 }).get(LONG)) as number;
    const long = h.get(LONG);
    expect(long.deferred).toBeDefined();
    const write = h.post('/v2/accounts', { data: { type: 'account', name: 'Zz matches the long read' } });
    expect(write.deferred).toBeDefined();
    // Another client id is another project: nothing of it is held.
    const other = h.sim.issueToken('another-client', 'read-write');
    const theirs = h.post('/v2/accounts', { data: { type: 'account', name: 'Zz theirs' } }, { token: other });
    expect(theirs.deferred).toBeUndefined();
    expect(theirs.status).toBe(201);
    // A long read that comes after the waiting write waits behind it, and sees it.
    const later = h.get(LONG);
    expect(later.deferred).toBeDefined();
    await manual.runAll();
    expect(total(await answer(long))).toBe(before);
    expect((await answer(write)).status).toBe(201);
    expect(total(await answer(later))).toBe(before + 1);
    // Nothing is held once the reads are done: a write answers at once.
    expect(h.post('/v2/accounts', { data: { type: 'account', name: 'after' } }).deferred).toBeUndefined();
  });

  it('a read that changes its project (adversity updates after reads) waits like a write; the journal notes the real status', async () => {
    const { h, manual } = served();
    expect(h.admin('PUT', '/__sim/adversity', { updates_per_read: 1 }).status).toBe(200);
    const long = h.get(LONG);
    expect(long.deferred).toBeDefined();
    const changing = h.get('/v2/accounts?page[limit]=5');
    expect(changing.deferred).toBeDefined();
    await manual.runAll();
    expect((await answer(long)).status).toBe(200);
    expect((await answer(changing)).status).toBe(200);
    const journal = JSON.parse(h.admin('GET', '/__sim/requests').body) as { data: { status: number; path?: string; url?: string }[] };
    expect(journal.data.filter((e) => e.status === 200).length).toBeGreaterThanOrEqual(2);
  });
});

describe('the deviation large-data.shared-timestamp: its second read runs in slices like the first', () => {
  // Bursts of 150 records share one created_at, so the page at offset 25 is uniform and read again from 0.
  const options = { profile: 'shared-timestamps', burst: 150, deviate: ['large-data.shared-timestamp'] } as const;
  const SCAN = '/v2/accounts?sort=created_at&filter=like(name,*)&page[limit]=25';

  /** A served read of `url` run by a slicer the test drives: its answer and the steps it took. */
  async function slicedRead(accounts: number, url: string, deviate: boolean) {
    const h = harness({ ...options, ...(deviate ? {} : { deviate: [] }), accounts });
    const manual = manualSlicer();
    h.sim.slicer = manual.slicer;
    h.sim.sliceAbove = 0;
    const long = h.get(url);
    expect(long.deferred).toBeDefined();
    await manual.runAll();
    return { body: (await answer(long)).body, steps: manual.steps() };
  }

  // Sizes at and across the walks' step (a yield every 2,048 records met, the first at 2,047 records), and several steps long.
  it.each([2047, 2048, 4095, 4096, 6200])('at %i accounts: the answer of an unsliced read, and the second read yields as the first does', async (accounts) => {
    const unsliced = harness({ ...options, accounts }).get(`${SCAN}&page[offset]=25`);
    expect(unsliced.status).toBe(200);
    // The page read again from the start: what a read at offset 0 without the deviation answers.
    const fromStart = harness({ ...options, deviate: [], accounts }).get(`${SCAN}&page[offset]=0`);
    expect(body(unsliced).data).toEqual(body(fromStart).data);
    const deviant = await slicedRead(accounts, `${SCAN}&page[offset]=25`, true);
    expect(deviant.body).toBe(unsliced.body);
    // The same read without the deviation reads once: the second read takes as many steps as the first.
    const once = await slicedRead(accounts, `${SCAN}&page[offset]=25`, false);
    expect(once.steps).toBeGreaterThan(0);
    expect(deviant.steps).toBe(2 * once.steps);
  });
});

describe('the server slicer', () => {
  it('runs one slice of one job a turn, round robin, with the event loop turning between slices', async () => {
    const seen: string[] = [];
    function* job(name: string, n: number): Steps<void> {
      for (let i = 0; i < n; i++) {
        seen.push(`${name}${i}`);
        yield;
      }
    }
    const slicer = sliced(new Lifecycle(), 0);
    const a = slicer(job('a', 3));
    const b = slicer(job('b', 3));
    let between = -1;
    setImmediate(() => setImmediate(() => (between = seen.length)));
    expect(await Promise.all([a, b])).toEqual([true, true]);
    expect(seen).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2']);
    // Another callback of the event loop ran while the jobs were unfinished.
    expect(between).toBeGreaterThan(0);
    expect(between).toBeLessThan(6);
  });

  it('at shutdown, answers in work are finished, oldest first, each to its end; a change of state stops at once', async () => {
    const life = { closing: false, finishBy: Infinity };
    const seen: string[] = [];
    function* job(name: string, n: number): Steps<void> {
      for (let i = 0; i < n; i++) {
        seen.push(`${name}${i}`);
        yield;
      }
    }
    const slicer = sliced(life, 0);
    const a = slicer(job('a', 4));
    const b = slicer(job('b', 4));
    const restore = slicer(job('r', 4), 'state');
    // One turn each while serving, then shutdown begins.
    await new Promise((r) => setImmediate(() => setImmediate(() => setImmediate(r))));
    expect(seen).toEqual(['a0', 'b0', 'r0']);
    life.closing = true;
    expect(await Promise.all([a, b, restore])).toEqual([true, true, false]);
    expect(seen).toEqual(['a0', 'b0', 'r0', 'a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
  });

  it('at shutdown, what has not finished by the time left for work resolves false, and a served long read then answers a JSON 503', async () => {
    const life = { closing: false, finishBy: Infinity };
    const h = harness({ accounts: 3000 });
    h.sim.slicer = sliced(life, 0);
    h.sim.sliceAbove = 1000;
    const long = h.get('/v2/accounts?filter=like(name,*Zz*)&page[limit]=100');
    expect(long.deferred).toBeDefined();
    life.closing = true;
    life.finishBy = -Infinity;
    const stopped = await answer(long);
    expect(stopped.status).toBe(503);
    expect(JSON.parse(stopped.body)).toMatchObject({ errors: [{ status: 503, detail: 'The simulator is shutting down; this read was not finished' }] });
  });

  it('a change of state rests as long as its slice took after each one, and the answers in work take the turns meanwhile', async () => {
    // A clock the steps move: each step of the restore costs 10 ms, each step of the read 1 ms.
    let clock = 0;
    const seen: string[] = [];
    function* job(name: string, n: number, ms: number): Steps<void> {
      for (let i = 0; i < n; i++) {
        seen.push(`${name}${i}`);
        clock += ms;
        yield;
      }
    }
    const slicer = sliced(new Lifecycle(), 0, () => clock);
    const restore = slicer(job('r', 3, 10), 'state');
    const read = slicer(job('a', 12, 1));
    expect(await Promise.all([restore, read])).toEqual([true, true]);
    // r0 took 10 ms: the read's ten 1 ms steps run before r1, then r1's 10 ms rest holds r2 until the read's last two and the clock move on.
    expect(seen).toEqual(['r0', 'a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'r1', 'a10', 'a11', 'r2']);
    expect(clock).toBe(42);
  });

  it('a change of state alone leaves the event loop free between its slices', async () => {
    let clock = 0;
    const slicer = sliced(new Lifecycle(), 0, () => clock);
    let between = 0;
    const turns: number[] = [];
    function* job(): Steps<void> {
      for (let i = 0; i < 3; i++) {
        turns.push(between);
        clock += 5;
        yield;
      }
    }
    const ticking = setInterval(() => between++, 0);
    expect(await slicer(job(), 'state')).toBe(true);
    clearInterval(ticking);
    // A timer ran between each two slices: the loop was not held by the rest.
    expect(turns[1]).toBeGreaterThan(turns[0] as number);
    expect(turns[2]).toBeGreaterThan(turns[1] as number);
  });

  it('a job that throws fails its own answer, not the server', async () => {
    const slicer = sliced(new Lifecycle(), 0);
    function* bad(): Steps<void> {
      yield;
      throw new Error('a bug');
    }
    await expect(slicer(bad())).rejects.toThrow('a bug');
  });

  it('over HTTP at 20,000 accounts, the lookups a default budget refused answer 200 with the right records', async () => {
    const sim = new Simulator({ seed: 42, accounts: 20_000, wallClock: () => 0 });
    const server = await listen(sim, 0, '127.0.0.1');
    try {
      const token = sim.issueToken('commerce-sim', 'read-write');
      const get = async (filter: string) => {
        const res = await fetch(`${server.baseUrl}/v2/accounts?filter=${filter}&page[limit]=100`, { headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, json: (await res.json()) as { data: { registration_id: string; name: string }[]; meta: { results: { total: number } } } };
      };
      const [byReg, byName, none] = await Promise.all([get('eq(registration_id,REG-00000001)'), get('like(name,*Outfitters 1*)'), get('eq(name,no-such-account)')]);
      expect(byReg.status).toBe(200);
      expect(byReg.json.data.map((r) => r.registration_id)).toEqual(['REG-00000001']);
      expect(byName.status).toBe(200);
      expect(byName.json.meta.results.total).toBeGreaterThan(0);
      expect(byName.json.data.every((r) => r.name.includes('Outfitters 1'))).toBe(true);
      expect(none.status).toBe(200);
      expect(none.json.meta.results.total).toBe(0);
    } finally {
      await server.close();
    }
  });
});
