/**
 * The documentation's commands run as written (issue 20: a newcomer's first hour without a stumble), in the
 * README and in every file under docs/ (issue 35 moved most of the README there). Every
 * command of a fenced `sh` block that calls curl or the CLI runs against a simulator served by the CLI
 * itself (the README's own `serve --port 0 --json` line), the printed examples (`$ commerce-sim ...` and
 * `npm start`'s summary) are compared with what the tool prints, and every count of scenarios and rules
 * the README or a guide gives is the tool's. So documentation and tool cannot drift apart. A block pasted in
 * two places (the README shows one snippet of each guide) runs once.
 *
 * The README writes its placeholders as a reader would fill them: the base URL http://127.0.0.1:4747 (or
 * https://api.example.com for a live deployment), `<token>`, `--var name=...` and a token in the variable
 * `--token-env` names; here they are the served simulator's. `commerce-sim` and `npx commerce-sim` run as
 * `node dist/cli/main.js` (test/e2e/bin.test.ts runs the bin through npx), each block in a fresh directory.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, ruleById } from '../src/rules/catalogue.js';
import { findScenarioFiles, loadScenarios } from '../src/scenarios/load.js';
import { blocksOf, docFiles, readDoc, type Block } from './support/docs.js';
import { firstLine } from './support/first-line.js';

const ROOT = resolve(import.meta.dirname, '..');
const MAIN = resolve(ROOT, 'dist/cli/main.js');
const readme = readDoc('README.md');
/** Every documentation file's text, one after another: where a count or a shown command may sit. */
const allText = docFiles()
  .map((file) => readDoc(file))
  .join('\n');

/**
 * Commands the test does not run, each with why; every entry must still be in the documentation, so the list
 * cannot outlive what it excuses.
 */
const NOT_RUN: ReadonlyMap<string, string> = new Map([
  [
    'npx commerce-sim serve',
    'serves until stopped, on the fixed port 4747 that another process may hold; its `--port 0 --json` form, the line after it, is the server every other command here runs against',
  ],
  ['npx commerce-sim proxy --upstream https://api.example.com --har traffic.har', 'relays until stopped; test/e2e/proxy-cli.test.ts runs the proxy as built, stopped by --requests and by SIGTERM'],
  [
    'npx commerce-sim proxy --upstream sim --dataset shared-timestamps --requests 500',
    'waits for 500 requests from a client; test/e2e/proxy-cli.test.ts runs --upstream sim --requests 3 with a client',
  ],
  ['npx commerce-sim check traffic.har other.har --judge client', 'needs HAR files a proxy wrote; test/traffic/check-cli.test.ts and test/traffic/deviations.test.ts check such files'],
  ['npx commerce-sim check day.har --shard 1/2 --report shard-1', 'needs a day of traffic in a HAR; test/traffic/shard.test.ts runs check --shard on one and merges the shards'],
  ['npx commerce-sim check day.har --shard 2/2 --report shard-2', 'the other shard of the same; test/traffic/shard.test.ts'],
  ['npx commerce-sim report merge shard-1 shard-2 --out day', 'merges the two shards above; test/traffic/shard.test.ts merges shards of check'],
  ['npx commerce-sim mutation --readings 20 --seed 7', 'minutes of work; test/kit/readings.test.ts runs the same proof on seeded combinations of readings'],
  [
    'npx commerce-sim serve --port 4800 --readings fingerprint/latest/readings.json',
    'serves until stopped; test/kit/fingerprint.test.ts starts serve --readings on a readings.json a run wrote and checks what it plays',
  ],
]);

/** The documented line that starts the served simulator every other command runs against. */
const SERVE = 'npx commerce-sim serve --port 0 --json';

const blocks: Block[] = docFiles().flatMap((file) => blocksOf(file));
/** The first block of each text: a snippet the README repeats from its guide runs once, named by its first file. */
const distinct = (list: readonly Block[]) => list.filter((b, i) => list.findIndex((o) => o.lang === b.lang && o.lines.join('\n') === b.lines.join('\n')) === i);

