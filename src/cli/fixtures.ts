/**
 * `commerce-sim fixtures [--out fixtures/] [--sim-seed 42] [--check]`: writes the byte-stable fixtures,
 * or (with --check, for CI) compares them with what is on disk and lists the stale files.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { generateFixtures } from '../recordings/generate.js';
import { INDEX_FILE, type FixtureFile } from '../recordings/format.js';
import { isObject } from '../rules/inspect.js';
import { defineCommand, type DefinedCommand, type Values } from './command.js';
import { EXIT_OK, EXIT_RULE_FAILED, type CliIo } from './io.js';
import { MAX_SEED } from '../limits.js';
import { wholeOption } from '../numbers.js';
import { DEFAULT_SEED } from '../sim/options.js';
import { OLD_SEED_OPTION, refuseOldSeed, SIM_OPTIONS } from './sim-options.js';

const USAGE = `usage: commerce-sim fixtures [--out DIR] [--sim-seed N] [--check]

Writes one JSON file per documented case plus index.json, byte-identical for the same seed. Each case
plays on a simulator of its own, set up for it: the data seed is the one simulator option it takes.
  --out DIR       output directory (default fixtures/)
  --sim-seed N    the simulator's data seed (default 42), as in every command that starts a simulator
  --seed          refused: the data seed is --sim-seed
  --check         compare with DIR instead of writing; exit 1 listing stale files
  -h, --help      this help`;

export interface FixtureOptions {
  readonly out: string;
  readonly seed: number;
  readonly check: boolean;
}

const OPTIONS = { out: { type: 'string' }, 'sim-seed': SIM_OPTIONS['sim-seed'], ...OLD_SEED_OPTION, check: { type: 'boolean' } } as const;

export function fixtureOptions(values: Values<typeof OPTIONS>): FixtureOptions {
  refuseOldSeed(values);
  const seed = wholeOption('--sim-seed', values['sim-seed'], 0, MAX_SEED) ?? DEFAULT_SEED;
  return { out: values.out ?? 'fixtures', seed, check: values.check === true };
}

export const fixtures: DefinedCommand = defineCommand({ name: 'fixtures', usage: USAGE, options: OPTIONS, main: fixturesCommand });

async function fixturesCommand(values: Values<typeof OPTIONS>, io: CliIo): Promise<number> {
  const options = fixtureOptions(values);
  const dir = resolve(io.cwd, options.out);
  const files = generateFixtures({ seed: options.seed });
  if (options.check) return check(dir, files, options, io);
  const previous = await previouslyGenerated(dir);
  for (const f of files) {
    const path = join(dir, ...f.file.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, f.content);
  }
  // A case renamed or a keyset page fewer: remove what an earlier run wrote and this one did not.
  const current = new Set(files.map((f) => f.file));
  for (const old of previous) if (!current.has(old)) await rm(join(dir, ...old.split('/')), { force: true });
  io.stdout.write(`wrote ${files.length} files to ${shown(io, dir)} (seed ${options.seed})\n`);
  return EXIT_OK;
}

export interface Staleness {
  readonly changed: readonly string[];
  readonly missing: readonly string[];
  readonly extra: readonly string[];
}

/** Which files on disk differ from a fresh generation: changed, missing, and .json files no case produces. */
export async function staleFiles(dir: string, files: readonly FixtureFile[]): Promise<Staleness> {
  const changed: string[] = [];
  const missing: string[] = [];
  for (const f of files) {
    const onDisk = await readFile(join(dir, ...f.file.split('/')), 'utf8').catch(() => undefined);
    if (onDisk === undefined) missing.push(f.file);
    else if (onDisk !== f.content) changed.push(f.file);
  }
  const expected = new Set(files.map((f) => f.file));
  const extra = (await jsonFiles(dir)).filter((f) => !expected.has(f));
  return { changed, missing, extra };
}

async function check(dir: string, files: readonly FixtureFile[], options: FixtureOptions, io: CliIo): Promise<number> {
  const stale = await staleFiles(dir, files);
  const count = stale.changed.length + stale.missing.length + stale.extra.length;
  if (count === 0) {
    io.stdout.write(`${shown(io, dir)}: ${files.length} fixtures up to date (seed ${options.seed})\n`);
    return EXIT_OK;
  }
  const lines = [`${shown(io, dir)}: ${count} stale fixture file${count === 1 ? '' : 's'}`];
  for (const f of stale.changed) lines.push(`  changed  ${f}`);
  for (const f of stale.missing) lines.push(`  missing  ${f}`);
  for (const f of stale.extra) lines.push(`  extra    ${f}`);
  lines.push(`regenerate with: commerce-sim fixtures --out ${options.out} --sim-seed ${options.seed}`);
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT_RULE_FAILED;
}

/** Every .json file below dir, `/`-separated and sorted. */
async function jsonFiles(dir: string, root = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await jsonFiles(path, root)));
    else if (e.isFile() && e.name.endsWith('.json')) out.push(relative(root, path).split(sep).join('/'));
  }
  return out.sort();
}

/** Files the index.json of an earlier generation names (only those are ever removed). */
async function previouslyGenerated(dir: string): Promise<string[]> {
  const text = await readFile(join(dir, INDEX_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return [];
  let index: unknown;
  try {
    index = JSON.parse(text);
  } catch {
    return [];
  }
  const list = isObject(index) && index['kind'] === 'generated' ? index['fixtures'] : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((e: unknown) => {
    const file = isObject(e) ? e['file'] : undefined;
    return typeof file === 'string' && !file.split('/').includes('..') ? [file] : [];
  });
}

function shown(io: CliIo, dir: string): string {
  const rel = relative(io.cwd, dir);
  return rel === '' ? '.' : rel.startsWith('..') ? dir : rel;
}
