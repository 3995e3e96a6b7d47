/**
 * The GitHub Action (action.yml, issue 20) run as a runner runs a composite action: each step's script
 * with its expressions filled in, `bash --noprofile --norc -eo pipefail`, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, the workspace as working directory; then the action's outputs resolved.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'commerce-sim-action-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Step {
  readonly id?: string;
  readonly shell: string;
  readonly run: string;
  readonly env?: Record<string, string>;
  readonly 'working-directory'?: string;
}
interface Action {
  readonly inputs: Record<string, { default?: string }>;
  readonly outputs: Record<string, { value: string }>;
  readonly runs: { readonly using: string; readonly steps: readonly Step[] };
}
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;

/** Runs the action with `given` inputs in a fresh workspace: exit code, output, outputs, job summary. */
function runAction(given: Record<string, string>, name: string) {
  const workspace = mkdtempSync(join(scratch, `${name}-`));
  const summary = join(workspace, 'step-summary.md');
  writeFileSync(summary, '');
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
  const stepOutputs: Record<string, Record<string, string>> = {};
  const fill = (text: string): string =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      if (expr === 'github.action_path') return root;
      const input = /^inputs\.([\w-]+)$/.exec(expr);
      if (input !== null) return inputs[input[1] ?? ''] ?? '';
      const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
      if (output !== null) return stepOutputs[output[1] ?? '']?.[output[2] ?? ''] ?? '';
      throw new Error(`expression the test runner does not know: ${expr}`);
    });
  let stdout = '';
  let code = 0;
  for (const [i, step] of action.runs.steps.entries()) {
    expect(step.shell).toBe('bash');
    const script = join(workspace, `step-${i}.sh`);
    writeFileSync(script, fill(step.run));
    const outputFile = join(workspace, `output-${i}`);
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v)]));
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: step['working-directory'] === undefined ? workspace : fill(step['working-directory']),
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summary, ...env },
      encoding: 'utf8',
    });
    stdout += result.stdout;
    if (step.id !== undefined)
      stepOutputs[step.id] = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    code = result.status ?? -1;
    if (code !== 0) break;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, fill(v.value)]));
  return { code, stdout, outputs, summary: readFileSync(summary, 'utf8'), workspace };
}

describe('action.yml', () => {
  it('is a composite action whose every input has a default and every output a step behind it', () => {
    expect(action.runs.using).toBe('composite');
    for (const [name, input] of Object.entries(action.inputs)) expect(input.default, name).toBeTypeOf('string');
    expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'report-dir', 'verdict']);
  });

  it('runs the suite on the embedded simulator: exit 0, verdict pass, the report directory, a job summary', () => {
    const r = runAction({ args: '--grep filter' }, 'pass');
    expect(r.code).toBe(0);
    expect(r.outputs['verdict']).toBe('pass');
    expect(r.outputs['exit-code']).toBe('0');
    expect(existsSync(join(r.outputs['report-dir'] ?? '', 'report.json'))).toBe(true);
    expect(r.outputs['report-dir']?.startsWith(r.workspace)).toBe(true);
    expect(r.summary).toContain('### commerce-sim run: ✅ PASS');
    expect(r.stdout).not.toContain('::error');
  });

  it('a failing documented rule: exit 1, verdict fail, an ::error annotation at the scenario file', () => {
    const r = runAction({ args: '--deviate filter.gt --grep filter' }, 'fail');
    expect(r.code).toBe(1);
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.stdout).toMatch(/^::error file=[^,]*scenarios\/[^,]+\.ya?ml,line=\d+,title=filter\.gt /m);
    expect(r.summary).toContain('| `filter.gt` | documented |');
  });

  it('a shard runs part of the suite; a bad command is an annotated error with verdict error', () => {
    const shard = runAction({ shard: '1/2' }, 'shard');
    expect(shard.code).toBe(0);
    const report = JSON.parse(readFileSync(join(shard.outputs['report-dir'] ?? '', 'report.json'), 'utf8')) as { options: { shard?: string } };
    expect(report.options.shard).toBe('1/2');
    const bad = runAction({ command: 'deploy' }, 'bad');
    expect(bad.code).toBe(2);
    expect(bad.outputs['verdict']).toBe('error');
    expect(bad.stdout).toContain("::error title=commerce-sim::the command input must be run or props, got 'deploy'");
  });

  it('an input is data, never shell: command substitution in args runs nothing', () => {
    const r = runAction({ args: '--grep $(touch${IFS}pwned)' }, 'inject');
    expect(existsSync(join(r.workspace, 'pwned'))).toBe(false);
  });
});
