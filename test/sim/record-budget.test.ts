/**
 * One record budget for the whole simulator (issue 18, memory bounded in total): the seeded records, every
 * project's writes and a share per project come out of `maxRecords`, so no number of token holders can make
 * a served simulator hold more than its heap. Counted in records, never measured in time or bytes here.
 */
import { describe, expect, it } from 'vitest';
import { getHeapStatistics } from 'node:v8';
import { parseServeArgs } from '../../src/cli/serve.js';
import { startSimulator } from '../../src/kit/start-simulator.js';
import { DEFAULT_MAX_PROJECTS } from '../../src/sim/options.js';
import { Simulator } from '../../src/sim/simulator.js';
import { DEFAULT_MAX_PROJECT_RECORDS } from '../../src/store/project.js';
import { listResources } from '../../src/store/resources.js';
import { at, expectErrorShape, FIXED_NOW, harness, ids, num, str } from './helpers.js';

/** Every list collection at zero but accounts: the seeded records are `accounts` alone. */
const onlyAccounts = (accounts: number) => ({ accounts, counts: Object.fromEntries(listResources.map((r) => [r.name, r.name === 'accounts' ? accounts : 0])) });
const account = (name = 'N') => ({ data: { type: 'account', name } });
const state = (h: ReturnType<typeof harness>) => at(h.admin('GET', '/__sim/state').json, 'data.records') as { max: number; seeded: number; set_aside_for_projects: number; written: number };

describe('the default budget', () => {
  it("is what the process's heap holds at 2 KiB a record, far below the 1,000 projects × 100,000 records the other limits allow", () => {
    const h = harness();
    const records = state(h);
    const heap = getHeapStatistics().heap_size_limit;
    expect(records.max).toBe(Math.floor(heap / 2048));
    expect(records.max).toBeLessThan(DEFAULT_MAX_PROJECTS * DEFAULT_MAX_PROJECT_RECORDS);
    expect(records.set_aside_for_projects).toBe(DEFAULT_MAX_PROJECTS * 16);
    expect(records.seeded).toBe(seededWith({}));
  });
});

describe('writes share one budget across projects', () => {
  // 100 seeded accounts, 2 projects × 16 set aside: 68 records left for writes.
  const options = { ...onlyAccounts(100), maxProjects: 2, maxRecords: 200 };

  it('past the budget creates answer 422 naming it, in any project, though each is under its own cap; reads keep working', () => {
    const h = harness(options);
    const other = h.sim.issueToken('other', 'read-write');
    expect(state(h)).toEqual({ max: 200, seeded: 100, set_aside_for_projects: 32, written: 0 });
    for (let i = 0; i < 40; i++) expect(h.post('/v2/accounts', account(`A${i}`)).status).toBe(201);
    for (let i = 0; i < 28; i++) expect(h.post('/v2/accounts', account(`B${i}`), { token: other }).status).toBe(201);
    for (const token of [h.token, other]) {
      const refused = h.post('/v2/accounts', account('One too many'), { token });
      expectErrorShape(refused, 422);
      expect(str(refused.json, 'errors.0.detail')).toContain('record budget allows (200');
      expect(str(refused.json, 'errors.0.detail')).toContain('--max-records');
    }
    expect(state(h).written).toBe(68);
    expect(num(h.get('/v2/accounts?page[limit]=1', { token: other }).json, 'meta.results.total')).toBe(128);
    // A reset gives it all back.
    h.admin('POST', '/__sim/reset');
    expect(state(h).written).toBe(0);
    expect(h.post('/v2/accounts', account('After reset')).status).toBe(201);
  });

  it('a forgotten project (past --max-projects) gives back what it held', () => {
    const h = harness(options);
    for (let i = 0; i < 60; i++) expect(h.post('/v2/accounts', account()).status).toBe(201);
    expect(state(h).written).toBe(60);
    h.sim.issueToken('b', 'read-write');
    h.sim.issueToken('c', 'read-write');
    expect(h.sim.projectIds()).not.toContain('commerce-sim');
    expect(state(h).written).toBe(0);
  });

  it('once full, a change or delete of a seeded record (a copy, a tombstone) or a longer field is refused; what holds nothing more passes', () => {
    const h = harness(options);
    const seeded = ids(h.get('/v2/accounts?page[limit]=3'));
    const mine = str(h.post('/v2/accounts', account('Mine')).json, 'data.id');
    while (h.post('/v2/accounts', account()).status === 201);
    expectErrorShape(h.put(`/v2/accounts/${seeded[0] ?? ''}`, account('Changed')), 422);
    expectErrorShape(h.del(`/v2/accounts/${seeded[1] ?? ''}`), 422);
    expectErrorShape(h.put(`/v2/accounts/${mine}`, account('n'.repeat(255))), 422);
    expect(h.put(`/v2/accounts/${mine}`, account('Renamed')).status).toBe(200);
    expect(h.del(`/v2/accounts/${mine}`).status).toBe(204);
    expect(h.put(`/v2/accounts/${seeded[0] ?? ''}`, account('Changed now')).status).toBe(200);
    expect(state(h).written).toBe(68);
  });

  it('long records weigh more: four 255-character fields count five', () => {
    const h = harness(options);
    const long = { data: { type: 'account', name: 'n'.repeat(255), legal_name: 'l'.repeat(255), registration_id: 'r'.repeat(255), external_ref: 'e'.repeat(255) } };
    expect(h.post('/v2/accounts', long).status).toBe(201);
    expect(state(h).written).toBe(5);
  });

  it('the per-project cap stays under the budget, and says which limit was met', () => {
    const h = harness({ ...options, maxProjectRecords: 3 });
    for (let i = 0; i < 3; i++) expect(h.post('/v2/accounts', account()).status).toBe(201);
    const refused = h.post('/v2/accounts', account());
    expectErrorShape(refused, 422);
    expect(str(refused.json, 'errors.0.detail')).toContain('--max-project-records');
  });

  it('adversity inserts stop at the budget too', () => {
    const h = harness(options);
    h.admin('PUT', '/__sim/adversity', { inserts_per_read: 50, updates_per_read: 50, deletes_per_read: 5 });
    for (let i = 0; i < 20; i++) expect(h.get('/v2/accounts').status).toBe(200);
    expect(state(h).written).toBeLessThanOrEqual(68);
  });
});

