/**
 * `commerce-sim serve` in a child process started with the served simulator's heap flags (src/sim/served-heap.ts):
 * V8 reads them only when a process starts. Not when the node running serve was given a semi-space size already
 * (its own flags or NODE_OPTIONS: the user's choice stands), nor under a debugger (`--inspect`). The parent only waits: it hands each stop signal on
 * once (the child has a process group of its own, so a terminal's Ctrl-C reaches it once, through the parent) and
 * exits as the child did. Killed outright, the parent leaves no server behind: the child stops as on SIGTERM when
 * their channel closes.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { SERVED_HEAP_FLAGS } from '../sim/served-heap.js';

/** Set in the child: it is the served process already. */
const CHILD_VARIABLE = 'COMMERCE_SIM_SERVED_HEAP';
const SEMI_SPACE = /--(max|min)-semi-space-size\b/;

/** A debugger asked for: it must attach to the process that serves (a child would also find the inspector's port taken). */
const INSPECT = /--inspect/;

/**
 * Whether this process should start the server in a child with SERVED_HEAP_FLAGS: not when it is that child, nor
 * when a semi-space size was given, nor under a debugger.
 */
export function needsServedHeap(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): boolean {
  if (env[CHILD_VARIABLE] === '1') return false;
  const options = env['NODE_OPTIONS'] ?? '';
  return ![SEMI_SPACE, INSPECT].some((flag) => execArgv.some((a) => flag.test(a)) || flag.test(options));
}

/** In the child: stop as on SIGTERM when the parent goes, however it went. */
export function followParent(): void {
  if (process.env[CHILD_VARIABLE] !== '1') return;
  // Heard as serve hears a SIGTERM (its listeners), not sent as one: on Windows a sent SIGTERM kills at once.
  const stop = (): void => void process.emit('SIGTERM', 'SIGTERM');
  // Gone already, before this was asked.
  if (!process.connected) return stop();
  process.once('disconnect', stop);
  // The channel alone keeps no child alive: it exits when serve is done.
  (process.channel as { unref?: () => void } | undefined)?.unref?.();
}

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs `commerce-sim serve <args>` in a child with SERVED_HEAP_FLAGS; resolves to the exit code to leave with. */
export function serveInChild(script: string, args: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...SERVED_HEAP_FLAGS, script, 'serve', ...args], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [CHILD_VARIABLE]: '1' },
    // Its own process group; on Windows that would mean a console window of its own, and Ctrl-C is not a group's signal there.
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  const forward = (signal: NodeJS.Signals) => void child.kill(signal);
  for (const s of FORWARDED) process.on(s, forward);
  return new Promise((resolve) => {
    const done = (code: number) => {
      for (const s of FORWARDED) process.off(s, forward);
      resolve(code);
    };
    child.once('error', (error) => {
      process.stderr.write(`commerce-sim serve: could not start the server's process: ${error.message}\n`);
      done(1);
    });
    // As a shell reports a child killed by a signal: 128 + its number.
    child.once('exit', (code, signal) => done(code ?? 128 + (signal === null ? 0 : constants.signals[signal])));
  });
}