/** A shell line without its trailing comment (a `#` after blank space, outside quotes). */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** The commands of an `sh` block: comments dropped, continuation lines joined. */
function commands(block: Block): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of block.lines) {
    const line = withoutComment(raw);
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trimEnd()} `;
      continue;
    }
    const command = (pending + line.trim()).trim();
    pending = '';
    if (command !== '') out.push(command);
  }
  return out;
}

const usesTool = (command: string) => /^(curl|(npx )?commerce-sim)\b/.test(command);
/**
 * A block that starts a server in the background and stops it (a line starting `kill`) is a script: it
 * runs whole, as pasted into a shell, in a fresh directory outside the clone, `npx commerce-sim` the CLI
 * as built.
 */
const isScript = (b: Block) => b.lang === 'sh' && b.lines.some((l) => /^kill\b/.test(l));
const scripts = distinct(blocks.filter(isScript));
const shBlocks = distinct(blocks.filter((b) => b.lang === 'sh' && !isScript(b))).map((b) => ({ file: b.file, commands: commands(b).filter(usesTool) }));

interface Served {
  readonly base_url: string;
  readonly token: string;
  readonly [name: string]: unknown;
}

let served: Served;
let server: ChildProcess | undefined;
const dirs: string[] = [];

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-readme-'));
  dirs.push(dir);
  return dir;
}

/** A documented command with its placeholders filled from the served simulator, the CLI run from dist/. */
function filled(command: string): { line: string; env: Record<string, string> } {
  const env: Record<string, string> = {};
  for (const m of command.matchAll(/--token-env (\w+)/g)) if (m[1] !== undefined) env[m[1]] = served.token;
  const line = command
    .replace(/^(npx )?commerce-sim\b/, `${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN)}`)
    .replaceAll('http://127.0.0.1:4747', served.base_url)
    .replaceAll('https://api.example.com', served.base_url)
    .replaceAll('<token>', served.token)
    .replace(/--var (\w+)=\.\.\./g, (_, name: string) => {
      const value = served[name];
      if (typeof value !== 'string') throw new Error(`the documented --var ${name}=... has no value in serve --json`);
      return `--var ${name}=${value}`;
    });
  return { line, env };
}

/**
 * A line run by bash. Past its time limit spawnSync kills bash and sets `error` (ETIMEDOUT), while `status`
 * keeps bash's own exit code when bash had exited and something it started still held the output open:
 * so `finished` checks all three, and a timeout is never a pass.
 */
function sh(line: string, cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync('bash', ['-c', line], { cwd, encoding: 'utf8', env: { ...process.env, ...env, NO_COLOR: '1' }, timeout: 120_000 });
  return { status: r.status, signal: r.signal, error: r.error?.message, stdout: r.stdout, stderr: r.stderr };
}

/** How a run ended, to compare whole: exit 0 is `{ error: undefined, signal: null, status: 0 }`. */
const ended = (r: { readonly status: number | null; readonly signal: NodeJS.Signals | null; readonly error?: string | undefined }) => ({ error: r.error, signal: r.signal, status: r.status });
const EXIT_0 = { error: undefined, signal: null, status: 0 };

beforeAll(async () => {
  // test/global-setup.ts built dist/: a missing CLI is a failure, never a skip.
  expect(existsSync(MAIN), `${MAIN} is missing`).toBe(true);
  // The documentation's own line, as it is written there.
  expect(allText).toContain(SERVE);
  const args = SERVE.split(' ').slice(2);
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  server = child;
  const line = await firstLine(child);
  served = JSON.parse(line) as Served;
});

afterAll(async () => {
  const child = server;
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the documentation's commands", () => {
  it('reads the README and the docs, and finds blocks in each guide', () => {
    const files = new Set(blocks.map((b) => b.file));
    for (const file of ['README.md', 'docs/guides/simulator.md', 'docs/guides/deployment.md', 'docs/guides/fixtures.md', 'docs/guides/traffic.md', 'docs/guides/ci.md'])
      expect(files, file).toContain(file);
  });

  it('finds the commands it runs, and every command it does not run is still in the documentation', () => {
    const all = shBlocks.flatMap((b) => b.commands);
    expect(all.filter((c) => c.startsWith('curl')).length).toBeGreaterThan(0);
    expect(all).toContain(SERVE);
    for (const command of NOT_RUN.keys()) expect(all, command).toContain(command);
  });

  // One test per block: its commands run in order, in one fresh directory (fixtures written, then checked).
  for (const [i, block] of shBlocks.entries()) {
    const run = block.commands.filter((c) => !NOT_RUN.has(c) && c !== SERVE);
    if (run.length === 0) continue;
    it(`${block.file} block ${i + 1}: ${run.join(' ; ')}`, () => {
      const cwd = freshDir();
      for (const command of run) {
        const { line, env } = filled(command);
        if (command.startsWith('curl')) {
          // The status after what the README's line prints; the line itself as written.
          const r = sh(`${line} -sS -o /dev/null -w '%{http_code}'`, cwd, env);
          expect(r.stderr, command).toBe('');
          expect(ended(r), command).toEqual(EXIT_0);
          expect(r.stdout, command).toMatch(/^2\d\d$/);
        } else {
          const r = sh(line, cwd, env);
          expect(ended(r), `${command}\n${r.stdout}${r.stderr}`).toEqual(EXIT_0);
        }
      }
    });
  }

  it('has at least one block that serves in the background, waits, works and stops the server', () => {
    expect(scripts.length).toBeGreaterThan(0);
  });

  for (const [i, block] of scripts.entries()) {
    it(`${block.file} script ${i + 1}, run as pasted: ${block.lines[1] ?? ''}`, () => {
      const cwd = freshDir();
      // `npx commerce-sim` as a user's clone or app resolves it: the CLI as built, run as a child of the
      // wrapper the way npm exec runs it, so killing the wrapper leaves the server running (and holding
      // the script's output open: a script that stops only the wrapper does not end).
      const bin = join(cwd, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'npx'), `#!/bin/sh\nif [ "$1" = commerce-sim ]; then shift; ${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN)} "$@"; exit $?; fi\nexit 127\n`, { mode: 0o755 });
      const before = spawnSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).stdout;
      const r = spawnSync('bash', ['-e', '-c', block.lines.join('\n')], {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1' },
        timeout: 60_000,
      });
      // A script that stopped the wrapper but left the server running ends bash with 0 and holds the output
      // open until the time limit: error ETIMEDOUT with status 0, a failure.
      expect(ended({ status: r.status, signal: r.signal, error: r.error?.message }), `${r.stdout}${r.stderr}`).toEqual(EXIT_0);
      expect(r.stdout).toMatch(/PASS: /);
      // Nothing left in the clone.
      expect(spawnSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).stdout).toBe(before);
    }, 90_000);
  }

  it('prints the props example as shown, and its replay line replays the same failure', () => {
    const example = blocks.find((b) => b.lines[0]?.startsWith('$ commerce-sim props'));
    expect(example).toBeDefined();
    const [prompt = '', ...shown] = example?.lines ?? [];
    const cwd = freshDir();
    const first = sh(filled(prompt.slice(2)).line, cwd);
    // The guide shows the head of the output (the summary and the report path follow).
    expect(first.stdout.startsWith(`${shown.join('\n')}\n`), first.stdout).toBe(true);
    // A shown FAIL verdict is exit 1.
    expect(ended(first)).toEqual({ ...EXIT_0, status: shown.some((l) => l.startsWith('commerce-sim props: FAIL')) ? 1 : 0 });
    const replay = shown.map((l) => /^\s+replay: (commerce-sim .*)$/.exec(l)?.[1]).find((c) => c !== undefined);
    expect(replay).toBeDefined();
    const again = sh(filled(replay ?? '').line, cwd);
    expect(again.stderr).toBe('');
    expect(ended(again)).toEqual(ended(first));
    // The same counterexample, the same rule broken.
    for (const line of shown.filter((l) => /^\s+(FAIL|breaks) /.test(l))) expect(again.stdout).toContain(`${line}\n`);
  });

  it("prints npm start's summary as shown (the time and the run id aside)", () => {
    const start = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
    expect(start).toMatch(/^node dist\/cli\/main\.js /);
    const at = readme.indexOf('`npm start` prints a summary');
    const shown = blocks.find((b) => b.file === 'README.md' && b.lang === '' && readme.indexOf(b.lines.join('\n'), at) > at)?.lines ?? [];
    const r = sh(`${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN)}${start.slice('node dist/cli/main.js'.length)}`, freshDir());
    expect(ended(r)).toEqual(EXIT_0);
    const mask = (text: string) => text.replace(/ in \d+(\.\d+)? s$/gm, ' in <time> s').replace(/reports\/\d{8}T\d{6}Z-/g, 'reports/<run-id>-');
    expect(mask(r.stdout)).toBe(mask(`${shown.join('\n')}\n`));
  });
});

