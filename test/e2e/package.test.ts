/**
 * The published entry points (package.json `main` and `exports`) load from the built package and work
 * together: a user's first three lines. Each entry is taken where `exports` points (the bundle in
 * dist/bundle/), never by a path of our own choosing. dist/ is built by test/global-setup.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as Main from '../../src/index.js';
import type * as RulesEntry from '../../src/rules-entry.js';
import type * as Scenarios from '../../src/scenarios/index.js';
import type * as Traffic from '../../src/traffic/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  main: string;
  exports: Record<string, { types: string; default: string }>;
};

/** What `import 'commerce-sim<subpath>'` loads: the file `exports` names. */
const published = (subpath: string): string => {
  const target = pkg.exports[subpath];
  if (target === undefined) throw new Error(`package.json exports has no ${subpath}`);
  return join(root, target.default);
};
const entry = async (subpath: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(published(subpath)).href)) as Record<string, unknown>;

/** The package's own files the static imports of `file` reach (packages and node: builtins left out). */
function staticFiles(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:^|[\n;}])\s*(?:import|export)\s*(?:[^'";]*?\sfrom\s*)?["'](\.[^"']+)["']/g)) staticFiles(resolve(dirname(file), m[1] ?? ''), seen);
  return seen;
}

describe('the package entry points', () => {
  it('exports the simulator and targets from the main entry, the catalogue, runners and reporters from their own', async () => {
    expect(pkg.main).toBe(pkg.exports['.']?.default.replace(/^\.\//, ''));
    const lib = await entry('.');
    for (const name of ['startSimulator', 'Simulator', 'listen', 'createSimTarget', 'createHttpTarget', 'isRuleId', 'parseReading']) expect(typeof lib[name], name).toBe('function');
    // Loaded only by who asks: the main entry does not carry them (a test file that starts a simulator loads less).
    for (const name of ['catalogue', 'ruleById', 'judgeRule', 'classifyRequest', 'fingerprinted', 'loadScenarios', 'runScenarios', 'runProperties', 'writeReports'])
      expect(lib[name], name).toBeUndefined();
    const rules = await entry('./rules');
    for (const name of ['ruleById', 'judgeRule', 'reviewFailure', 'classifyRequest', 'gapsFor', 'fingerprintOf', 'fingerprinted']) expect(typeof rules[name], name).toBe('function');
    expect(Array.isArray(rules['catalogue'])).toBe(true);
    expect(rules['documentedRuleIds']).toEqual((rules['catalogue'] as { level: string; id: string }[]).filter((r) => r.level === 'documented').map((r) => r.id));
    const scenarios = await entry('./scenarios');
    for (const name of ['loadScenarios', 'runScenarios', 'selectScenarios']) expect(typeof scenarios[name], name).toBe('function');
    const properties = await entry('./properties');
    expect(typeof properties['runProperties']).toBe('function');
    expect(Array.isArray(properties['properties'])).toBe(true);
    const report = await entry('./report');
    for (const name of ['writeReports', 'buildRunReport', 'renderJson', 'renderJunit', 'renderMarkdown', 'renderHtml']) expect(typeof report[name], name).toBe('function');
  });

  it('exports a client that exports accounts from a simulator target', async () => {
    const lib = await entry('.');
    const client = await entry('./client');
    const createSimTarget = lib['createSimTarget'];
    const exportAccounts = client['exportAccounts'];
    if (typeof createSimTarget !== 'function' || typeof exportAccounts !== 'function') throw new Error('entry points missing');
    const target: unknown = await createSimTarget({ accounts: 30, wallClock: () => 0 });
    let csv = '';
    const result: unknown = await exportAccounts(target, { write: (chunk: string) => void (csv += chunk) });
    expect(result).toMatchObject({ records: 30 });
    expect(csv.split('\r\n')[0]).toBe('name,legal_name,registration_id,id');
  });
});

describe('the bundle (dist/bundle/, what exports points to)', () => {
  it('every entry exports the names its compiled module does, the declarations beside it', async () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      const compiled = join(root, target.types.replace(/\.d\.ts$/, '.js'));
      const expected = Object.keys((await import(pathToFileURL(compiled).href)) as object).sort();
      expect(Object.keys(await entry(subpath)).sort(), subpath).toEqual(expected);
      expect(published(subpath), subpath).toMatch(/dist\/bundle\/[\w-]+\.js$/);
    }
  });

  it('a class is one class through every entry: an error of commerce-sim/scenarios is a KitError of commerce-sim', async () => {
    const { KitError, isKitError } = (await entry('.')) as { KitError: abstract new () => Error; isKitError: (e: unknown) => boolean };
    const { loadScenarios, ScenarioError } = (await entry('./scenarios')) as {
      loadScenarios: (paths: string[], o: { ruleExists: () => boolean }) => Promise<unknown>;
      ScenarioError: new () => Error;
    };
    const error: unknown = await loadScenarios([join(root, 'no-such-dir')], { ruleExists: () => true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ScenarioError);
    expect(error).toBeInstanceOf(KitError);
    expect(isKitError(error)).toBe(true);
    expect((error as { code?: string }).code).toBe('SCENARIO_NOT_FOUND');
  });

  it("reads the package's own files from where it sits: the shipped scenarios load against their schema", async () => {
    const { loadScenarios } = (await entry('./scenarios')) as { loadScenarios: (paths: string[], o: { ruleExists: (id: string) => boolean; cwd: string }) => Promise<{ name: string }[]> };
    const { ruleById } = (await entry('./rules')) as { ruleById: (id: string) => unknown };
    const bundled = await loadScenarios([join(root, 'scenarios')], { ruleExists: (id) => ruleById(id) !== undefined, cwd: root });
    const compiledScenarios = (await import(pathToFileURL(join(root, 'dist/scenarios/index.js')).href)) as typeof Scenarios;
    const compiledRules = (await import(pathToFileURL(join(root, 'dist/rules-entry.js')).href)) as typeof RulesEntry;
    const compiled = await compiledScenarios.loadScenarios([join(root, 'scenarios')], { ruleExists: (id) => compiledRules.ruleById(id) !== undefined, cwd: root });
    expect(bundled.map((s) => s.name)).toEqual(compiled.map((s) => s.name));
    expect(bundled.length).toBeGreaterThan(10);
  });

  it('the judging proxy in front of a URL judges in its worker thread from the bundle', async () => {
    const { startSimulator } = (await entry('.')) as typeof Main;
    const { startJudgingProxy } = (await entry('./traffic')) as typeof Traffic;
    await using sim = await startSimulator({ accounts: 30 });
    const proxy = await startJudgingProxy({ upstream: sim.baseUrl });
    expect(proxy.judging).toBe('thread');
    const res = await fetch(`${proxy.url}/v2/accounts?page[limit]=5`, { headers: { authorization: `Bearer ${sim.token}` } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const result = await proxy.close();
    expect(result.entries).toBe(1);
  });

  it('the main entry is a few files, not the 78 modules it is compiled from (the cold start pays per file)', () => {
    const compiled = staticFiles(join(root, 'dist/index.js'));
    const bundled = staticFiles(published('.'));
    expect(compiled.size).toBeGreaterThan(40);
    expect(bundled.size).toBeLessThanOrEqual(10);
    for (const f of bundled) expect(f.startsWith(join(root, 'dist/bundle/')), f).toBe(true);
  });
});
