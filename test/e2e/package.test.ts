/**
 * The published entry points (package.json `main` and `exports`) load from the built package and work
 * together: a user's first three lines. dist/ is built by test/global-setup.ts.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the package entry points (dist/)', () => {
  it('exports the simulator, targets and catalogue from the main entry, the runners and reporters from their own', async () => {
    const entry = async (path: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(`${root}dist/${path}`).href)) as Record<string, unknown>;
    const lib = await entry('index.js');
    for (const name of ['startSimulator', 'Simulator', 'listen', 'createSimTarget', 'createHttpTarget', 'ruleById', 'judgeRule', 'classifyRequest']) expect(typeof lib[name], name).toBe('function');
    expect(Array.isArray(lib['catalogue'])).toBe(true);
    // Loaded only by who asks: the main entry does not carry them.
    for (const name of ['loadScenarios', 'runScenarios', 'runProperties', 'writeReports']) expect(lib[name], name).toBeUndefined();
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