describe('the counts the documentation gives', () => {
  it('of rules are the catalogue\'s: "N rules: N `documented` ... and N `assumed`"', () => {
    const m = /\b(\d+) rules: (\d+) `documented` [^]*? and (\d+) `assumed`/.exec(allText);
    expect(m).not.toBeNull();
    expect(Number(m?.[1])).toBe(catalogue.length);
    expect(Number(m?.[2])).toBe(catalogue.filter((r) => r.level === 'documented').length);
    expect(Number(m?.[3])).toBe(catalogue.filter((r) => r.level === 'assumed').length);
  });

  it('of scenarios are the shipped suite’s: every "N scenarios", "in N files" and each bench row\'s pass + fail + skip', async () => {
    const dir = resolve(ROOT, 'scenarios');
    const scenarios = await loadScenarios([dir], { ruleExists: (id) => ruleById(id) !== undefined });
    const files = await findScenarioFiles([dir], ROOT);
    const number = (text: string) => Number(text.replaceAll(',', ''));
    const counts = [...allText.matchAll(/\b(\d[\d,]*) scenarios\b/g)].map((m) => number(m[1] ?? ''));
    expect(counts.length).toBeGreaterThan(0);
    for (const n of counts) expect(n).toBe(scenarios.length);
    for (const m of allText.matchAll(/\b\d[\d,]* scenarios in (\d+) files\b/g)) expect(number(m[1] ?? '')).toBe(files.length);
    const rows = [...allText.matchAll(/\| (\d+) pass, (\d+) fail, (\d+) skip \|/g)];
    expect(rows.length).toBeGreaterThan(0);
    for (const m of rows) expect(number(m[1] ?? '') + number(m[2] ?? '') + number(m[3] ?? '')).toBe(scenarios.length);
  });
});
