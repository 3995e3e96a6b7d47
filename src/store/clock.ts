/**
 * The virtual clock: a fixed start and a step per write, so timestamps depend only on the requests made.
 * Wall-clock mode is opt-in (`--clock wall`) for people who want real times; it is the only way time leaks in.
 */

export const DEFAULT_CLOCK_START = Date.UTC(2025, 0, 1, 0, 0, 0, 0);
export const DEFAULT_STEP_MS = 1000;

export interface Clock {
  /** Milliseconds since the epoch, now. */
  now(): number;
  /** Called once per write: moves the clock by its step and returns the new now. */
  tick(): number;
  /** Moves the virtual clock forward (admin API). No effect in wall-clock mode. */
  advance(ms: number): number;
  readonly mode: 'virtual' | 'wall';
}

export function virtualClock(start = DEFAULT_CLOCK_START, stepMs = DEFAULT_STEP_MS): Clock {
  let now = start;
  return {
    mode: 'virtual',
    now: () => now,
    tick: () => (now += stepMs),
    advance: (ms) => (now += Math.max(0, ms)),
  };
}

/** Real time, injected by the caller (the CLI passes Date.now); never used unless asked for. */
export function wallClock(read: () => number): Clock {
  return { mode: 'wall', now: read, tick: read, advance: read };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
