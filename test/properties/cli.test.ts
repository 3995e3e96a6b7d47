/** `commerce-sim props`: output, replay, reports, exit codes. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { props, replayBase } from '../../src/cli/props.js';
import { captureIo } from '../support/cli-io.js';

async function cli(argv: readonly string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const { io, out, err } = captureIo({ cwd });
  const code = await props(argv, io);
  return { code, out: out(), err: err() };
}

/** The arguments of a printed `commerce-sim props ...` command (the test prints only plain and double-quoted words). */
const argsOf = (command: string): string[] => (command.match(/"[^"]*"|\S+/g) ?? []).slice(2).map((w) => w.replace(/^"(.*)"$/, '$1'));

describe('commerce-sim props', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'commerce-sim-props-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the seed first, a line per property, and writes the reports (exit 0)', async () => {
    const { code, out } = await cli(['--seed', '11', '--runs', '8'], dir);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('commerce-sim props: seed 11 (replay with --seed 11), target sim, 8 runs per property');
    for (const name of ['page-arithmetic', 'offset-limits', 'keyset', 'keyset-reads', 'sort-filter', 'page-length', 'create', 'robustness', 'model']) {
      expect(lines).toContain(`  PASS  ${name.padEnd(16)} 8 runs`);
    }
    // What the pass rests on: the properties judge part of the catalogue, the scenarios the rest.
    expect(out).toMatch(/PASS: \d+ of 34 documented rules judged, all hold; \d+ not covered \(\d+ judged by no property here/);
    const report: unknown = JSON.parse(await readFile(join(dir, 'reports', 'latest', 'report.json'), 'utf8'));
    expect(report).toMatchObject({ scenarios: [], options: { seed: 11, strict: false }, summary: { verdict: 'pass', cases: { pass: 9, fail: 0, skip: 0 } } });
    expect(await readFile(join(dir, 'reports', 'latest', 'junit.xml'), 'utf8')).toContain('keyset');
  });

  it('under GitHub Actions a property failure is annotated on the workflow file that ran it (a property has no file of its own)', async () => {
    const { io, out } = captureIo({ cwd: dir, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKFLOW_REF: 'acme/shop/.github/workflows/conformance.yml@refs/heads/main' } });
    expect(await props(['--deviate', 'filter.gt', '--grep', 'keyset', '--seed', '5', '--runs', '50', '--report', 'r'], io)).toBe(1);
    const errors = out()
      .split('\n')
      .filter((l) => l.startsWith('::error '));
    expect(errors.length).toBeGreaterThan(0);
    for (const line of errors) expect(line).toMatch(/^::error file=\.github\/workflows\/conformance\.yml,title=/);
  });

  it('prints a failure with its counterexample, rule and a replay command that reproduces it (exit 1)', async () => {
    const { code, out } = await cli(['--deviate', 'filter.gt', '--grep', 'keyset', '--seed', '5', '--runs', '50', '--report', 'r'], dir);
    expect(code).toBe(1);
    expect(out).toMatch(/ {2}FAIL {2}keyset {11}counterexample: \{"attribute":"id",/);
    expect(out).toMatch(/breaks filter\.gt \(documented, §4\.2\): GET \/v2\/accounts\?page\[limit\]=\d+&sort=id&filter=gt\(id,/);
    const replay = /replay: (.*)/.exec(out)?.[1] ?? '';
    expect(replay).toMatch(/^commerce-sim props --target sim --deviate filter.gt --runs 50 --seed 5 --path "[\d:]+" --grep keyset$/);

    const again = await cli([...argsOf(replay), '--report', 'r'], dir);
    expect(again.code).toBe(1);
    const failureLines = (text: string) => text.split('\n').filter((l) => /counterexample:|breaks |replay:/.test(l));
    expect(failureLines(again.out)).toEqual(failureLines(out));
    const json: unknown = JSON.parse(await readFile(join(dir, 'r', 'latest', 'report.json'), 'utf8'));
    expect(json).toMatchObject({ target: { deviate: 'filter.gt' }, properties: [{ name: 'keyset', status: 'fail', replay }] });
  });

  it('replays a failing command sequence of the model test from the printed path', async () => {
    const { code, out } = await cli(['--deviate', 'create.status.201', '--grep', 'model', '--seed', '9', '--report', 'r'], dir);
    expect(code).toBe(1);
    expect(out).toMatch(/breaks create\.status\.201 \(documented, §/);
    const replay = /replay: (.*)/.exec(out)?.[1] ?? '';
    expect(replay).toMatch(/--path "[\d:]+@[A-Za-z0-9+/:]*" --grep model$/);
    const again = await cli([...argsOf(replay), '--report', 'r'], dir);
    const failureLines = (text: string) => text.split('\n').filter((l) => /counterexample:|breaks |replay:/.test(l));
    expect(failureLines(again.out)).toEqual(failureLines(out));
  });

  it('gives byte-identical reports for the same seed, timing aside', async () => {
    const reportOf = async (name: string) => {
      expect((await cli(['--seed', '3', '--runs', '5', '--report', name], dir)).code).toBe(0);
      const { timing: _timing, ...rest } = JSON.parse(await readFile(join(dir, name, 'latest', 'report.json'), 'utf8')) as Record<string, unknown>;
      return JSON.stringify(rest);
    };
    expect(await reportOf('a')).toBe(await reportOf('b'));
  });

  it('prints report.json with --json', async () => {
    const { code, out } = await cli(['--seed', '3', '--runs', '3', '--grep', 'page-arithmetic', '--json'], dir);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ properties: [{ name: 'page-arithmetic', status: 'pass', seed: 3, numRuns: 3 }] });
  });

  it.each([
    [['--path', '1:2'], /--path replays one property/],
    [['--grep', 'nothing-like-this'], /no property matches/],
    [['--grep', 'keyset', '--path', 'abc'], /--path takes the path a failure printed/],
    [['--deviate', 'no.such.rule'], /no such deviation/],
    // An assumed rule has no deviation: once accepted and ignored, now refused.
    [['--deviate', 'pagination.limit.clamp'], /pagination\.limit\.clamp: the simulator has no such deviation/],
    [['--target', 'ftp://example.test'], /--target takes 'sim' or an http\(s\) URL/],
    [['--seed=-1'], /--seed takes a whole number/],
    [['--runs', '0'], /--runs takes a whole number/],
    [['--frobnicate'], /unknown option --frobnicate \(see commerce-sim props --help\)/],
  ])('refuses %j (exit 2)', async (argv, message) => {
    const { code, err } = await cli(argv, dir);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it('exits 2 when the target cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const address = s.address();
        s.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    const { code, out, err } = await cli(['--target', `http://127.0.0.1:${port}`, '--grep', 'page-arithmetic', '--seed', '1', '--runs', '3'], dir);
    expect(code).toBe(2);
    // The preflight read finds nothing listening: the run stops before any property starts.
    expect(out).not.toContain('PASS');
    expect(err).toMatch(/cannot reach .* \(TARGET_UNREACHABLE\)/);
  });
});

describe('replayBase', () => {
  it('repeats the target options and keeps secrets out', () => {
    const base = replayBase('https://api.example.test', {
      var: ['realm_id=r 1', 'admin_token=s3cret'],
      'token-env': 'EP_TOKEN',
      'allow-writes': true,
      runs: '20',
    });
    expect(base).toBe("commerce-sim props --target https://api.example.test --token-env EP_TOKEN --var 'realm_id=r 1' --var 'admin_token=<admin_token>' --allow-writes --runs 20");
    expect(base).not.toContain('s3cret');
  });

  it('keeps the simulator surface, so a replay reaches the same simulator', () => {
    expect(replayBase('sim', { surface: 'documented', deviate: ['filter.gt'] })).toBe('commerce-sim props --target sim --surface documented --deviate filter.gt');
  });
});
