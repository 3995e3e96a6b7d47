/**
 * What a CI log gets (issue 11): GitHub annotations at the scenario file and line, colour only where
 * wanted, and one uniform line for every usage error.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { commands } from '../../src/cli/registry.js';
import { colourWanted, styleFor } from '../../src/cli/style.js';
import { captureIo } from '../support/cli-io.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-ci-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--reporter github', () => {
  it('under GITHUB_ACTIONS a failing documented rule is an ::error at its scenario file and step line', async () => {
    // This checkout is the workspace: the shipped scenarios are files of the repository.
    const c = captureIo({ cwd: dir, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: ROOT } });
    expect(await run(['--deviate', 'filter.gt', '--report', 'reports'], c.io)).toBe(1);
    const errors = c
      .out()
      .split('\n')
      .filter((l) => l.startsWith('::error '));
    expect(errors.length).toBeGreaterThan(0);
    // Properties escape `,` and `:` (%2C, %3A): the title's comma is not a property separator.
    for (const line of errors) expect(line).toMatch(/^::error file=scenarios\/[^,]+\.ya?ml,line=\d+,title=[a-z0-9.-]+ \(documented%2C [^)]+\)::/);
    expect(errors.some((l) => l.includes('title=filter.gt '))).toBe(true);
    // One line per annotation: newlines in the message are escaped.
    expect(errors[0]).toContain('%0Aexpected: ');
  });

  it('a scenario file outside the workspace gets no file= (GitHub could not show it, or would show it on a file of the same name): its path and line go into the message', async () => {
    const workspace = mkdtempSync(join(dir, 'workspace-'));
    const c = captureIo({ cwd: workspace, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace } });
    expect(await run(['--deviate', 'filter.gt', '--grep', 'filter', '--report', 'reports'], c.io)).toBe(1);
    const errors = c
      .out()
      .split('\n')
      .filter((l) => l.startsWith('::error '));
    expect(errors.length).toBeGreaterThan(0);
    for (const line of errors) expect(line).toMatch(/^::error title=[a-z0-9.-]+ \(documented%2C [^)]+\)::scenarios\/[^:]+\.ya?ml:\d+: /);
  });

  it('a scenario file inside the workspace is annotated relative to the workspace, from any working directory', async () => {
    const workspace = mkdtempSync(join(dir, 'workspace-'));
    mkdirSync(join(workspace, 'app', 'conformance'), { recursive: true });
    cpSync(join(ROOT, 'scenarios', 'sort-filter', 'filter.yaml'), join(workspace, 'app', 'conformance', 'filter.yaml'));
    const c = captureIo({ cwd: join(workspace, 'app'), env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace } });
    expect(await run(['conformance', '--deviate', 'filter.gt', '--report', 'reports'], c.io)).toBe(1);
    expect(c.out()).toMatch(/^::error file=app\/conformance\/filter\.yaml,line=\d+,title=filter\.gt /m);
  });

  it('without it (and without --reporter github) there are no annotations; --reporter github asks for them', async () => {
    const plain = captureIo({ cwd: dir, env: {} });
    await run(['--deviate', 'filter.gt', '--report', 'reports'], plain.io);
    expect(plain.out()).not.toContain('::error');
    const asked = captureIo({ cwd: ROOT, env: {} });
    await run(['--deviate', 'filter.gt', '--report', join(dir, 'reports'), '--reporter', 'github', '--grep', 'filter'], asked.io);
    expect(asked.out()).toContain('::error file=scenarios/');
  });

  it('a passing run prints no annotation', async () => {
    const c = captureIo({ cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(await run(['--report', 'reports', '--grep', 'filter'], c.io)).toBe(0);
    expect(c.out()).not.toMatch(/^::(error|warning)/m);
  });
});

describe('colour', () => {
  it.each([
    [{ isTTY: true }, {}, true],
    [{ isTTY: false }, {}, false],
    [{ isTTY: true }, { NO_COLOR: '1' }, false],
    [{ isTTY: false }, { FORCE_COLOR: '1' }, true],
    [{ isTTY: true }, { FORCE_COLOR: '0' }, true],
    [{ isTTY: false }, { FORCE_COLOR: '0' }, false],
    [{ isTTY: true }, { TERM: 'dumb' }, false],
  ])('stream %j with env %j: colour %s', (stream, env, want) => {
    expect(colourWanted(stream, env)).toBe(want);
    expect(styleFor(stream, env).pass('x') !== 'x').toBe(want);
  });

  it('FORCE_COLOR paints the verdict; NO_COLOR leaves the summary plain', async () => {
    const forced = captureIo({ cwd: dir, env: { FORCE_COLOR: '1' } });
    await run(['--report', 'reports', '--grep', 'filter'], forced.io);
    expect(forced.out()).toContain('\x1b[32mPASS');
    const plain = captureIo({ cwd: dir, env: { NO_COLOR: '1', FORCE_COLOR: undefined } });
    await run(['--report', 'reports', '--grep', 'filter'], plain.io);
    expect(plain.out()).not.toContain('\x1b[');
  });
});

describe('usage errors', () => {
  const MAIN = resolve(import.meta.dirname, '../../dist/cli/main.js');
  // Outside GitHub Actions whatever runs these tests: under it, an error also prints its ::error line.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_')));
  const cli = (file: string, args: string[], options: { cwd: string }) => promisify(execFile)(file, args, { ...options, env });
  // Every command of the CLI's own registry, so a new one is covered without editing this list.
  it.each(Object.keys(commands))('commerce-sim %s --no-such-option: one line, where to look, exit 2', async (command) => {
    const result = await cli(process.execPath, [MAIN, command, '--no-such-option'], { cwd: dir }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`commerce-sim ${command}: unknown option --no-such-option (see commerce-sim ${command} --help)\n`);
  });

  it('an unknown command: one line and where to look, exit 2', async () => {
    const result = await cli(process.execPath, [MAIN, 'frobnicate'], { cwd: dir }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in result ? result.code : 0).toBe(2);
    expect(result.stderr).toBe("commerce-sim: unknown command 'frobnicate' (see commerce-sim --help)\n");
  });
});
