/**
 * The packed package as a new user gets it (issue 11): `npm pack`, install the tarball into a fresh
 * directory (no install script may be needed), run every vitest example of the README and docs/ there with
 * vitest (a snippet pasted in two places runs once), and compile a consumer file against the published type
 * declarations.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf, docFiles, linksOf, readDoc, section } from '../support/docs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

let app = '';
let packDir = '';
let tarball = '';
let problem: string | undefined;

/** Every `ts` block of the documentation that is a whole vitest file of the package's user: it imports the package and declares a test. */
const examples = docFiles()
  .flatMap((file) => blocksOf(file))
  .filter((b) => b.lang === 'ts' && b.lines.some((l) => /from 'commerce-sim(\/\w+)?';$/.test(l)) && b.lines.some((l) => /^test\(/.test(l)))
  .map((b) => ({ file: b.file, text: `${b.lines.join('\n')}\n` }))
  .filter((b, i, all) => all.findIndex((o) => o.text === b.text) === i);

function runExample(text: string, name: string): string {
  writeFileSync(join(app, name), text);
  return execFileSync(process.execPath, [join(app, 'node_modules/vitest/vitest.mjs'), 'run', '--root', app, '--reporter', 'default', name], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', NO_COLOR: '1' },
  });
}

beforeAll(() => {
  packDir = mkdtempSync(join(tmpdir(), 'commerce-sim-pack-'));
  app = mkdtempSync(join(tmpdir(), 'commerce-sim-app-'));
  // dist/ is fresh (test/global-setup.ts); --ignore-scripts skips prepack's second build.
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], ROOT)) as { filename: string }[];
  tarball = join(packDir, packed[0]?.filename ?? '');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
  try {
    // Dependencies come from the npm cache `npm ci` filled; the registry only when something is missing.
    npm(['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], app);
  } catch (error) {
    problem = `npm install of the tarball failed: ${String((error as { stderr?: unknown }).stderr ?? error).slice(0, 500)}`;
  }
  // The app's test runner: this repository's vitest (vitest resolves its own dependencies from there).
  symlinkSync(join(ROOT, 'node_modules/vitest'), join(app, 'node_modules/vitest'), 'dir');
  // A Node app has Node's types; this repository's @types/node stands in for the app's own.
  symlinkSync(join(ROOT, 'node_modules/@types'), join(app, 'node_modules/@types'), 'dir');
}, 180_000);

afterAll(() => {
  rmSync(app, { recursive: true, force: true });
  rmSync(packDir, { recursive: true, force: true });
});

