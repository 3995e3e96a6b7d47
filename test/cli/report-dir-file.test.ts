/**
 * COMMERCE_SIM_REPORT_DIR_FILE (issue 27): a command that wrote a report says which directory in that file,
 * so a caller (the GitHub Action) never takes an older run's `latest` for this run's report.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/registry.js';
import { captureIo } from '../support/cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-report-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(name: string, argv: readonly string[], told: string): Promise<number> {
  const command = await commands[name]?.load();
  if (command === undefined) throw new Error(`no command ${name}`);
  return command(argv, captureIo({ cwd: dir, env: { COMMERCE_SIM_REPORT_DIR_FILE: told } }).io);
}

describe('COMMERCE_SIM_REPORT_DIR_FILE', () => {
  it('run, then report merge, each write the directory of the report they wrote', async () => {
    const told = join(dir, 'told-run');
    expect(await call('run', ['--grep', 'filter', '--report', 'shard-reports'], told)).toBe(0);
    const written = readFileSync(told, 'utf8').trim();
    expect(written.startsWith(join(dir, 'shard-reports'))).toBe(true);
    expect(existsSync(join(written, 'report.json'))).toBe(true);
    expect(await call('report', ['merge', written, '--out', 'merged'], told)).toBe(0);
    expect(readFileSync(told, 'utf8').trim()).toMatch(new RegExp(`^${join(dir, 'merged')}/.+-merged$`));
  });

  it('an error before any report leaves the file as it was: the older report in the directory is not this run’s', async () => {
    expect(await call('run', ['--grep', 'filter', '--report', 'again'], join(dir, 'first'))).toBe(0);
    const told = join(dir, 'told-error');
    writeFileSync(told, '');
    expect(await call('run', ['--target', 'http://127.0.0.1:1', '--token-env', 'NO_SUCH_TOKEN_VARIABLE', '--report', 'again'], told)).toBe(2);
    expect(readFileSync(told, 'utf8')).toBe('');
  });
});
