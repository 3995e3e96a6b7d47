// The one build (npm run build, prepack, and test/global-setup.ts): dist/ from clean, then the bins made
// executable. tsc writes files without the executable bit, so in a checkout `npx commerce-sim` (which runs
// the bin directly, through its #! line) failed with "Permission denied"; npm pack keeps the mode, so the
// tarball's bin is executable too.
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
// From clean: files of a removed module (or source maps of an older config) must not linger in the package.
rmSync(resolve(root, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });

const { bin } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
for (const file of Object.values(bin ?? {})) {
  const path = resolve(root, file);
  // Executable for whoever may read it (0644 → 0755), nothing else changed.
  chmodSync(path, statSync(path).mode | 0o111);
}
