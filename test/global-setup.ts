/**
 * Builds dist/ once, before any test file runs: the end-to-end tests start the CLI from dist/ and the
 * package tests import it, and no worker may read dist/ while another rebuilds it. It runs the same build
 * as `npm run build` (scripts/build.mjs: from clean, then the bin made executable), so the tests see what a
 * checkout's build gives.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function setup(): void {
  const root = resolve(import.meta.dirname, '..');
  execFileSync(process.execPath, [resolve(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
}
