/**
 * Annotations from an installed package (issue 27): the packed tarball installed into a fresh app, its CLI
 * run from that app as a workflow's workspace. The shipped scenarios live in node_modules/, which a pull
 * request never shows: their failures carry no file= and name the file in the message; a scenario of the
 * app's own is annotated at its file, relative to the workspace.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

let scratch = '';
let app = '';

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'commerce-sim-installed-'));
  app = join(scratch, 'app');
  mkdirSync(app);
  // dist/ is fresh (test/global-setup.ts); --ignore-scripts skips prepack's second build.
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], ROOT)) as { filename: string }[];
  const tarball = join(scratch, packed[0]?.filename ?? '');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true }));
  // The dependencies from the npm cache `npm ci` filled; the registry only when one is missing there.
  try {
    npm(['install', '--no-audit', '--no-fund', '--offline', tarball], app);
  } catch {
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
  }
}, 180_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The installed CLI, from the app, as a workflow step in that repository runs it. */
function installed(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_')));
  const r = spawnSync(process.execPath, [join(app, 'node_modules/commerce-sim/dist/cli/main.js'), ...args], {
    cwd: app,
    encoding: 'utf8',
    env: { ...env, GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: app },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const errors = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::error '));

describe('the installed package under GitHub Actions', () => {
  it("a failure in a shipped scenario: no file=node_modules/..., the file's path and line in the message", () => {
    const r = installed(['run', '--deviate', 'filter.gt', '--grep', 'filter', '--report', 'reports']);
    expect(r.code, r.stderr).toBe(1);
    expect(errors(r.stdout).length).toBeGreaterThan(0);
    expect(r.stdout).not.toContain('file=');
    for (const line of errors(r.stdout)) expect(line).toMatch(/^::error title=filter\.gt \(documented%2C [^)]+\)::node_modules\/commerce-sim\/scenarios\/[^:]+\.ya?ml:\d+: /);
  });

  it('a failure in a scenario of the workspace: file= relative to the workspace, and the line', () => {
    mkdirSync(join(app, 'conformance'), { recursive: true });
    cpSync(join(ROOT, 'scenarios', 'sort-filter', 'filter.yaml'), join(app, 'conformance', 'filter.yaml'));
    const r = installed(['run', 'conformance', '--deviate', 'filter.gt', '--report', 'reports']);
    expect(r.code, r.stderr).toBe(1);
    expect(errors(r.stdout).length).toBeGreaterThan(0);
    for (const line of errors(r.stdout)) expect(line).toMatch(/^::error file=conformance\/filter\.yaml,line=\d+,title=filter\.gt /);
  });
});
