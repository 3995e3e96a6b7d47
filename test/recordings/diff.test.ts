import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diff } from '../../src/cli/diff.js';
import { record } from '../../src/cli/record.js';
import { behaviouralCount, compareSides, type DiffResult } from '../../src/recordings/diff.js';
import { renderDiffJson, renderDiffMarkdown } from '../../src/recordings/diff-report.js';
import type { RuleId } from '../../src/rules/ids.js';
import { loadRecording, readOnlyScenarios, recordingFiles, recordScenarios, type Recording } from '../../src/recordings/record-live.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { at } from '../../src/rules/inspect.js';
import type { Scenario } from '../../src/scenarios/format.js';
import { loadScenarios } from '../../src/scenarios/load.js';
import { listen, type RunningServer } from '../../src/sim/server.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { createSimTarget, type SimTargetOptions } from '../../src/adapters/simulator.js';
import { captureIo, loadTestScenarios, SCENARIOS_DIR } from './helpers.js';

let scenarios: Scenario[];
beforeAll(async () => {
  scenarios = await loadTestScenarios();
});

async function recordSim(options: SimTargetOptions, allowWrites = false): Promise<Recording> {
  const target = await createSimTarget({ seed: 42, ...options });
  return recordScenarios(readOnlyScenarios(scenarios, allowWrites), target, { ruleById, allowWrites });
}

const compare = async (a: SimTargetOptions, b: SimTargetOptions, allowWrites = false): Promise<DiffResult> =>
  compareSides({ label: 'a', recording: await recordSim(a, allowWrites) }, { label: 'b', recording: await recordSim(b, allowWrites) });

const rulesWithDifferences = (r: DiffResult): string[] => r.byRule.map((x) => x.id);

describe('diff of two simulators', () => {
  it('finds nothing between a simulator and the same simulator', async () => {
    const r = await compare({}, {}, true);
    expect(r.compared.scenarios).toBe(6);
    expect(r.compared.exchanges).toBeGreaterThan(10);
    expect(r.differences).toEqual([]);
    expect(behaviouralCount(r)).toBe(0);
  });

  it('reports a broken page count under pagination.page.total, and nothing else', async () => {
    const r = await compare({}, { deviate: ['pagination.page.total'] });
    expect(rulesWithDifferences(r)).toEqual(['pagination.page.total']);
    const found = r.byRule[0]?.differences ?? [];
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.kind === 'behaviour' && d.aspect === 'totals')).toBe(true);
    expect(found[0]).toMatchObject({ scenario: 'accounts default page', what: 'meta.page.total = ceil(results.total / limit)', a: 'holds', b: 'fails' });
  });

  it('reports the hyphenated type of a create under create.type.underscore-echo (writes allowed)', async () => {
    const r = await compare({}, { deviate: ['create.type.underscore-echo'] }, true);
    expect(rulesWithDifferences(r)).toEqual(['create.type.underscore-echo']);
    expect(r.byRule[0]?.differences[0]).toMatchObject({
      aspect: 'fields',
      what: 'value data.type',
      a: 'user_authentication_password_profile_info',
      b: 'user-authentication-password-profile-info',
    });
  });

  it('reports a sort that is ignored under sort.ascending', async () => {
    const r = await compare({}, { deviate: ['sort.ascending'] });
    expect(rulesWithDifferences(r)).toEqual(['sort.ascending']);
    expect(r.byRule[0]?.differences.map((d) => [d.aspect, d.what, d.a, d.b])).toContainEqual(['ordering', 'data sorted by created_at', 'holds', 'fails']);
  });

  it('reports a keyset walk that loses its last record under large-data.keyset.id', async () => {
    const r = await compare({}, { deviate: ['large-data.keyset.id'] });
    expect(rulesWithDifferences(r)).toContain('large-data.keyset.id');
    expect(r.byRule.find((x) => x.id === 'large-data.keyset.id')?.differences[0]).toMatchObject({ scenario: 'keyset walk over accounts', aspect: 'page-size' });
  });

  it('tells other data apart from other behaviour: totals and walk lengths are data differences', async () => {
    const r = await compare({ accounts: 120 }, { accounts: 260, seed: 9 });
    expect(behaviouralCount(r)).toBe(0);
    const data = r.differences.filter((d) => d.kind === 'data');
    expect(data.map((d) => d.what)).toEqual(expect.arrayContaining(['meta.results.total', 'exchanges in the step', 'meta.page.total']));
    expect(data.find((d) => d.what === 'exchanges in the step')).toMatchObject({ scenario: 'keyset walk over accounts', a: '5', b: '8' });
  });

  it('reports scenarios one side skipped as not compared, not as behaviour', async () => {
    const target = await createSimTarget({ seed: 42 });
    const withVars = await recordScenarios(readOnlyScenarios(scenarios, true), target, { ruleById, allowWrites: true });
    const bare = await createSimTarget({ seed: 42 });
    const withoutVars = await recordScenarios(readOnlyScenarios(scenarios, true), { ...bare, vars: {} }, { ruleById, allowWrites: true });
    const r = compareSides({ label: 'a', recording: withVars }, { label: 'b', recording: withoutVars });
    expect(behaviouralCount(r)).toBe(0);
    expect(r.differences).toEqual([expect.objectContaining({ kind: 'coverage', scenario: 'create a password profile', a: 'run', b: expect.stringContaining('skipped') })]);
  });
});

