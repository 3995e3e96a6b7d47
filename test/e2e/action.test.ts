/**
 * The GitHub Action (action.yml, issues 20 and 27) run as a runner runs a composite action: each `run:`
 * step's script with its expressions filled in, `bash --noprofile --norc -eo pipefail`, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, RUNNER_TEMP, the workspace as working directory; then the action's outputs
 * resolved. A `uses:` step is not run: the runner checks it is a well-known action pinned to a commit,
 * evaluates its `if:` and records it (setup-node and cache do nothing here: this checkout is built and the
 * runner's node is this one). `npm` is a stand-in that only installs a version into its --prefix (a link
 * to this checkout), so the test never reaches the registry, and never builds or prunes this checkout.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'commerce-sim-action-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Step {
  readonly id?: string;
  readonly name?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly with?: Record<string, string>;
  readonly shell?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
  readonly 'working-directory'?: string;
}
interface Action {
  readonly inputs: Record<string, { default?: string }>;
  readonly outputs: Record<string, { value: string }>;
  readonly runs: { readonly using: string; readonly steps: readonly Step[] };
}
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;

/** The actions a step of ours may use, each pinned to a full commit (a tag can be moved). */
const WELL_KNOWN = /^actions\/(setup-node|cache)@[0-9a-f]{40}$/;

/** The stand-in `npm`: logs its arguments; `install --prefix DIR commerce-sim@V` links this checkout there; anything else fails. */
const FAKE_NPM = `#!/bin/sh
echo "$*" >> "$FAKE_NPM_LOG"
[ "$1" = install ] || { echo "fake npm: unexpected 'npm $*'" >&2; exit 97; }
prefix=""
while [ $# -gt 0 ]; do
  case "$1" in --prefix) prefix="$2"; shift ;; esac
  shift
done
[ -n "$prefix" ] || { echo "fake npm: no --prefix" >&2; exit 98; }
mkdir -p "$prefix/node_modules"
ln -s "$COMMERCE_SIM_CHECKOUT" "$prefix/node_modules/commerce-sim"
`;
const fakeBin = join(scratch, 'bin');

beforeAll(() => {
  // The install step builds only where dist/ is missing: here it is never missing (test/global-setup.ts).
  expect(existsSync(join(root, 'dist/cli/main.js'))).toBe(true);
  mkdirSync(fakeBin);
  writeFileSync(join(fakeBin, 'npm'), FAKE_NPM);
  chmodSync(join(fakeBin, 'npm'), 0o755);
});

interface Given {
  readonly inputs: Record<string, string>;
  /** The workspace to run in (a fresh one by default): a second run sees the first one's files. */
  readonly workspace?: string;
  /** The `env:` of the workflow step that uses the action. */
  readonly env?: Record<string, string>;
}

/** Runs the action in a workspace: exit code, output, outputs, job summary, the `uses:` steps that would run, npm's calls. */
function runAction(given: Given, name: string) {
  const workspace = given.workspace ?? mkdtempSync(join(scratch, `${name}-`));
  const temp = mkdtempSync(join(scratch, `${name}-runner-temp-`));
  const summary = join(temp, 'step-summary.md');
  const npmLog = join(temp, 'npm.log');
  writeFileSync(summary, '');
  writeFileSync(npmLog, '');
  for (const key of Object.keys(given.inputs)) expect(Object.keys(action.inputs), `input ${key}`).toContain(key);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given.inputs[k] ?? v.default ?? '']));
  const stepOutputs: Record<string, Record<string, string>> = {};
  const value = (expr: string): string => {
    if (expr === 'github.action_path') return root;
    if (expr === 'runner.temp') return temp;
    if (expr === 'runner.os') return 'Linux';
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input !== null && (input[1] ?? '') in inputs) return inputs[input[1] ?? ''] ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output !== null) return stepOutputs[output[1] ?? '']?.[output[2] ?? ''] ?? '';
    throw new Error(`expression the test runner does not know: ${expr}`);
  };
  const fill = (text: string): string => text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => value(expr));
  /** `if:` as the action writes it: an input compared with the empty string. */
  const condition = (text: string): boolean => {
    const match = /^\$\{\{\s*(inputs\.[\w-]+)\s*(==|!=)\s*''\s*\}\}$/.exec(text);
    if (match === null) throw new Error(`condition the test runner does not know: ${text}`);
    return (value(match[1] ?? '') === '') === (match[2] === '==');
  };
  let stdout = '';
  let stderr = '';
  let code = 0;
  const used: string[] = [];
  for (const [i, step] of action.runs.steps.entries()) {
    if (step.uses !== undefined) {
      expect(step.uses).toMatch(WELL_KNOWN);
      for (const v of Object.values(step.with ?? {})) fill(v);
      if (step.if === undefined || condition(step.if)) used.push(step.uses.slice(0, step.uses.indexOf('@')));
      continue;
    }
    // Our own steps always run: a condition would be a branch this runner does not take.
    expect(step.if, step.name).toBeUndefined();
    expect(step.shell).toBe('bash');
    const script = join(temp, `step-${i}.sh`);
    writeFileSync(script, fill(step.run ?? ''));
    const outputFile = join(temp, `output-${i}`);
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v)]));
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: step['working-directory'] === undefined ? workspace : fill(step['working-directory']),
      env: {
        PATH: `${fakeBin}:${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`,
        HOME: process.env['HOME'] ?? '',
        FAKE_NPM_LOG: npmLog,
        COMMERCE_SIM_CHECKOUT: root,
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: workspace,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summary,
        RUNNER_TEMP: temp,
        RUNNER_OS: 'Linux',
        ...given.env,
        ...env,
      },
      encoding: 'utf8',
    });
    stdout += result.stdout;
    stderr += result.stderr;
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
  const npm = readFileSync(npmLog, 'utf8').split('\n').filter(Boolean);
  return { code, stdout, stderr, outputs, summary: readFileSync(summary, 'utf8'), workspace, temp, used, npm };
}

