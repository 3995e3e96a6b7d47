import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CASE_CLIENT_SECRET, CASE_PASSWORD, CASE_SHORT_PASSWORD } from '../../src/recordings/cases.js';
import { FIXED_WALL_CLOCK, generateFixtures } from '../../src/recordings/generate.js';
import { fixtures, staleFiles } from '../../src/cli/fixtures.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { at, idsOf, recordAttr } from '../../src/rules/inspect.js';
import { captureIo } from './helpers.js';
import { COMMITTED_FIXTURES, DOCUMENTED_RULE_IDS, list, readFixture, validateFixture, validateIndex } from './schema.js';

const files = generateFixtures({ seed: 42 });
const byName = new Map(files.map((f) => [f.file, f.content]));
const json = (file: string): unknown => JSON.parse(byName.get(file) ?? 'null');

describe('fixture generation', () => {
  it('is byte-identical across runs, and follows the seed', () => {
    expect(generateFixtures({ seed: 42 })).toEqual(files);
    const other = generateFixtures({ seed: 7 });
    expect(other.map((f) => f.file)).toEqual(files.map((f) => f.file));
    expect(other.find((f) => f.file === 'create/created.json')?.content).not.toBe(byName.get('create/created.json'));
  });

  it('writes every documented case under a stable name, then the manifest', () => {
    expect(files.map((f) => f.file)).toEqual([
      'create/created.json',
      'create/error-short-password.json',
      'create/error-missing-username.json',
      'create/error-wrong-type.json',
      'create/error-no-data.json',
      'create/error-malformed-json.json',
      'create/error-unknown-realm.json',
      'create/error-no-token.json',
      'lists/empty.json',
      'lists/default-page.json',
      'lists/page-length-changed.json',
      'lists/clamped.json',
      'lists/last-page.json',
      'lists/shared-timestamp-page.json',
      'lists/offset-limit-hard.json',
      'lists/offset-limit-soft.json',
      'lists/keyset/page-1.json',
      'lists/keyset/page-2.json',
      'lists/keyset/page-3.json',
      'lists/keyset/page-4.json',
      'auth/token.json',
      'index.json',
    ]);
  });

  it('validates every file against its JSON Schema, keys in the documented order', () => {
    for (const f of files) {
      const value: unknown = JSON.parse(f.content);
      const validate = f.file === 'index.json' ? validateIndex : validateFixture;
      expect(validate(value), `${f.file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(f.content.endsWith('}\n')).toBe(true);
      expect(f.content).toBe(`${JSON.stringify(value, null, 2)}\n`);
      if (f.file !== 'index.json') expect(Object.keys(readFixture(f.content))).toEqual(['case', 'rules', 'request', 'response']);
    }
  });

  it('names only rule ids of docs/rule-ids.md', () => {
    expect(DOCUMENTED_RULE_IDS.size).toBeGreaterThan(50);
    for (const f of files.filter((x) => x.file !== 'index.json')) {
      const { rules } = readFixture(f.content);
      expect(rules.length).toBeGreaterThan(0);
      for (const id of rules) expect(DOCUMENTED_RULE_IDS.has(id), `${f.file}: ${id}`).toBe(true);
    }
  });

  it('leaves no token, password or client secret in any file', () => {
    const sim = new Simulator({ seed: 42, wallClock: () => FIXED_WALL_CLOCK });
    const secrets = [sim.issueToken(DEFAULT_CLIENT_ID, 'read-write'), sim.adminToken, CASE_PASSWORD, CASE_SHORT_PASSWORD, CASE_CLIENT_SECRET];
    for (const f of files) {
      for (const s of secrets) expect(f.content.includes(s), `${f.file} contains a secret`).toBe(false);
      expect(f.content).not.toMatch(/\b[0-9a-f]{40}\b/); // the simulator's token shape
    }
    expect(json('create/created.json')).toMatchObject({
      request: { headers: { authorization: 'Bearer <access_token>' }, body: { data: { password: '<password>' } } },
      response: { status: 201 },
    });
    expect(json('auth/token.json')).toMatchObject({
      request: { body: 'grant_type=client_credentials&client_id=commerce-sim&client_secret=<client_secret>' },
      response: { status: 200, body: { access_token: '<access_token>', token_type: 'Bearer', expires: FIXED_WALL_CLOCK / 1000 + 3600 } },
    });
    expect(json('create/error-no-token.json')).toMatchObject({ request: { headers: { 'content-type': 'application/json' } }, response: { status: 401 } });
    expect(readFixture(byName.get('create/error-no-token.json')).request.headers).not.toHaveProperty('authorization');
  });

  it('shows the behaviour each case names', () => {
    const response = (file: string) => readFixture(byName.get(file)).response;
    const data = (file: string) => list(at(response(file).body, 'data'));
    expect(at(response('lists/default-page.json').body, 'meta')).toEqual({ page: { limit: 25, offset: 0, current: 1, total: 5 }, results: { total: 120 } });
    expect(data('lists/page-length-changed.json')).toHaveLength(10);
    expect(data('lists/clamped.json')).toHaveLength(100);
    expect(data('lists/last-page.json')).toHaveLength(20);
    expect(response('lists/empty.json').body).toMatchObject({ data: [], meta: { page: { total: 0 }, results: { total: 0 } } });
    expect(response('lists/offset-limit-hard.json').status).toBe(400);
    expect(response('lists/offset-limit-soft.json').status).toBe(400);
    expect(response('create/error-unknown-realm.json')).toMatchObject({ status: 404, body: { errors: [{ detail: 'Resource not found' }] } });
    const shared = data('lists/shared-timestamp-page.json').map((r) => recordAttr(r, 'created_at'));
    expect(shared).toHaveLength(25);
    expect(new Set(shared).size).toBe(1);
    const pages = [1, 2, 3, 4].map((n) => idsOf(response(`lists/keyset/page-${n}.json`).body));
    expect(pages.map((p) => p.length)).toEqual([25, 25, 10, 0]);
    const ids = pages.flat();
    expect(new Set(ids).size).toBe(60);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('the committed fixtures/ directory', () => {
  it('equals a fresh generation (regenerate: commerce-sim fixtures --out fixtures --sim-seed 42)', async () => {
    const stale = await staleFiles(fileURLToPath(COMMITTED_FIXTURES), files);
    expect(stale).toEqual({ changed: [], missing: [], extra: [] });
  });
});

describe('commerce-sim fixtures', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const io = (cwd: string) => {
    const cap = captureIo(cwd);
    return { io: cap.io, text: () => cap.stdout() + cap.stderr() };
  };

  it('writes, checks, reports stale files and removes what it no longer generates', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'fixtures-cli-'));
    dirs.push(cwd);
    expect(await fixtures(['--out', 'fx', '--sim-seed', '42'], io(cwd).io)).toBe(0);
    expect(await readFile(join(cwd, 'fx', 'lists', 'default-page.json'), 'utf8')).toBe(byName.get('lists/default-page.json'));
    expect(await fixtures(['--out', 'fx', '--check'], io(cwd).io)).toBe(0);

    await writeFile(join(cwd, 'fx', 'lists', 'clamped.json'), '{}\n');
    await rm(join(cwd, 'fx', 'auth', 'token.json'));
    await mkdir(join(cwd, 'fx', 'lists', 'keyset'), { recursive: true });
    await writeFile(join(cwd, 'fx', 'lists', 'keyset', 'page-9.json'), '{}\n');
    const checked = io(cwd);
    expect(await fixtures(['--out', 'fx', '--check'], checked.io)).toBe(1);
    expect(checked.text()).toContain('changed  lists/clamped.json');
    expect(checked.text()).toContain('missing  auth/token.json');
    expect(checked.text()).toContain('extra    lists/keyset/page-9.json');
    expect(await readFile(join(cwd, 'fx', 'lists', 'clamped.json'), 'utf8')).toBe('{}\n'); // --check writes nothing

    // A page an earlier generation wrote (named in its index.json) goes when this one does not write it.
    const index: unknown = JSON.parse(await readFile(join(cwd, 'fx', 'index.json'), 'utf8'));
    const entries = [...list(at(index, 'fixtures')), { case: 'lists/keyset/page-9', file: 'lists/keyset/page-9.json' }];
    await writeFile(join(cwd, 'fx', 'index.json'), JSON.stringify({ kind: 'generated', fixtures: entries }));
    expect(await fixtures(['--out', 'fx'], io(cwd).io)).toBe(0);
    expect(await staleFiles(join(cwd, 'fx'), files)).toEqual({ changed: [], missing: [], extra: [] });
  });

  it('rejects bad options as usage errors', async () => {
    for (const argv of [['--sim-seed', 'abc'], ['--seed', '42'], ['--nope']]) {
      const c = io(tmpdir());
      expect(await fixtures(argv, c.io)).toBe(2);
      expect(c.text()).toMatch(/commerce-sim fixtures: .* \(see commerce-sim fixtures --help\)\n$/);
    }
  });
});
