/**
 * The event loop's long turns over a window, as a process's clients meet them (issue 36): a timer every
 * 5 ms notes each time it ran late by more than 20 ms, with what the main thread did meanwhile, read from
 * /proc/thread-self/schedstat (Linux): on a CPU, or ready and waiting for one (a busy machine); and the
 * collector's pauses that fell in that turn. A served simulator's child and an idle process (the
 * machine's floor: what any process met in the same window) both run one.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { performance, PerformanceObserver } from 'node:perf_hooks';

const EVERY_MS = 5;
const LONG_MS = 20;

export interface TurnSummary {
  /** The longest delay of the timer (ms): the longest turn, as another client waits for it. */
  readonly longest: number;
  /** In that turn: ms the main thread was on a CPU, and ms it was ready but waiting for one; -1 where not measurable. */
  readonly longestCpu: number;
  readonly longestWaiting: number;
  /** Turns past 20 ms and past 50 ms. */
  readonly over20: number;
  readonly over50: number;
  /** The longest turn's CPU time among all the long turns: the work's own share on an idle core. */
  readonly mostCpu: number;
  /** Long turns with a collector pause in them; the longest pause (ms) of the window. */
  readonly withGc: number;
  readonly longestGc: number;
  /** Each long turn: when it began (ms since the process started, as `--trace-gc` counts), how late, CPU, waiting, collector pause ms in it. */
  readonly each: readonly { readonly at: number; readonly late: number; readonly cpu: number; readonly waiting: number; readonly gc: number }[];
}

/** [on-CPU ms, waiting-for-CPU ms] of the calling thread so far, or undefined where /proc does not say. */
function threadTimes(fd: number | undefined, buffer: Buffer): readonly [number, number] | undefined {
  if (fd === undefined) return undefined;
  const n = readSync(fd, buffer, 0, buffer.length, 0);
  const [cpu, waiting] = buffer.toString('latin1', 0, n).split(' ');
  return [Number(cpu) / 1e6, Number(waiting) / 1e6];
}

export class TurnWatch {
  private timer: NodeJS.Timeout | undefined;
  private observer: PerformanceObserver | undefined;
  private fd: number | undefined;
  private readonly buffer = Buffer.alloc(96);
  private turns: { at: number; late: number; cpu: number; waiting: number }[] = [];
  private pauses: { at: number; ms: number }[] = [];

  start(): void {
    this.stop();
    this.turns = [];
    this.pauses = [];
    try {
      this.fd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      this.fd = undefined;
    }
    this.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) this.pauses.push({ at: e.startTime, ms: e.duration });
    });
    this.observer.observe({ entryTypes: ['gc'] });
    let last = performance.now();
    let times = threadTimes(this.fd, this.buffer);
    const tick = () => {
      const now = performance.now();
      const next = threadTimes(this.fd, this.buffer);
      const late = now - last - EVERY_MS;
      if (late > LONG_MS)
        this.turns.push({ at: last, late, cpu: next === undefined || times === undefined ? -1 : next[0] - times[0], waiting: next === undefined || times === undefined ? -1 : next[1] - times[1] });
      last = now;
      times = next;
      this.timer = setTimeout(tick, EVERY_MS);
    };
    this.timer = setTimeout(tick, EVERY_MS);
  }

  stop(): TurnSummary {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.observer?.disconnect();
    this.observer = undefined;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    const longest = this.turns.reduce((a, t) => (t.late > a.late ? t : a), { at: 0, late: 0, cpu: -1, waiting: -1 });
    const overlaps = (t: { at: number; late: number }) => (p: { at: number; ms: number }) => p.at < t.at + t.late + EVERY_MS && p.at + p.ms > t.at;
    const inTurn = (t: { at: number; late: number }) => this.pauses.some(overlaps(t));
    return {
      longest: longest.late,
      longestCpu: longest.cpu,
      longestWaiting: longest.waiting,
      over20: this.turns.length,
      over50: this.turns.filter((t) => t.late > 50).length,
      mostCpu: this.turns.reduce((m, t) => Math.max(m, t.cpu), -1),
      withGc: this.turns.filter(inTurn).length,
      longestGc: this.pauses.reduce((m, p) => Math.max(m, p.ms), 0),
      each: this.turns.map((t) => ({ ...t, gc: this.pauses.filter(overlaps(t)).reduce((n, p) => n + p.ms, 0) })),
    };
  }
}