describe('the packed tarball in a fresh app', () => {
  it('ships no source maps, no install scripts, and the files the package names', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files).toContain('package/LICENSE');
    expect(files).toContain('package/dist/index.d.ts');
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts?.[hook], hook).toBeUndefined();
  });

  it('ships the README and docs/, and every relative link in them leads to a file the package has', () => {
    const files = new Set(
      execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, '')),
    );
    const docs = docFiles();
    expect(docs.filter((doc) => !files.has(doc))).toEqual([]);
    // A link to a file the package leaves out (src/, test/) would be dead on the registry's page and in node_modules.
    const dead = docs.flatMap((doc) =>
      linksOf(readDoc(doc))
        .filter(({ target }) => !/^[a-z][a-z+.-]*:/i.test(target) && !target.startsWith('#'))
        .map(({ line, target }) => ({ at: `${doc}:${line}: ${target}`, path: posix.normalize(posix.join(posix.dirname(doc), decodeURI(target.split('#')[0] ?? ''))) }))
        .filter(({ path }) => !files.has(path) && ![...files].some((f) => f.startsWith(`${path.replace(/\/$/, '')}/`)))
        .map(({ at }) => at),
    );
    expect(dead).toEqual([]);
  });

  it('ships the bin executable (npm pack keeps the mode the build set)', () => {
    // `tar -tv` lists the mode first: -rwxr-xr-x.
    const listing = execFileSync('tar', ['-tvzf', tarball, 'package/dist/cli/main.js'], { encoding: 'utf8' });
    expect(listing).toMatch(/^-rwxr-xr-x /);
  });

  it("finds the README's first job's example, short, and the traffic judge's, among them", () => {
    const first = blocksOf('README.md', section(readDoc('README.md'), '### 1. The offline simulator in your tests')).find((b) => b.lang === 'ts');
    const text = `${first?.lines.join('\n') ?? ''}\n`;
    expect(text).toContain("from 'commerce-sim'");
    expect(first?.lines.length).toBeLessThanOrEqual(12);
    expect(examples.map((e) => e.text)).toContain(text);
    expect(examples.filter((e) => e.text.includes("from 'commerce-sim/traffic'")).length).toBeGreaterThan(0);
  });

  for (const [i, example] of examples.entries()) {
    const imports = [...example.text.matchAll(/from '(commerce-sim(?:\/\w+)?)'/g)].map((m) => m[1]).join(', ');
    it(`runs the vitest example ${i + 1} of ${example.file} (${imports}) with vitest`, () => {
      if (problem !== undefined) throw new Error(problem);
      expect(runExample(example.text, `example-${i + 1}.test.ts`)).toMatch(/1 passed/);
    }, 120_000);
  }

  it('a consumer file type-checks against the published declarations', () => {
    if (problem !== undefined) throw new Error(problem);
    writeFileSync(
      join(app, 'consumer.ts'),
      [
        "import { startSimulator, KitError, ERROR_CODES, type StartSimulatorOptions, type StartedSimulator, type Scope, type Adversity, type DatasetProfile, type Snapshot, type KitErrorCode } from 'commerce-sim';",
        "import { exportAccounts } from 'commerce-sim/client';",
        "const options: StartSimulatorOptions = { accounts: 5, deviate: ['filter.gt'], surface: 'documented' };",
        '// @ts-expect-error -- deviate takes rule ids: a typo fails to compile',
        "export const typo: StartSimulatorOptions = { deviate: ['filter.gtt'] };",
        'const scope: Scope = "read-only";',
        "const profile: DatasetProfile = 'shared-timestamps';",
        'export async function use(a: Adversity, code: KitErrorCode): Promise<Snapshot> {',
        '  const sim: StartedSimulator = await startSimulator(options);',
        '  void [scope, profile, a, code, ERROR_CODES[code], exportAccounts, sim.ids.realm_id];',
        '  try { return await sim.snapshot(); } catch (e) { if (e instanceof KitError) throw new Error(e.code); throw e; } finally { await sim.close(); }',
        '}',
      ].join('\n'),
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, lib: ['ES2023', 'ESNext.Disposable'], types: ['node'] },
        files: ['consumer.ts'],
      }),
    );
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(app, 'tsconfig.json')], { cwd: app, encoding: 'utf8' });
    } catch (error) {
      throw new Error(`the consumer does not type-check:\n${String((error as { stdout?: unknown }).stdout)}`);
    }
  }, 120_000);

  it('a consumer on moduleResolution node10 (which ignores exports) resolves every subpath', () => {
    if (problem !== undefined) throw new Error(problem);
    // typesVersions is node10's map of the subpaths: it must name every one the exports name, to the same file.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { types: string }>; typesVersions: { '*': Record<string, string[]> } };
    const subpaths = Object.entries(pkg.exports).filter(([k]) => k !== '.');
    expect(Object.fromEntries(subpaths.map(([k, v]) => [k.slice(2), [v.types.slice(2)]]))).toEqual(pkg.typesVersions['*']);
    writeFileSync(
      join(app, 'consumer-node10.ts'),
      [
        "import { startSimulator } from 'commerce-sim';",
        "import { exportAccounts } from 'commerce-sim/client';",
        "import type { Scenario } from 'commerce-sim/scenarios';",
        "import type { RunReport } from 'commerce-sim/report';",
        "import type { PropertySuite } from 'commerce-sim/properties';",
        "import type { TrafficResult } from 'commerce-sim/traffic';",
        'export type Used = [typeof startSimulator, typeof exportAccounts, Scenario, RunReport, PropertySuite, TrafficResult];',
      ].join('\n'),
    );
    writeFileSync(
      join(app, 'tsconfig.node10.json'),
      JSON.stringify({
        compilerOptions: { module: 'CommonJS', moduleResolution: 'node10', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, lib: ['ES2023', 'ESNext.Disposable'], types: ['node'] },
        files: ['consumer-node10.ts'],
      }),
    );
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(app, 'tsconfig.node10.json')], { cwd: app, encoding: 'utf8' });
    } catch (error) {
      throw new Error(`the node10 consumer does not type-check:\n${String((error as { stdout?: unknown }).stdout)}`);
    }
  }, 120_000);
});
