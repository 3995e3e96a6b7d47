// The GitHub Action's cache key (action.yml): a SHA-256 of everything its build reads, so a cached dist/ and
// node_modules/ serve exactly the sources they were built from. hashFiles() cannot do it: it sees only the
// workspace, and the Action's own folder lies outside. `node scripts/action-key.mjs [DIR]` prints the key.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** What the build (scripts/build.mjs: tsc over src/) and the install (npm ci) read. */
const INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs', 'src'];

function files(path) {
  if (!statSync(path).isDirectory()) return [path];
  const names = readdirSync(path).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.flatMap((name) => files(join(path, name)));
}

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const hash = createHash('sha256');
for (const input of INPUTS)
  for (const file of files(join(root, input))) {
    // The name too: a file moved is another build.
    hash.update(relative(root, file).split(sep).join('/')).update('\0').update(readFileSync(file)).update('\0');
  }
process.stdout.write(`${hash.digest('hex')}\n`);
