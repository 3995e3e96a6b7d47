/**
 * A restore is held to the record budget before anything is accepted (issue 18): its seeded counts, its
 * projects' records, and its body's shape, measured before it is parsed. Counted in records and values,
 * never in time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonShapeProblem } from '../../src/engine/json-shape.js';
import { readSnapshotText } from '../../src/sim/snapshot-text.js';
import { snapshotShapeLimits } from '../../src/sim/snapshot.js';
import { listResources } from '../../src/store/resources.js';
import { drain } from '../../src/store/steps.js';
import { expectErrorShape, harness, ids, num, profileBody, profilePath, str, type Harness } from './helpers.js';

type Snap = { version: number; options: Record<string, unknown>; projects: Record<string, unknown>[] };
type Delta = { upserts: Record<string, unknown>[]; deletes: string[] };

/** 100 seeded accounts and nothing else; two projects set aside (2 × 16): 868 records left for writes. */
const SMALL = { accounts: 100, counts: Object.fromEntries(listResources.map((r) => [r.name, r.name === 'accounts' ? 100 : 0])), maxProjects: 2, maxRecords: 1000 };

const snapshotOf = (h: Harness): Snap => JSON.parse(h.admin('GET', '/__sim/snapshot').body) as Snap;
const accountsOf = (s: Snap, i = 0): Delta => (s.projects[i]?.['lists'] as Record<string, Delta>)['accounts'] as Delta;
const written = (h: Harness) => num(h.admin('GET', '/__sim/state').json, 'data.records.written');

