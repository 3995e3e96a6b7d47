/**
 * The virtual clock: a fixed start and a step per write, so timestamps depend only on the requests made.
 * Wall-clock mode is opt-in (`--clock wall`) for people who want real times; it is the only way time leaks in.
 */

export const DEFAULT_CLOCK_START = Date.UTC(2025, 0, 1, 0, 0, 0, 0);
export const DEFAULT_STEP_MS = 1000;

/**
 * The instants a record may carry: years 0000–9999, which `iso` writes in the plain 24-character form
 * and the filter grammar reads back (engine/filter.ts). Beyond them toISOString throws or changes form.
 */
const MIN_TIME_MS = Date.parse('0000-01-01T00:00:00.000Z');
export const MAX_TIME_MS = Date.parse('9999-12-31T23:59:59.999Z');

export function isTimeMs(value: unknown): value is number {
  return typeof value === 'number' && value >= MIN_TIME_MS && value <= MAX_TIME_MS;
}

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
    // Capped, so no write can carry an instant past year 9999 (the admin API refuses such advances).
    tick: () => (now = Math.min(MAX_TIME_MS, now + stepMs)),
    advance: (ms) => (now = Math.min(MAX_TIME_MS, now + Math.max(0, ms))),
  };
}

/** Real time, injected by the caller (the CLI passes Date.now); never used unless asked for. */
export function wallClock(read: () => number): Clock {
  return { mode: 'wall', now: read, tick: read, advance: read };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