const reportOf = (dir: string | undefined) =>
  JSON.parse(readFileSync(join(dir ?? '', 'report.json'), 'utf8')) as {
    options: { shard?: string; grep?: string };
    scenarios: { name: string; status: string }[];
    userChecks: { id: string; status: string }[];
  };

describe('action.yml', () => {
  it('is a composite action whose every input has a default and every output a step behind it', () => {
    expect(action.runs.using).toBe('composite');
    for (const [name, input] of Object.entries(action.inputs)) expect(input.default, name).toBeTypeOf('string');
    expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'report-dir', 'verdict']);
  });

  it('inputs reach scripts through env only: no ${{ }} inside a script', () => {
    for (const step of action.runs.steps) expect(step.run ?? '', step.name).not.toMatch(/\$\{\{/);
  });

  it('runs the suite on the embedded simulator: exit 0, verdict pass, the report directory, a job summary; no setup-node without node-version, the cached build without version', () => {
    const r = runAction({ inputs: { args: '--grep\nfilter' } }, 'pass');
    expect(r.code).toBe(0);
    expect(r.outputs['verdict']).toBe('pass');
    expect(r.outputs['exit-code']).toBe('0');
    expect(existsSync(join(r.outputs['report-dir'] ?? '', 'report.json'))).toBe(true);
    expect(r.outputs['report-dir']?.startsWith(join(r.workspace, 'reports'))).toBe(true);
    expect(r.summary).toContain('### commerce-sim run: ✅ PASS');
    expect(r.stdout).not.toContain('::error');
    expect(r.used).toEqual(['actions/cache']);
    expect(r.npm).toEqual([]);
  });

  it('a failing documented rule: exit 1, verdict fail, an ::error whose message names the shipped scenario file (outside the workspace: no file=)', () => {
    const r = runAction({ inputs: { args: '--deviate\nfilter.gt\n--grep\nfilter' } }, 'fail');
    expect(r.code).toBe(1);
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.stdout).toMatch(/^::error title=filter\.gt \(documented%2C [^)]+\)::scenarios\/[^:]+\.ya?ml:\d+: /m);
    expect(r.stdout).not.toContain('::error file=');
    expect(r.summary).toContain('| `filter.gt` | documented |');
  });

  it('an exit-2 run after an older report in the same report-dir: verdict error, an empty report-dir, an ::error and a job-summary section', () => {
    const first = runAction({ inputs: { args: '--grep\nfilter' } }, 'stale');
    expect(first.outputs['verdict']).toBe('pass');
    expect(existsSync(join(first.workspace, 'reports', 'latest', 'report.json'))).toBe(true);
    // The token variable a workflow fills from a secret this job was not given: empty.
    const empty = runAction({ workspace: first.workspace, inputs: { target: 'http://127.0.0.1:1', 'token-env': 'API_TOKEN' }, env: { API_TOKEN: '' } }, 'stale');
    expect(empty.code).toBe(2);
    expect(empty.outputs).toEqual({ 'report-dir': '', verdict: 'error', 'exit-code': '2' });
    expect(empty.stderr).toMatch(/^::error title=commerce-sim::commerce-sim run: --token-env API_TOKEN: the environment variable API_TOKEN is empty or not set/m);
    expect(empty.summary).toContain('### commerce-sim run: ⛔ ERROR: the command line cannot run (`CLI_USAGE`)');
    // A target that does not answer.
    const unreachable = runAction({ workspace: first.workspace, inputs: { target: 'http://127.0.0.1:1', 'token-env': 'API_TOKEN' }, env: { API_TOKEN: 'a-token' } }, 'stale');
    expect(unreachable.outputs).toEqual({ 'report-dir': '', verdict: 'error', 'exit-code': '2' });
    expect(unreachable.stderr).toMatch(/^::error title=commerce-sim::commerce-sim run: .*\(TARGET_UNREACHABLE\)$/m);
    expect(unreachable.summary).toContain('ERROR: the target did not answer (`TARGET_UNREACHABLE`)');
    expect(unreachable.summary).toContain('**What to do:** Check the target');
  });

  it('args: one argument per line, a multi-word value on its own line, taken as written; several on one line are refused, saying why', () => {
    const r = runAction({ inputs: { args: '  --grep  \nkeyset walk\n\n' } }, 'lines');
    expect(r.code).toBe(0);
    const report = reportOf(r.outputs['report-dir']);
    expect(report.options.grep).toBe('keyset walk');
    expect(report.scenarios.length).toBeGreaterThan(0);
    expect(report.scenarios.every((s) => s.name.includes('keyset walk'))).toBe(true);
    const old = runAction({ inputs: { args: '--grep keyset walk' } }, 'one-line');
    expect(old.code).toBe(2);
    expect(old.outputs['verdict']).toBe('error');
    expect(old.stdout).toContain("::error title=commerce-sim::args takes one argument per line: put '--grep keyset walk' on separate lines (or write --option=value)");
    const joined = runAction({ inputs: { args: '--grep=keyset walk' } }, 'joined');
    expect(reportOf(joined.outputs['report-dir']).options.grep).toBe('keyset walk');
  });

  it('vars and config reach the CLI; working-directory is where it runs; a scenario of the workspace is annotated at its file, relative to the workspace', () => {
    const workspace = mkdtempSync(join(scratch, 'vars-'));
    mkdirSync(join(workspace, 'app', 'conformance'), { recursive: true });
    writeFileSync(join(workspace, 'app', 'commerce-sim.ci.yaml'), 'vars:\n  from_config: "3"\n');
    const check = (rule: string, limit: string, length: number) =>
      `  - name: ${rule}\n    request:\n      method: GET\n      path: /v2/accounts\n      query:\n        page[limit]: "${limit}"\n    expect:\n      rule: user.${rule}\n      json:\n        - path: $.data\n          length: ${length}\n`;
    writeFileSync(
      join(workspace, 'app', 'conformance', 'mine.yaml'),
      `name: "mine: pages of the sizes the workflow gives"\nsteps:\n${check('from-vars', '${{ vars.from_vars }}', 2)}${check('from-config', '${{ vars.from_config }}', 3)}${check('wrong', '${{ vars.from_vars }}', 5)}`,
    );
    const r = runAction({ workspace, inputs: { 'working-directory': 'app', config: 'commerce-sim.ci.yaml', vars: 'from_vars=2\n', args: 'conformance' } }, 'vars');
    expect(r.code, r.stderr).toBe(1);
    expect(r.outputs['report-dir']?.startsWith(join(workspace, 'app', 'reports'))).toBe(true);
    const report = reportOf(r.outputs['report-dir']);
    expect(report.userChecks.map((c) => [c.id, c.status])).toEqual([
      ['user.from-vars', 'pass'],
      ['user.from-config', 'pass'],
      ['user.wrong', 'fail'],
    ]);
    expect(r.stdout).toMatch(/^::error file=app\/conformance\/mine\.yaml,line=\d+,title=user\.wrong::/m);
  });

  it('a sharded run (two shards through the action) and a merge step give one report of every case', () => {
    const workspace = mkdtempSync(join(scratch, 'shards-'));
    const shards = ['1/2', '2/2'].map((shard, i) => runAction({ workspace, inputs: { shard, args: '--grep\nfilter', 'report-dir': `shard-${i + 1}` } }, 'shards'));
    for (const [i, s] of shards.entries()) {
      expect(s.code, s.stderr).toBe(0);
      expect(reportOf(s.outputs['report-dir']).options.shard).toBe(`${i + 1}/2`);
    }
    const cases = shards.flatMap((s) => reportOf(s.outputs['report-dir']).scenarios.map((c) => c.name));
    expect(shards.every((s) => reportOf(s.outputs['report-dir']).scenarios.length > 0)).toBe(true);
    // As the recipe's merge job has them: the shards' report directories, downloaded side by side.
    const merged = runAction({ workspace, inputs: { command: 'merge', args: 'shard-1\nshard-2\n', 'report-dir': 'merged' } }, 'shards');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.outputs['verdict']).toBe('pass');
    expect(merged.outputs['report-dir']?.startsWith(join(workspace, 'merged'))).toBe(true);
    expect(
      reportOf(merged.outputs['report-dir'])
        .scenarios.map((c) => c.name)
        .sort(),
    ).toEqual([...cases].sort());
    expect(merged.summary).toContain('### commerce-sim report merge: ✅ PASS');
    const whole = runAction({ inputs: { args: '--grep\nfilter' } }, 'whole');
    expect(reportOf(whole.outputs['report-dir']).scenarios.length).toBe(cases.length);
  });

  it('a bad command or version is an annotated error with verdict error; shard and vars do not apply to merge', () => {
    const bad = runAction({ inputs: { command: 'deploy' } }, 'bad');
    expect(bad.code).toBe(2);
    expect(bad.outputs['verdict']).toBe('error');
    expect(bad.stdout).toContain("::error title=commerce-sim::the command input must be run, props or merge, got 'deploy'");
    expect(bad.summary).toContain('an input the action cannot use');
    const merge = runAction({ inputs: { command: 'merge', shard: '1/2', args: 'shard-1' } }, 'bad');
    expect(merge.outputs['verdict']).toBe('error');
    expect(merge.stdout).toContain('::error title=commerce-sim::token-env, shard, config and vars apply to run and props, not merge');
    const version = runAction({ inputs: { version: '../../etc' } }, 'bad');
    expect(version.code).toBe(2);
    expect(version.stdout).toContain('::error title=commerce-sim::the version input must be a version or a dist-tag');
    expect(version.npm).toEqual([]);
  });

  it('version installs that package from the registry into RUNNER_TEMP and runs it there, without the cached build; node-version sets up node', () => {
    const r = runAction({ inputs: { version: '1.2.3', 'node-version': '22', args: '--grep\nfilter' } }, 'version');
    expect(r.code, r.stderr).toBe(0);
    const prefix = join(r.temp, 'commerce-sim-1.2.3');
    expect(r.npm).toEqual([`install --prefix ${prefix} --no-save --no-package-lock --no-audit --no-fund commerce-sim@1.2.3`]);
    expect(existsSync(join(prefix, 'node_modules/commerce-sim/dist/cli/main.js'))).toBe(true);
    expect(r.outputs['verdict']).toBe('pass');
    expect(r.used).toEqual(['actions/setup-node']);
  });

  it('an input is data, never shell: command substitution in args runs nothing', () => {
    const r = runAction({ inputs: { args: '--grep\n$(touch${IFS}pwned)', vars: 'x=$(touch${IFS}pwned2)' } }, 'inject');
    expect(existsSync(join(r.workspace, 'pwned'))).toBe(false);
    expect(existsSync(join(r.workspace, 'pwned2'))).toBe(false);
  });

  it("the build's cache key changes with the sources the build reads, and only with them", () => {
    const copy = mkdtempSync(join(scratch, 'key-'));
    for (const path of ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs', 'src']) cpSync(join(root, path), join(copy, path), { recursive: true });
    const key = () => spawnSync(process.execPath, [join(root, 'scripts/action-key.mjs'), copy], { encoding: 'utf8' }).stdout.trim();
    const before = key();
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(copy, 'README.md'), 'not read by the build');
    expect(key()).toBe(before);
    writeFileSync(join(copy, 'src', 'index.ts'), `${readFileSync(join(copy, 'src', 'index.ts'), 'utf8')}\n// changed\n`);
    expect(key()).not.toBe(before);
  });
});