/** A snapshot of SMALL with `n` written accounts in the harness's project. */
function withAccounts(n: number): Snap {
  const h = harness(SMALL);
  h.post('/v2/accounts', { data: { type: 'account', name: 'First' } });
  const snap = snapshotOf(h);
  const first = accountsOf(snap).upserts[0] as Record<string, unknown>;
  accountsOf(snap).upserts = Array.from({ length: n }, (_, i) => ({ ...first, id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }));
  return snap;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('seeded counts', () => {
  it('the 478-byte restore setting all 19 collections to 2,000,000 answers 400 naming options.counts and the budget; nothing changes', () => {
    const counts = Object.fromEntries(listResources.map((r) => [r.name, 2_000_000]));
    const body = JSON.stringify({ version: 2, options: { counts }, projects: [], drop_projects: true });
    expect(body.length).toBeLessThan(500);
    const h = harness();
    const before = h.get('/v2/accounts?page[limit]=3').body;
    const refused = h.admin('POST', '/__sim/restore', body);
    expectErrorShape(refused, 400);
    expect(str(refused.json, 'errors.0.source')).toBe('options.counts');
    expect(str(refused.json, 'errors.0.detail')).toContain('would seed 38,000,000 records; the record budget (max records)');
    expect(h.get('/v2/accounts?page[limit]=3').body).toBe(before);
    expect(num(h.admin('GET', '/__sim/state').json, 'data.records.seeded')).toBe(listResources.reduce((n, r) => n + r.defaultCount, 0));
  });
});

describe('records', () => {
  it('a snapshot round-trips: what it restores counts what it held', () => {
    const h = harness(SMALL);
    for (let i = 0; i < 5; i++) h.post('/v2/accounts', { data: { type: 'account', name: `A${i}` } });
    const seeded = ids(h.get('/v2/accounts?sort=id&page[limit]=2'));
    h.put(`/v2/accounts/${seeded[0] ?? ''}`, { data: { type: 'account', name: 'Changed' } });
    h.del(`/v2/accounts/${seeded[1] ?? ''}`);
    h.post(profilePath(h.ids), profileBody(h.ids));
    const held = written(h);
    expect(held).toBe(5 + 1 + 1 + 1);
    const snap = h.admin('GET', '/__sim/snapshot').body;
    const b = harness(SMALL);
    expect(b.admin('POST', '/__sim/restore', snap).status).toBe(200);
    expect(written(b)).toBe(held);
  });

  it('more written records than the budget leaves answers 413 naming the list and the budget, before a record is read', () => {
    const snap = withAccounts(869);
    // Junk in the first record: were the records read first, this would be a 400 about it.
    (accountsOf(snap).upserts[0] as Record<string, unknown>)['id'] = 5;
    const h = harness(SMALL);
    const refused = h.admin('POST', '/__sim/restore', snap);
    expectErrorShape(refused, 413);
    expect(str(refused.json, 'errors.0.source')).toBe('projects.0.lists.accounts.upserts');
    expect(str(refused.json, 'errors.0.detail')).toContain('record budget leaves');
    expect(str(refused.json, 'errors.0.detail')).toContain('max records: 1,000');
    expect(h.admin('POST', '/__sim/restore', withAccounts(868)).status).toBe(200);
    expect(written(h)).toBe(868);
    expectErrorShape(h.post('/v2/accounts', { data: { type: 'account', name: 'No room' } }), 422);
  });

  it('the budget is counted over every project of the snapshot', () => {
    const snap = withAccounts(500);
    snap.projects.push({ ...(snap.projects[0] as Record<string, unknown>), clientId: 'second' });
    const refused = harness(SMALL).admin('POST', '/__sim/restore', snap);
    expectErrorShape(refused, 413);
    expect(str(refused.json, 'errors.0.source')).toBe('projects.1.lists.accounts.upserts');
  });

  it('long records weigh what they hold', () => {
    const snap = withAccounts(200);
    for (const r of accountsOf(snap).upserts) r['attrs'] = { name: 'n'.repeat(255), legal_name: 'l'.repeat(255), registration_id: 'r'.repeat(255), external_ref: 'e'.repeat(255) };
    expectErrorShape(harness(SMALL).admin('POST', '/__sim/restore', snap), 413);
  });

  it('more than --max-project-records in one project answers 413 naming it', () => {
    const refused = harness({ ...SMALL, maxProjectRecords: 10 }).admin('POST', '/__sim/restore', withAccounts(11));
    expectErrorShape(refused, 413);
    expect(str(refused.json, 'errors.0.detail')).toContain('max project records: 10');
  });

  it('deletes and profile-info collections count too', () => {
    const snap = withAccounts(0);
    accountsOf(snap).deletes = Array.from({ length: 869 }, (_, i) => `gone-${i}`);
    expect(str(harness(SMALL).admin('POST', '/__sim/restore', snap).json, 'errors.0.source')).toBe('projects.0.lists.accounts.deletes');
    const keys = withAccounts(0);
    (keys.projects[0] as Record<string, unknown>)['profileInfos'] = Object.fromEntries(Array.from({ length: 869 }, (_, i) => [`realm/${i}`, []]));
    expectErrorShape(harness(SMALL).admin('POST', '/__sim/restore', keys), 413);
  });
});

describe('the body is measured before it is parsed', () => {
  it('a body of small elements, more than a snapshot within the budget has, answers 413 without being parsed', () => {
    const h = harness(SMALL);
    // 400,001 values in 800 KB: a snapshot within 1,000 records holds some 11,000, and none outside records.
    const body = `[${'0,'.repeat(400_000)}0]`;
    const parse = vi.spyOn(JSON, 'parse');
    const refused = h.admin('POST', '/__sim/restore', body);
    expect(parse.mock.calls.some(([text]) => text === body)).toBe(false);
    expectErrorShape(refused, 413);
    expect(str(refused.json, 'errors.0.detail')).toBe('The body holds more than 64 values outside its records: more than a snapshot of 0 projects has (256 a project, 64 besides)');
  });

  it('the costliest body the shape limits let through is refused at the first record past the room, its text read only that far', () => {
    // As many values as the fullest snapshot 1,000 records hold, as short strings in one list: 868 fit the room.
    const snap = withAccounts(0);
    const values = snapshotShapeLimits(1000 - 2 * 16, 2).maxValues - 400;
    const [head, tail] = JSON.stringify({ ...snap, drop_projects: true })
      .replace('"upserts":[]', '"upserts":["@"]')
      .split('"@"');
    const element = '"abcdefghijklmnopq"';
    const body = `${head ?? ''}${Array.from({ length: values }, () => element).join(',')}${tail ?? ''}`;
    expect(jsonShapeProblem(body, snapshotShapeLimits(1000 - 2 * 16, 2))).toBeUndefined();
    const parse = vi.spyOn(JSON, 'parse');
    const refused = harness(SMALL).admin('POST', '/__sim/restore', body);
    expect(parse.mock.calls.some(([text]) => text === body)).toBe(false);
    expectErrorShape(refused, 413);
    expect(str(refused.json, 'errors.0.source')).toBe('projects.0.lists.accounts.upserts');
    const read = drain(readSnapshotText(body, { maxRecords: 1000, maxProjects: 2, maxProjectRecords: 100_000 }, 32));
    expect(read.ok).toBe(false);
    // The head, then the 868 records the room holds and the one past it: not the other 10,000.
    expect(read.ok ? 0 : read.examined).toBeLessThanOrEqual((head ?? '').length + 869 * (element.length + 1));
    expect(body.length).toBeGreaterThan(10 * (read.ok ? 0 : read.examined));
  });

  it('past --max-projects at the first project too many, and a record heavier than a record can be, before the rest is read', () => {
    const snap = withAccounts(1);
    const project = snap.projects[0] as Record<string, unknown>;
    snap.projects = [project, { ...project, clientId: 'b' }, { ...project, clientId: 'c' }];
    const three = harness(SMALL).admin('POST', '/__sim/restore', snap);
    expectErrorShape(three, 400);
    expect(str(three.json, 'errors.0.detail')).toBe('projects: the simulator keeps at most 2 projects (--max-projects)');
    const heavy = withAccounts(2);
    Object.assign(accountsOf(heavy).upserts[1] as Record<string, unknown>, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`m${i}`, i])));
    const refused = harness(SMALL).admin('POST', '/__sim/restore', heavy);
    expectErrorShape(refused, 400);
    expect(str(refused.json, 'errors.0.source')).toBe('projects.0.lists.accounts.upserts.1');
  });

  it('a body nesting deeper than a snapshot answers 400 without being parsed', () => {
    const body = `${'['.repeat(9)}${']'.repeat(9)}`;
    const parse = vi.spyOn(JSON, 'parse');
    const refused = harness(SMALL).admin('POST', '/__sim/restore', body);
    expect(parse.mock.calls.some(([text]) => text === body)).toBe(false);
    expectErrorShape(refused, 400);
    expect(str(refused.json, 'errors.0.detail')).toContain('nests deeper than 8 levels');
  });
});

describe('the restore body limit follows the budget', () => {
  it('a body past what the budget can hold (512 bytes a record) answers 413 naming the limit, not 500 MiB', () => {
    const h = harness({ ...SMALL, maxRecords: 4000 });
    const refused = h.admin('POST', '/__sim/restore', ' '.repeat(4000 * 512 + 1));
    expectErrorShape(refused, 413);
    expect(str(refused.json, 'errors.0.detail')).toContain(`limited to ${4000 * 512} bytes`);
  });
});
