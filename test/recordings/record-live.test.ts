import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { record } from '../../src/cli/record.js';
import { readOnlyScenarios, recordingFiles, recordScenarios } from '../../src/recordings/record-live.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { listen, type RunningServer } from '../../src/sim/server.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { captureIo, loadTestScenarios, SCENARIOS_DIR } from './helpers.js';
import { at, idsOf } from '../../src/rules/inspect.js';
import { list, readFixture, validateFixture, validateIndex } from './schema.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function filesUnder(dir: string, root = dir): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) for (const [k, v] of await filesUnder(path, root)) out.set(k, v);
    else out.set(relative(root, path).split(sep).join('/'), await readFile(path, 'utf8'));
  }
  return out;
}

describe('commerce-sim record against a loopback simulator', () => {
  let server: RunningServer;
  let token: string;
  let host: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    const sim = new Simulator({ seed: 42, wallClock: () => Date.UTC(2025, 0, 1) });
    token = sim.issueToken(DEFAULT_CLIENT_ID, 'read-write');
    server = await listen(sim, 0, '127.0.0.1');
    host = new URL(server.baseUrl).host;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  const recordTo = async (...extra: string[]) => {
    const cwd = await mkdtemp(join(tmpdir(), 'record-'));
    dirs.push(cwd);
    const cap = captureIo(cwd, { SIM_TOKEN: token });
    const code = await record(['--target', server.baseUrl, '--token-env', 'SIM_TOKEN', '--out', 'rec', ...extra, SCENARIOS_DIR], cap.io);
    expect(cap.stderr()).toBe('');
    expect(code).toBe(0);
    return filesUnder(join(cwd, 'rec'));
  };

  it('saves every read-only exchange as a fixture, with the host, the token and Authorization replaced', async () => {
    const files = await recordTo();
    const index: unknown = JSON.parse(files.get('index.json') ?? '');
    expect(validateIndex(index), JSON.stringify(validateIndex.errors)).toBe(true);
    expect(at(index, 'kind')).toBe('recording');
    const names = list(at(index, 'scenarios')).map((s) => at(s, 'name'));
    expect(names).toEqual(['accounts default page', 'accounts clamped and sorted', 'errors of reads', 'one account by id', 'keyset walk over accounts']);
    const entries = list(at(index, 'fixtures'));
    expect(entries.map((f) => at(f, 'file')).sort()).toEqual([...files.keys()].filter((f) => f !== 'index.json').sort());
    expect(files.has('accounts-default-page/01-first-page.json')).toBe(true);
    expect(files.has('errors-of-reads/02-without-a-token.json')).toBe(true);
    // The walk: an initial GET, three pages of 50 over 120 accounts, the empty page; then the next step.
    expect(entries.filter((f) => at(f, 'scenario') === 'keyset walk over accounts').map((f) => [at(f, 'step_index'), at(f, 'exchange')])).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 0],
    ]);

    for (const [file, content] of files) {
      expect(content.includes(token), file).toBe(false);
      expect(content.includes(host), file).toBe(false);
      expect(content.includes('127.0.0.1'), file).toBe(false);
      if (file === 'index.json') continue;
      const fixture: unknown = JSON.parse(content);
      expect(validateFixture(fixture), `${file}: ${JSON.stringify(validateFixture.errors)}`).toBe(true);
    }
    const first = readFixture(files.get('accounts-default-page/01-first-page.json'));
    expect(first.request.headers['authorization']).toBe('Bearer <access_token>');
    expect(at(first.response.body, 'links', 'first')).toBe('{base_url}/v2/accounts?page[limit]=25&page[offset]=0');
    const anonymous = readFixture(files.get('errors-of-reads/02-without-a-token.json'));
    expect(anonymous.request.headers).not.toHaveProperty('authorization');
    expect(anonymous.response.status).toBe(401);
    expect(files.get('accounts-default-page/01-first-page.json')).toMatch(UUID);
  });

  it('renames ids to stable placeholders in order of first appearance, the same bytes on every recording', async () => {
    const files = await recordTo('--rename-ids');
    for (const [file, content] of files) expect(content, file).not.toMatch(UUID);
    const page = readFixture(files.get('accounts-default-page/01-first-page.json'));
    expect(idsOf(page.response.body).slice(0, 3)).toEqual(['<id-1>', '<id-2>', '<id-3>']);
    // The walk's next filter names the last id of the page before it, under the same placeholder.
    const walk1 = idsOf(readFixture(files.get('keyset-walk-over-accounts/02-walk-by-id.json')).response.body);
    const walk2 = readFixture(files.get('keyset-walk-over-accounts/03-walk-by-id.json'));
    const last = walk1[walk1.length - 1] ?? '';
    expect(last).toMatch(/^<id-\d+>$/);
    expect(walk2.request.url).toBe(`/v2/accounts?sort=id&filter=gt(id,${last})&page[limit]=50`);
    expect(await recordTo('--rename-ids')).toEqual(files);
  });

  it('replaces the bytes of an earlier recording it made, and leaves other files alone', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'record-'));
    dirs.push(cwd);
    const run = (...args: string[]) => record(['--target', server.baseUrl, '--token-env', 'SIM_TOKEN', '--out', 'rec', ...args], captureIo(cwd, { SIM_TOKEN: token }).io);
    expect(await run(SCENARIOS_DIR)).toBe(0);
    await writeFile(join(cwd, 'rec', 'notes.txt'), 'mine');
    expect(await run('--grep', 'errors of reads', SCENARIOS_DIR)).toBe(0);
    expect([...(await filesUnder(join(cwd, 'rec'))).keys()].sort()).toEqual([
      'errors-of-reads/01-past-the-soft-offset-limit.json',
      'errors-of-reads/02-without-a-token.json',
      'index.json',
      'notes.txt',
    ]);
  });

  it('redacts a token a scenario sends itself, in a header or the query, from a secret-named variable', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'record-'));
    dirs.push(cwd);
    await writeFile(
      join(cwd, 'own-token.yaml'),
      [
        'name: own token',
        'rules: [auth.missing-401]',
        'steps:',
        '  - name: explicit header',
        '    request:',
        '      method: GET',
        '      path: /v2/accounts',
        '      query: { "page[limit]": 1, access_token: "${{ vars.access_token }}" }',
        '      headers: { authorization: "Bearer ${{ vars.access_token }}", x-moltin-customer-token: "${{ vars.access_token }}" }',
        '',
      ].join('\n'),
    );
    const cap = captureIo(cwd, {});
    expect(await record(['--target', server.baseUrl, '--var', `access_token=${token}`, '--out', 'rec', 'own-token.yaml'], cap.io)).toBe(0);
    const files = await filesUnder(join(cwd, 'rec'));
    const fixture = readFixture(files.get('own-token/01-explicit-header.json'));
    expect(fixture.response.status).toBe(200);
    expect(fixture.request.url).toBe('/v2/accounts?page[limit]=1&access_token=<access_token>');
    expect(fixture.request.headers).toEqual({ authorization: 'Bearer <access_token>', 'x-moltin-customer-token': '<redacted>' });
    for (const [file, content] of files) expect(content.includes(token), file).toBe(false);
  });

  it('exits 2 on usage and target errors', async () => {
    const cap = captureIo(tmpdir(), {});
    expect(await record([SCENARIOS_DIR], cap.io)).toBe(2);
    expect(cap.stderr()).toContain('--target is required');
    const unset = captureIo(tmpdir(), {});
    expect(await record(['--target', server.baseUrl, '--token-env', 'NOT_SET', SCENARIOS_DIR], unset.io)).toBe(2);
    expect(unset.stderr()).toContain('NOT_SET');
  });
});

describe('recording in process', () => {
  it('keeps writes and sim-only scenarios out unless writes are allowed, and redacts the passwords they send', async () => {
    const all = await loadTestScenarios();
    expect(readOnlyScenarios(all).map((s) => s.name)).not.toContain('create a password profile');
    expect(readOnlyScenarios(all, true).map((s) => s.name)).toContain('create a password profile');
    expect(readOnlyScenarios(all, true).map((s) => s.name)).not.toContain('admin state');

    const target = await createSimTarget({ seed: 42 });
    const recording = await recordScenarios(readOnlyScenarios(all, true), target, { ruleById, allowWrites: true });
    const files = recordingFiles(recording, { renameIds: false, secrets: [[target.vars['admin_token'] ?? '', '<access_token>']] });
    const create = files.find((f) => f.file === 'create-a-password-profile/01-create.json')?.content ?? '';
    expect(create).toContain('"password": "<password>"');
    expect(create).toContain('"status": 201');
    for (const f of files) expect(f.content.includes('a-long-enough-secret'), f.file).toBe(false);
  });
});
