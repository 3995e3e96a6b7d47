/**
 * The published entry points (package.json `main` and `exports`) load from the built package and work
 * together: a user's first three lines. dist/ is built by test/global-setup.ts.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the package entry points (dist/)', () => {
  it('exports the simulator and targets from the main entry, the catalogue, runners and reporters from their own', async () => {
    const entry = async (path: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(`${root}dist/${path}`).href)) as Record<string, unknown>;
    const lib = await entry('index.js');
    for (const name of ['startSimulator', 'Simulator', 'listen', 'createSimTarget', 'createHttpTarget', 'isRuleId', 'parseReading']) expect(typeof lib[name], name).toBe('function');
    // Loaded only by who asks: the main entry does not carry them (a test file that starts a simulator loads less).
    for (const name of ['catalogue', 'ruleById', 'judgeRule', 'classifyRequest', 'fingerprinted', 'loadScenarios', 'runScenarios', 'runProperties', 'writeReports'])
      expect(lib[name], name).toBeUndefined();
    const rules = await entry('rules-entry.js');
    for (const name of ['ruleById', 'judgeRule', 'reviewFailure', 'classifyRequest', 'gapsFor', 'fingerprintOf', 'fingerprinted']) expect(typeof rules[name], name).toBe('function');
    expect(Array.isArray(rules['catalogue'])).toBe(true);
    expect(rules['documentedRuleIds']).toEqual((rules['catalogue'] as { level: string; id: string }[]).filter((r) => r.level === 'documented').map((r) => r.id));
    const scenarios = await entry('scenarios/index.js');
    for (const name of ['loadScenarios', 'runScenarios', 'selectScenarios']) expect(typeof scenarios[name], name).toBe('function');
    const properties = await entry('properties/index.js');
    expect(typeof properties['runProperties']).toBe('function');
    expect(Array.isArray(properties['properties'])).toBe(true);
    const report = await entry('report/index.js');
    for (const name of ['writeReports', 'buildRunReport', 'renderJson', 'renderJunit', 'renderMarkdown', 'renderHtml']) expect(typeof report[name], name).toBe('function');
  });

  it('exports a client that exports accounts from a simulator target', async () => {
    const lib: Record<string, unknown> = await import(pathToFileURL(`${root}dist/index.js`).href);
    const client: Record<string, unknown> = await import(pathToFileURL(`${root}dist/client/index.js`).href);
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