describe('the shipped scenarios', () => {
  const shipped = async (options: SimTargetOptions): Promise<Recording> => {
    const all = await loadScenarios([fileURLToPath(new URL('../../scenarios/', import.meta.url))], { ruleExists: (id) => ruleById(id) !== undefined });
    return recordScenarios(readOnlyScenarios(all, true), await createSimTarget({ seed: 42, ...options }), { ruleById, allowWrites: true });
  };

  it('find no difference between a simulator and itself, and name the rule a deviation breaks', async () => {
    const base = await shipped({});
    expect(base.observations.length).toBeGreaterThan(50);
    expect(compareSides({ label: 'a', recording: base }, { label: 'b', recording: await shipped({}) }).differences.filter((d) => d.kind !== 'coverage')).toEqual([]);
    for (const id of ['pagination.page.total', 'create.timestamps.equal', 'create.links.self', 'sort.ascending'] as const) {
      const r = compareSides({ label: 'a', recording: base }, { label: 'b', recording: await shipped({ deviate: [id] }) });
      expect(rulesWithDifferences(r), id).toContain(id);
    }
  });
});

describe('the rule that explains a diff', () => {
  const shipped = async (options: SimTargetOptions): Promise<Recording> => {
    const all = await loadScenarios([fileURLToPath(new URL('../../scenarios/', import.meta.url))], { ruleExists: (id) => ruleById(id) !== undefined });
    return recordScenarios(readOnlyScenarios(all), await createSimTarget({ seed: 42, ...options }), { ruleById });
  };
  let faithful: Recording;
  beforeAll(async () => {
    faithful = await shipped({});
  });
  const against = async (id: RuleId): Promise<DiffResult> => compareSides({ label: 'sim', recording: faithful }, { label: 'deviating', recording: await shipped({ deviate: [id] }) });

  it('names a broken page count as the one cause, and the other rules its differences touch as knock-ons', async () => {
    const r = await against('pagination.page.total');
    // The differences touch several rules of the steps that read pages; one rule explains them all.
    expect(r.byRule.length).toBeGreaterThan(1);
    expect(r.explanation.causes.map((c) => c.id)).toEqual(['pagination.page.total']);
    expect(r.explanation.causes[0]?.differences).toHaveLength(behaviouralCount(r));
    const others = r.byRule.map((x) => x.id).filter((id) => id !== 'pagination.page.total');
    expect(r.explanation.knockOns).toEqual(others.map((id) => ({ id, follows: 'pagination.page.total' })));
    expect(r.explanation.causes[0]?.knockOns).toEqual(others);
    const text = renderDiffMarkdown(r);
    expect(text).toContain(`**${behaviouralCount(r)} behavioural differences, explained by 1 rule: pagination.page.total (and ${others.length} rules that follow from it).**`);
    expect(text).toContain(`| ${others[0] ?? ''} | pagination.page.total |`);
    const json: unknown = JSON.parse(renderDiffJson(r));
    expect(at(json, 'summary', 'causes')).toEqual(['pagination.page.total']);
  });

  it('names the deviated rule for another deviation too: a filter gt that lets the boundary record through', async () => {
    const r = await against('filter.gt');
    expect(r.explanation.causes.map((c) => c.id)).toEqual(['filter.gt']);
    expect(r.explanation.knockOns.every((k) => k.follows === 'filter.gt')).toBe(true);
    expect(renderDiffMarkdown(r)).toContain('explained by 1 rule: filter.gt');
  });

  it('names the rule a changed status evidences: a create answered 200 instead of 201, in every step that creates', async () => {
    const all = await loadScenarios([fileURLToPath(new URL('../../scenarios/', import.meta.url))], { ruleExists: (id) => ruleById(id) !== undefined });
    const writes = async (deviate: RuleId[]) => recordScenarios(readOnlyScenarios(all, true), await createSimTarget({ seed: 42, deviate }), { ruleById, allowWrites: true });
    const r = compareSides({ label: 'sim', recording: await writes([]) }, { label: 'deviating', recording: await writes(['create.status.201']) });
    expect(r.differences.filter((d) => d.kind === 'behaviour' && d.aspect === 'status').length).toBeGreaterThan(1);
    expect(r.explanation.causes.map((c) => c.id)).toEqual(['create.status.201']);
  });
});

