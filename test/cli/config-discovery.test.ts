/**
 * Config discovery (issue 20): without --config, the nearest commerce-sim.config.yaml (.yml, .json) from
 * the working directory up is read by every command that talks to a target; flags win; a bad key is a
 * one-line usage error naming the file and the key.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/cli/export.js';
import { run } from '../../src/cli/run.js';
import { findConfig } from '../../src/cli/targets.js';
import { captureIo } from '../support/cli-io.js';

const root = mkdtempSync(join(tmpdir(), 'commerce-sim-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project directory with a config at its top and a working directory two levels down. */
function project(name: string, file: string, text: string): string {
  const top = join(root, name);
  const cwd = join(top, 'packages', 'app');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(top, file), text);
  return cwd;
}

describe('config discovery', () => {
  it('finds the nearest file up from the working directory, and none where there is none', async () => {
    const cwd = project('find', 'commerce-sim.config.yaml', 'vars: {}\n');
    expect(await findConfig(cwd)).toBe(join(root, 'find', 'commerce-sim.config.yaml'));
    const bare = join(root, 'bare');
    mkdirSync(bare);
    expect(await findConfig(bare)).toBeUndefined();
  });

  it('run reads a found config (its base_url is the target); a flag wins over it', async () => {
    const cwd = project('target', 'commerce-sim.config.yaml', 'base_url: http://127.0.0.1:9\n');
    const fromFile = captureIo({ cwd });
    expect(await run(['--grep', 'filter', '--report', 'r'], fromFile.io)).toBe(2);
    expect(fromFile.err()).toContain('127.0.0.1:9');
    const flag = captureIo({ cwd });
    expect(await run(['--target', 'sim', '--grep', 'filter', '--report', 'r'], flag.io)).toBe(0);
  });

  it('export reads it too, and a .json config is found like a YAML one', async () => {
    const cwd = project('export', 'commerce-sim.config.json', '{"base_url": "http://127.0.0.1:9"}');
    const c = captureIo({ cwd });
    expect(await exportCommand(['accounts', '--retries', '0'], c.io)).toBe(2);
    // The embedded simulator would have answered: the found file named the unreachable URL.
    expect(c.err()).toContain('TARGET_UNREACHABLE');
  });

  it('a bad key: one line naming the file and the key, exit 2', async () => {
    const cwd = project('bad', 'commerce-sim.config.yaml', 'base_url: http://127.0.0.1:9\ntokn_env: X\n');
    const c = captureIo({ cwd });
    expect(await run(['--grep', 'filter'], c.io)).toBe(2);
    const first = c.err().split('\n')[0] ?? '';
    expect(first).toContain(join(root, 'bad', 'commerce-sim.config.yaml'));
    expect(first).toContain("'tokn_env'");
  });

  it('--config names another file and the found one is not read', async () => {
    const cwd = project('explicit', 'commerce-sim.config.yaml', 'nonsense: true\n');
    writeFileSync(join(cwd, 'ci.yaml'), 'vars: {}\n');
    const c = captureIo({ cwd });
    expect(await run(['--config', 'ci.yaml', '--grep', 'filter', '--report', 'r'], c.io)).toBe(0);
  });
});
