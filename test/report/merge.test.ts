/**
 * CI at scale (issue 20): the reports of a sharded run merged into one whose verdicts equal an unsharded
 * run of the same seed, and a job summary under GitHub Actions.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { report } from '../../src/cli/report.js';
import { props } from '../../src/cli/props.js';
import { run } from '../../src/cli/run.js';
import type { RunReport } from '../../src/report/model.js';
import { captureIo } from '../support/cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string): RunReport => JSON.parse(readFileSync(join(dir, path, 'latest', 'report.json'), 'utf8')) as RunReport;
/**
 * What a merge must reproduce: the verdicts. The exchanges differ (a shard's simulator has not seen the
 * other shards' writes, so its clock and ids are elsewhere), as they would between two sharded runs.
 */
const verdicts = (r: RunReport) => {
  const { shard: _shard, ...options } = r.options;
  return {
    target: r.target,
    options,
    summary: r.summary,
    rules: r.rules,
    scenarios: r.scenarios.map((s) => ({
      name: s.name,
      file: s.file,
      status: s.status,
      steps: s.steps.map((step) => ({ name: step.name, status: step.status, verdicts: step.verdicts.map((v) => [v.ruleId, v.outcome.status]) })),
    })),
  };
};

async function shards(args: readonly string[], name: string): Promise<string[]> {
  const dirs: string[] = [];
  for (let i = 1; i <= 4; i++) {
    const c = captureIo({ cwd: dir });
    await run([...args, '--shard', `${i}/4`, '--report', `${name}-${i}`], c.io);
    dirs.push(`${name}-${i}`);
  }
  return dirs;
}