describe('seeded records must fit the budget, at every door', () => {
  // Each of the 19 collections at the per-collection maximum: 38,000,000 records.
  const hostile = Object.fromEntries(listResources.map((r) => [r.name, 2_000_000]));

  it.each([
    ['every collection at 2,000,000', 'counts', { counts: hostile }],
    ['more accounts than the budget', 'accounts', { accounts: 900, maxRecords: 1000, maxProjects: 2 }],
    ['projects whose share alone passes the budget', 'maxProjects', { maxProjects: 1000, maxRecords: 10_000 }],
  ])('%s: the simulator, serve and startSimulator() refuse it in the same words, naming %s', async (_name, path, value) => {
    let words = '';
    try {
      new Simulator({ seed: 42, wallClock: () => FIXED_NOW, ...value });
    } catch (e) {
      words = e instanceof Error ? e.message : '';
    }
    expect(words).toMatch(new RegExp(`^${path} (would seed [\\d,]+ records; the record budget|sets aside)`));
    words = words.slice(path.length + 1);
    if (!('maxProjects' in value)) await expect(startSimulator(value)).rejects.toThrow(words);
    const argv = [
      ...('accounts' in value ? ['--accounts', String(value.accounts)] : []),
      ...('counts' in value ? Object.entries(value.counts).flatMap(([k, n]) => ['--count', `${k}=${n}`]) : []),
      ...('maxRecords' in value ? ['--max-records', String(value.maxRecords)] : []),
      ...('maxProjects' in value ? ['--max-projects', String(value.maxProjects)] : []),
    ];
    expect(() => parseServeArgs(argv)).toThrow(words);
  });

  it('reseed past the budget answers 400 naming counts and the budget, and keeps the data', () => {
    const h = harness({ maxRecords: 20_000, maxProjects: 10 });
    const before = h.get('/v2/accounts?page[limit]=5').body;
    const refused = h.admin('POST', '/__sim/seed', { counts: hostile });
    expectErrorShape(refused, 400);
    expect(str(refused.json, 'errors.0.source')).toBe('counts');
    expect(str(refused.json, 'errors.0.detail')).toContain('record budget (max records) is 20,000');
    expect(h.get('/v2/accounts?page[limit]=5').body).toBe(before);
    expect(h.admin('POST', '/__sim/seed', { counts: { orders: 10_000 } }).status).toBe(200);
    expect(state(h).seeded).toBe(seededWith({ orders: 10_000 }));
  });

  it('--max-records is read like every other setting', () => {
    const parsed = parseServeArgs(['--max-records', '500000']);
    expect(parsed !== 'help' && parsed.simulator.maxRecords).toBe(500_000);
    expect(() => parseServeArgs(['--max-records', '0'])).toThrow('--max-records must be a whole number from 1 to 1000000000');
  });
});

/** Seeded records of the default dataset with these counts. */
function seededWith(counts: Readonly<Record<string, number>>): number {
  return listResources.reduce((n, r) => n + (counts[r.name] ?? r.defaultCount), 0);
}
