/** Start a bench child process and wait for its first message (its address, or its figures). */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVED_HEAP_FLAGS } from '../sim/served-heap.js';

export interface Child<T> {
  readonly message: T;
  stop(): void;
  /** CPU time (user + system, µs) the child has used so far. */
  cpu(): Promise<number>;
  /** Send a message the child answers with one number ('cpu', 'rss', ...). */
  ask(message: string): Promise<number>;
  /** Send a message the child answers with a value ('turns': a TurnSummary). */
  report<R>(message: string): Promise<R>;
}

export function child<T>(file: string, args: readonly string[], execArgv: readonly string[] = []): Promise<Child<T>> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(new URL(file, import.meta.url)), [...args], { execArgv: [...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const report = <R>(m: string) =>
      new Promise<R>((done) => {
        proc.once('message', (answer) => done(answer as R));
        proc.send(m);
      });
    const ask = async (m: string) => Number(await report<unknown>(m));
    proc.once('message', (message) => resolve({ message: message as T, stop: () => proc.send('stop'), cpu: () => ask('cpu'), ask, report }));
    proc.once('error', reject);
    proc.once('exit', (code) => code !== 0 && reject(new Error(`${file} exited with ${code}`)));
  });
}

export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The value at share `p` (0..1) of the sorted samples (p50: 0.5), 0 for none. */
export const percentile = (xs: readonly number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;

/**
 * The node flags of a served simulator's process: the heap `commerce-sim serve` gives it (src/sim/served-heap.ts), or
 * Node's default with BENCH_SERVED_HEAP=default (to measure what the served heap changes).
 */
export const servedHeapFlags = (): readonly string[] => (process.env['BENCH_SERVED_HEAP'] === 'default' ? [] : SERVED_HEAP_FLAGS);
