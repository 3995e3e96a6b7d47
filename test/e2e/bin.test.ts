/**
 * The bin runs as a newcomer runs it (issue 20): after the build in a checkout, `npx commerce-sim` executes
 * dist/cli/main.js directly through its #! line, which needs the executable bit (tsc writes files without it;
 * scripts/build.mjs sets it). dist/ is built by test/global-setup.ts with that same script.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
const MAIN = resolve(ROOT, manifest.bin['commerce-sim'] ?? '');

describe('the built bin', () => {
  it('is executable by its owner, group and others', () => {
    expect(statSync(MAIN).mode & 0o111).toBe(0o111);
  });

  it('runs directly, through its #! line', () => {
    expect(execFileSync(MAIN, ['--version'], { cwd: ROOT, encoding: 'utf8' })).toBe(`commerce-sim ${manifest.version}\n`);
  });

  it('runs as `npx commerce-sim` in the checkout', () => {
    const out = execFileSync('npx', ['--offline', '--no-install', 'commerce-sim', '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    expect(out).toBe(`commerce-sim ${manifest.version}\n`);
  });
});
