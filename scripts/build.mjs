// The one build (npm run build, prepack, and test/global-setup.ts): dist/ from clean, the package's entries
// bundled into dist/bundle/, then the bins made executable. tsc writes files without the executable bit,
// so in a checkout `npx commerce-sim` (which runs the bin directly, through its #! line) failed with
// "Permission denied"; npm pack keeps the mode, so the tarball's bin is executable too.
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { build } from 'rolldown';

const root = resolve(import.meta.dirname, '..');
// From clean: files of a removed module (or source maps of an older config) must not linger in the package.
rmSync(resolve(root, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });

const { bin, exports } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));

// The package's entries (`exports`) as one bundle with shared chunks: a test file that imports the main
// entry loads a few files instead of 78 modules, which halves its cold start (Node's ESM loader pays per
// file); every entry shares the chunks, so a class is the same class through any entry. Built from the
// compiled files, which stay in dist/ for the bin, the bench and the declarations ("types").
// Every file sits two levels under the package root, as the compiled modules do, so the paths they take
// from import.meta.url (`../../schemas`) hold (the judging proxy's worker runs the file its module is in).
const input = {};
for (const entry of Object.values(exports)) {
  const name = /^\.\/dist\/bundle\/([\w-]+)\.js$/.exec(entry.default)?.[1];
  if (name === undefined) throw new Error(`package.json exports ${entry.default}: not dist/bundle/<name>.js`);
  input[name] = resolve(root, entry.types.replace(/\.d\.ts$/, '.js'));
}
await build({
  input,
  platform: 'node',
  // Packages stay the package's dependencies, loaded from node_modules as before.
  external: [/^node:/, /^[^./]/],
  logLevel: 'warn',
  output: { dir: resolve(root, 'dist/bundle'), format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
});

for (const file of Object.values(bin ?? {})) {
  const path = resolve(root, file);
  // Executable for whoever may read it (0644 → 0755), nothing else changed.
  chmodSync(path, statSync(path).mode | 0o111);
}
