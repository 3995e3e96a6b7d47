/**
 * An exit-2 failure under GitHub Actions (issue 27): besides its stderr line, a `::error title=commerce-sim::`
 * workflow command (escaped as GitHub requires) and a job-summary section saying what went wrong and what
 * to do; the same from every command, through the one printer (command.ts `failed`), and from the built CLI.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { failureAnnotation, failureSummary, reporterArgument } from '../../src/cli/failure.js';
import { commands } from '../../src/cli/registry.js';
import { captureIo } from '../support/cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MAIN = resolve(import.meta.dirname, '../../dist/cli/main.js');
const withoutGithub = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_')));

/** The built CLI, as a workflow step runs it: exit code, stdout, stderr. */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [MAIN, ...args], { cwd: dir, env: { ...withoutGithub, ...env } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe('the texts (pure)', () => {
  it('the annotation is one line, %, CR and LF escaped', () => {
    const line = failureAnnotation({ command: 'run', text: 'commerce-sim run: 100% gone\r\nnext line', code: 'CLI_USAGE' });
    expect(line).toBe('::error title=commerce-sim::commerce-sim run: 100%25 gone%0D%0Anext line');
  });

  it('the summary names what went wrong, the code, the message as printed and what to do', () => {
    const text = failureSummary({ command: 'run', text: 'commerce-sim run: http://127.0.0.1:1 ... (TARGET_UNREACHABLE)', code: 'TARGET_UNREACHABLE' });
    expect(text).toMatch(/^### commerce-sim run: ⛔ ERROR: the target did not answer \(`TARGET_UNREACHABLE`\)\n/);
    expect(text).toContain('```text\ncommerce-sim run: http://127.0.0.1:1 ... (TARGET_UNREACHABLE)\n```');
    expect(text).toMatch(/\*\*What to do:\*\* Check the target/);
  });

  it('a message holding a code fence cannot close its own block; a bug says so', () => {
    const text = failureSummary({ command: undefined, text: 'commerce-sim: ``` odd', code: undefined });
    expect(text).toContain('````text\ncommerce-sim: ``` odd\n````');
    expect(text).toContain('### commerce-sim: ⛔ ERROR: commerce-sim failed unexpectedly\n');
  });

  it.each([
    [['--target', 'sim'], undefined],
    [['--reporter', 'github'], 'github'],
    [['--reporter=summary'], 'summary'],
    [['--reporter', 'github', '--reporter', 'summary'], 'summary'],
    [['--', '--reporter', 'github'], undefined],
  ])('--reporter read from %j: %s', (argv, want) => {
    expect(reporterArgument(argv)).toBe(want);
  });
});

describe('every command, through the one printer', () => {
  it.each(Object.keys(commands))('%s: a usage error under GITHUB_ACTIONS is its line, an ::error line and a job-summary section', async (name) => {
    const summary = join(dir, `${name}-summary.md`);
    writeFileSync(summary, '');
    const command = await commands[name]?.load();
    const c = captureIo({ cwd: dir, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(await command?.(['--bogus'], c.io)).toBe(2);
    const line = `commerce-sim ${name}: unknown option --bogus (see commerce-sim ${name} --help)`;
    expect(c.err()).toBe(`${line}\n::error title=commerce-sim::${line}\n`);
    expect(c.out()).toBe('');
    expect(readFileSync(summary, 'utf8')).toContain(`### commerce-sim ${name}: ⛔ ERROR: the command line cannot run (\`CLI_USAGE\`)`);
  });

  it('outside GitHub Actions, the line alone; --reporter github asks for the annotation, --reporter summary declines it', async () => {
    const run = await commands['run']?.load();
    const plain = captureIo({ cwd: dir, env: {} });
    expect(await run?.(['--target', 'nope'], plain.io)).toBe(2);
    expect(plain.err()).not.toContain('::error');
    const asked = captureIo({ cwd: dir, env: {} });
    expect(await run?.(['--reporter', 'github', '--target', 'nope'], asked.io)).toBe(2);
    expect(asked.err()).toMatch(/^::error title=commerce-sim::commerce-sim run: /m);
    const declined = captureIo({ cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(await run?.(['--reporter', 'summary', '--target', 'nope'], declined.io)).toBe(2);
    expect(declined.err()).not.toContain('::error');
  });
});

describe('the built CLI under GitHub Actions', () => {
  it('run against a target that does not answer: exit 2, an ::error naming TARGET_UNREACHABLE, a job-summary section saying what to do', async () => {
    const summary = join(dir, 'unreachable.md');
    writeFileSync(summary, '');
    const r = await cli(['run', '--target', 'http://127.0.0.1:1', '--report', 'reports'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^::error title=commerce-sim::commerce-sim run: .*\(TARGET_UNREACHABLE\)$/m);
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain('### commerce-sim run: ⛔ ERROR: the target did not answer (`TARGET_UNREACHABLE`)');
    expect(text).toContain('**What to do:** Check the target');
  });

  it('an unknown command, and report merge of a directory without a report, are annotated too', async () => {
    const unknown = await cli(['frobnicate'], { GITHUB_ACTIONS: 'true' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "commerce-sim: unknown command 'frobnicate' (see commerce-sim --help)\n::error title=commerce-sim::commerce-sim: unknown command 'frobnicate' (see commerce-sim --help)\n",
    );
    const merge = await cli(['report', 'merge', join(dir, 'no-such-report')], { GITHUB_ACTIONS: 'true' });
    expect(merge.code).toBe(2);
    expect(merge.stderr).toMatch(/^::error title=commerce-sim::commerce-sim report: .*\(REPORT_UNREADABLE\)$/m);
  });
});
