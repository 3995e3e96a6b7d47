/**
 * Builds dist/ once, before any test file runs: the end-to-end tests start the CLI from dist/ and the
 * package tests import it, and no worker may read dist/ while another rebuilds it.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';

export default function setup(): void {
  const root = resolve(import.meta.dirname, '..');
  // From clean: files of a removed module (or source maps of an older config) must not linger in the package.
  rmSync(resolve(root, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
}
