/**
 * `commerce-sim serve` runs its server in a child process started with the served heap (src/cli/serve-child.ts):
 * when it does, that the child gets the flags, that a stop signal reaches it once and the exit is the child's, and
 * that a parent killed outright leaves no server behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { needsServedHeap } from '../../src/cli/serve-child.js';
import { SERVED_HEAP_FLAGS } from '../../src/sim/served-heap.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'dist/cli/main.js');

describe('needsServedHeap', () => {
  it('asks for the child unless this is it, the node running serve was given a semi-space size, or a debugger', () => {
    expect(needsServedHeap({}, [])).toBe(true);
    expect(needsServedHeap({}, ['--enable-source-maps'])).toBe(true);
    expect(needsServedHeap({ NODE_OPTIONS: '--max-old-space-size=8192' }, [])).toBe(true);
    expect(needsServedHeap({ COMMERCE_SIM_SERVED_HEAP: '1' }, [])).toBe(false);
    expect(needsServedHeap({}, ['--max-semi-space-size=32'])).toBe(false);
    expect(needsServedHeap({}, ['--min-semi-space-size=2'])).toBe(false);
    expect(needsServedHeap({ NODE_OPTIONS: '--trace-gc --max-semi-space-size=1' }, [])).toBe(false);
    // Under a debugger: it attaches to the process that serves.
    expect(needsServedHeap({}, ['--inspect-brk=0'])).toBe(false);
    expect(needsServedHeap({ NODE_OPTIONS: '--inspect' }, [])).toBe(false);
  });
});

/** The pids of node processes whose command line runs `main` serve with `readyFile`, from /proc (Linux, like CI). */
function servers(readyFile: string): { pid: number; args: string[] }[] {
  const out: { pid: number; args: string[] }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
        .split('\0')
        .filter((a) => a !== '');
    } catch {
      continue;
    }
    if (args.includes(MAIN) && args.includes(readyFile)) out.push({ pid: Number(entry), args });
  }
  return out;
}

/** A process's state and process group (/proc/PID/stat); undefined once it is gone. */
function stat(pid: number): { state: string; group: number } | undefined {
  try {
    // `pid (comm) state ppid pgrp ...`: comm may hold spaces, so read after its closing parenthesis.
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', , group = ''] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state, group: Number(group) };
  } catch {
    return undefined;
  }
}

/** Running: a process that exited but was not reaped yet (a zombie, when its parent was killed) is not. */
const alive = (pid: number): boolean => {
  const s = stat(pid);
  return s !== undefined && s.state !== 'Z' && s.state !== 'X';
};

async function until(what: () => boolean, ms = 20_000): Promise<void> {
  const end = performance.now() + ms;
  while (!what()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(process.platform === 'linux')('commerce-sim serve in its child', () => {
  let dir = '';
  let started: ChildProcess | undefined;
  afterEach(async () => {
    if (started?.exitCode === null) started.kill('SIGKILL');
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  const serve = async () => {
    expect(existsSync(MAIN), 'dist/cli/main.js is missing (test/global-setup.ts builds it)').toBe(true);
    dir = await mkdtemp(join(tmpdir(), 'serve-child-'));
    const readyFile = join(dir, 'ready.json');
    const { NODE_OPTIONS: _dropped, COMMERCE_SIM_SERVED_HEAP: _too, ...env } = process.env;
    const parent = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--ready-file', readyFile], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    started = parent;
    let stderr = '';
    parent.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((done) => parent.once('exit', (code) => done(code)));
    await until(() => existsSync(readyFile));
    const found = servers(readyFile);
    const child = found.find((p) => p.pid !== parent.pid);
    return { parent, child, found, exited, readyFile, stderr: () => stderr };
  };

  it('serves from a child started with the served heap; SIGTERM reaches it once and the exit is its own', { timeout: 60_000 }, async () => {
    const s = await serve();
    expect(s.found.map((p) => p.pid).sort()).toEqual([s.parent.pid, s.child?.pid].sort());
    expect(s.child?.args.slice(1, 1 + SERVED_HEAP_FLAGS.length)).toEqual(SERVED_HEAP_FLAGS);
    const info = JSON.parse(readFileSync(s.readyFile, 'utf8')) as { base_url: string };
    expect((await fetch(`${info.base_url}/v2/accounts`)).status).toBe(401);
    // A process group of its own: a terminal's Ctrl-C reaches it once, through the parent, not twice (a second would cut the answers in flight).
    expect(stat(s.child?.pid ?? -1)?.group).toBe(s.child?.pid);
    expect(stat(s.parent.pid ?? -1)?.group).not.toBe(s.child?.pid);
    s.parent.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toContain('commerce-sim serve: SIGTERM: finishing the answers in flight');
    expect(alive(s.child?.pid ?? -1)).toBe(false);
    expect(existsSync(s.readyFile)).toBe(false);
  });

  it('leaves no server behind when the parent is killed outright', { timeout: 60_000 }, async () => {
    const s = await serve();
    const pid = s.child?.pid ?? -1;
    expect(alive(pid)).toBe(true);
    s.parent.kill('SIGKILL');
    await until(() => !alive(pid));
    // It stopped as on SIGTERM: its ready file removed.
    expect(existsSync(s.readyFile)).toBe(false);
  });
});