describe('report merge', () => {
  it('four shards merged give the report of one unsharded run with the same seed', async () => {
    const whole = captureIo({ cwd: dir });
    expect(await run(['--sim-seed', '7', '--report', 'whole'], whole.io)).toBe(0);
    const parts = await shards(['--sim-seed', '7'], 'part');
    // Each shard judged a part of the suite: none alone covers every rule the whole run covers.
    for (const p of parts) expect(read(p).scenarios.length).toBeLessThan(read('whole').scenarios.length);
    const c = captureIo({ cwd: dir });
    expect(await report(['merge', ...parts, '--out', 'merged'], c.io)).toBe(0);
    expect(c.out()).toContain('PASS: all 34 documented rules judged, all hold');
    const merged = read('merged');
    expect(verdicts(merged)).toEqual(verdicts(read('whole')));
    expect(merged.timing.requests).toBe(parts.reduce((n, p) => n + read(p).timing.requests, 0));
    for (const file of ['junit.xml', 'report.md', 'report.html', 'readings.json']) expect(readFileSync(join(dir, 'merged', 'latest', file), 'utf8').length).toBeGreaterThan(0);
    // The readings the shards saw together are the ones the whole run saw (each shard saw part of them).
    const observed = (r: RunReport) => (r.readings ?? []).filter((p) => p.status === 'observed').map((p) => [p.name, p.value]);
    expect(observed(merged)).toEqual(observed(read('whole')));
    for (const p of parts) expect(observed(read(p)).length).toBeLessThan(observed(merged).length);
  });

  it('joins a run and a props of one configuration: the run’s selection, the props’ fast-check seed, one verdict', async () => {
    const r = captureIo({ cwd: dir });
    expect(await run(['--sim-seed', '5', '--grep', 'pagination', '--report', 'joined-run'], r.io)).toBe(0);
    const p = captureIo({ cwd: dir });
    expect(await props(['--sim-seed', '5', '--seed', '9', '--runs', '3', '--grep', 'page-arithmetic', '--report', 'joined-props'], p.io)).toBe(0);
    const c = captureIo({ cwd: dir });
    expect(await report(['merge', 'joined-run', 'joined-props', '--out', 'joined'], c.io), c.err()).toBe(0);
    const merged = read('joined');
    expect(merged.scenarios.length).toBe(read('joined-run').scenarios.length);
    expect(merged.properties.map((x) => x.name)).toEqual(['page-arithmetic']);
    expect(merged.options).toMatchObject({ simSeed: 5, seed: 9, grep: 'pagination' });
    // A different data seed is not one configuration: refused, naming the member.
    const other = captureIo({ cwd: dir });
    expect(await props(['--sim-seed', '6', '--seed', '9', '--runs', '3', '--grep', 'page-arithmetic', '--report', 'other-props'], other.io)).toBe(0);
    const refused = captureIo({ cwd: dir });
    expect(await report(['merge', 'joined-run', 'other-props'], refused.io)).toBe(2);
    expect(refused.err()).toContain('their options.simSeed differ (5 and 6)');
  });

  it('run takes the simulator’s data seed as --sim-seed; --seed (fast-check’s, in props) is a usage error naming it', async () => {
    const c = captureIo({ cwd: dir });
    expect(await run(['--seed', '7'], c.io)).toBe(2);
    expect(c.err()).toContain("give the simulator's data seed as --sim-seed 7");
  });

  it('a failing shard fails the merge with the same failing rules as the whole run, exit 1', async () => {
    const whole = captureIo({ cwd: dir });
    expect(await run(['--deviate', 'filter.gt', '--report', 'whole-bad'], whole.io)).toBe(1);
    const parts = await shards(['--deviate', 'filter.gt'], 'bad');
    const c = captureIo({ cwd: dir });
    expect(await report(['merge', ...parts, '--out', 'merged-bad'], c.io)).toBe(1);
    const failing = (r: RunReport) => r.rules.filter((x) => x.status === 'fail').map((x) => x.id);
    expect(failing(read('merged-bad'))).toEqual(failing(read('whole-bad')));
    expect(failing(read('merged-bad'))).toContain('filter.gt');
    // The merge prints the failing rules as run does: the cause, and the knock-ons named after it.
    const listed = (out: string) => out.split('\n').filter((l) => l.startsWith('  failed: '));
    expect(listed(c.out())).toEqual(listed(whole.out()));
    expect(c.out()).toContain('  failed: filter.gt (documented');
  });

  it('refuses reports of different runs, a case judged twice, a shard missing, and a directory without a report (exit 2, one line)', async () => {
    const parts = await shards(['--sim-seed', '7'], 'again');
    const other = captureIo({ cwd: dir });
    await run(['--sim-seed', '8', '--shard', '2/4', '--report', 'seed8'], other.io);
    const mismatch = captureIo({ cwd: dir });
    expect(await report(['merge', parts[0] ?? '', 'seed8'], mismatch.io)).toBe(2);
    // The refusal names the member that differs, and both values.
    expect(mismatch.err()).toMatch(/not reports of one run: their options\.simSeed differ \(7 and 8\) \(REPORT_MERGE_MISMATCH\)/);
    const twice = captureIo({ cwd: dir });
    expect(await report(['merge', parts[0] ?? '', parts[0] ?? ''], twice.io)).toBe(2);
    expect(twice.err()).toContain('would count it twice');
    // A shard whose job failed uploaded nothing: the merge says which, rather than a verdict over three quarters.
    const partial = captureIo({ cwd: dir });
    expect(await report(['merge', parts[0] ?? '', parts[1] ?? '', parts[3] ?? ''], partial.io)).toBe(2);
    expect(partial.err()).toContain('shard 3/4 is missing: a merged verdict would not cover its cases');
    const missing = captureIo({ cwd: dir });
    expect(await report(['merge', 'nowhere'], missing.io)).toBe(2);
    expect(missing.err()).toContain('REPORT_UNREADABLE');
    const bad = captureIo({ cwd: dir });
    expect(await report(['split', 'x'], bad.io)).toBe(2);
  });
});

describe('$GITHUB_STEP_SUMMARY', () => {
  it('run appends its verdict, counts and failing rules as Markdown; nothing without the variable', async () => {
    const file = join(dir, 'summary.md');
    writeFileSync(file, '# earlier step\n');
    const c = captureIo({ cwd: dir, env: { GITHUB_STEP_SUMMARY: file } });
    expect(await run(['--deviate', 'filter.gt', '--grep', 'filter', '--report', 'summary-run'], c.io)).toBe(1);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# earlier step\n')).toBe(true);
    expect(text).toMatch(/### commerce-sim run: ❌ FAIL: \d+ documented rules? failed/);
    expect(text).toContain('| `filter.gt` | documented |');
    expect(text).toMatch(/\| documented \| \d+ \| [1-9]\d* \|/);
    const plain = captureIo({ cwd: dir, env: {} });
    await run(['--grep', 'filter', '--report', 'summary-run'], plain.io);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