describe('a step one side could not run', () => {
  /** The shipped read-only scenarios, on a target whose seeded `realm_id` is not given (as on a URL side without --var). */
  const withoutRealm = async (): Promise<Recording> => {
    const all = await loadScenarios([fileURLToPath(new URL('../../scenarios/', import.meta.url))], { ruleExists: (id) => ruleById(id) !== undefined });
    const target = await createSimTarget({ seed: 42 });
    const { realm_id: _realm, ...vars } = target.vars;
    return recordScenarios(readOnlyScenarios(all), { ...target, vars }, { ruleById });
  };
  const full = async (): Promise<Recording> => {
    const all = await loadScenarios([fileURLToPath(new URL('../../scenarios/', import.meta.url))], { ruleExists: (id) => ruleById(id) !== undefined });
    return recordScenarios(readOnlyScenarios(all), await createSimTarget({ seed: 42 }), { ruleById });
  };

  it('is reported as not compared with the reason, and shifts no pairing: no behavioural or data difference', async () => {
    const a = await full();
    const b = await withoutRealm();
    const r = compareSides({ label: 'a', recording: a }, { label: 'b', recording: b });
    expect(r.differences.filter((d) => d.kind !== 'coverage')).toEqual([]);
    const notCompared = r.differences.filter((d) => d.what === 'step not compared');
    expect(notCompared.length).toBeGreaterThan(0);
    expect(notCompared.every((d) => d.b.includes("needs variable 'realm_id'") && d.a.startsWith('ran'))).toBe(true);
    // The list endpoints' sequence stopped at its second item on b: its first exchange is still compared, with its own.
    const list = notCompared.find((d) => d.b.startsWith('stopped after 1 exchange'));
    expect(list).toBeDefined();
    // Either way round: the side that could not run is named as such.
    const back = compareSides({ label: 'b', recording: b }, { label: 'a', recording: a });
    expect(back.differences.filter((d) => d.kind !== 'coverage')).toEqual([]);
    expect(back.differences.filter((d) => d.what === 'step not compared').every((d) => d.a.includes("needs variable 'realm_id'"))).toBe(true);
  });

  it('keeps its reason in a recording directory, so a recording side pairs the same way', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'not-run-'));
    try {
      const b = await withoutRealm();
      for (const f of recordingFiles(b, { renameIds: false, secrets: [] })) {
        await mkdir(dirname(join(dir, f.file)), { recursive: true });
        await writeFile(join(dir, f.file), f.content);
      }
      const loaded = await loadRecording(dir);
      expect(loaded.scenarios).toEqual(b.scenarios);
      const r = compareSides({ label: 'a', recording: await full() }, { label: 'dir', recording: loaded });
      expect(r.differences.filter((d) => d.kind !== 'coverage')).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('attributing exchanges to steps', () => {
  it('splits walks of unknown length by where the next step begins', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'walks-'));
    try {
      await writeFile(
        join(dir, 'walks.yaml'),
        [
          'name: two walks',
          'rules: [large-data.keyset.id]',
          'steps:',
          '  - { name: by id, walk: { path: /v2/accounts, mode: keyset-id, limit: 50 } }',
          '  - { name: by offset, walk: { path: /v2/accounts, mode: offset, limit: 60 } }',
          '  - { name: settings, request: { method: GET, path: /v2/settings } }',
          '',
        ].join('\n'),
      );
      const loaded = await loadScenarios([dir], { ruleExists: (id) => ruleById(id) !== undefined });
      const recording = await recordScenarios(loaded, await createSimTarget({ seed: 42 }), { ruleById });
      const steps = recording.observations.map((o) => `${o.stepIndex}:${o.index}`);
      // by id: the initial GET, pages of 50, 50, 20 and the empty one; by offset: the initial GET, 60, 60, 0.
      expect(steps).toEqual(['1:0', '1:1', '1:2', '1:3', '1:4', '2:0', '2:1', '2:2', '2:3', '3:0']);
      expect(recording.observations.filter((o) => o.stepIndex === 2).every((o) => !o.fixture.request.url.includes('sort=id'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('commerce-sim diff', () => {
  let server: RunningServer;
  let token: string;
  const dirs: string[] = [];
  let cwd: string;

  beforeAll(async () => {
    const sim = new Simulator({ seed: 42, wallClock: () => Date.UTC(2025, 0, 1) });
    token = sim.issueToken(DEFAULT_CLIENT_ID, 'read-write');
    server = await listen(sim, 0, '127.0.0.1');
    cwd = await mkdtemp(join(tmpdir(), 'diff-'));
    dirs.push(cwd);
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  const run = async (...args: string[]) => {
    const cap = captureIo(cwd, { SIM_TOKEN: token });
    const code = await diff([...args, SCENARIOS_DIR], cap.io);
    return { code, out: cap.stdout(), err: cap.stderr() };
  };

  it('finds no behavioural difference between the embedded simulator and the same one over HTTP', async () => {
    const r = await run('--a', 'sim', '--b', server.baseUrl, '--token-env', 'SIM_TOKEN');
    expect(r.err).toBe('');
    expect(r.out).toContain('**No behavioural difference.**');
    expect(r.code).toBe(0);
  });

  it('exits 1 with the rule named when a side deviates, and writes --out', async () => {
    const r = await run('--a', server.baseUrl, '--token-env', 'SIM_TOKEN', '--b', 'sim', '--deviate-b', 'pagination.page.total', '--out', 'drift/report.md');
    expect(r.code).toBe(1);
    expect(r.out).toContain('### pagination.page.total');
    expect(r.out).not.toContain('### pagination.limit.default');
    expect(await readFile(join(cwd, 'drift', 'report.md'), 'utf8')).toBe(r.out);
  });

  it('compares a recording directory with a live side, also when its ids were renamed', async () => {
    for (const rename of [[], ['--rename-ids']]) {
      const dir = `rec${rename.length}`;
      const rec = captureIo(cwd, { SIM_TOKEN: token });
      expect(await record(['--target', server.baseUrl, '--token-env', 'SIM_TOKEN', '--out', dir, ...rename, SCENARIOS_DIR], rec.io)).toBe(0);
      const same = await run('--a', dir, '--b', 'sim');
      expect(same.out).toContain('**No behavioural difference.**');
      expect(same.code).toBe(0);
      const drifted = await run('--a', dir, '--b', 'sim', '--deviate-b', 'pagination.limit.default', '--json');
      expect(drifted.code).toBe(1);
      const report: unknown = JSON.parse(drifted.out);
      expect(at(report, 'summary', 'rules')).toEqual(['pagination.limit.default']);
      expect(at(report, 'summary', 'behaviour')).toBeGreaterThan(0);
    }
    const both = await run('--a', 'rec0', '--b', 'rec1');
    expect(both.code).toBe(0);
  });

  it('exits 2 on usage errors', async () => {
    expect((await run('--a', 'sim')).code).toBe(2);
    expect((await run('--a', 'sim', '--b', 'no-such-dir')).err).toContain("'no-such-dir' is not sim");
    expect((await run('--a', 'sim', '--b', 'sim', '--deviate-a', 'no.such.rule')).code).toBe(2);
    expect((await run('--a', server.baseUrl, '--b', 'sim', '--deviate-a', 'pagination.page.total')).code).toBe(2);
    const notRecording = await run('--a', SCENARIOS_DIR, '--b', 'sim');
    expect(notRecording.code).toBe(2);
    expect(notRecording.err).toContain('RECORDING_NOT_FOUND');
  });
});
