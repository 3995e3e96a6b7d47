/**
 * How the live adapter paces itself: seeded jitter for backoff, Retry-After parsing, a token bucket
 * for `--rps`. Timers are allowed here (this is the live adapter, not simulator logic); time and
 * randomness are still injectable so tests stay fast and reproducible.
 */
import { setTimeout as delay } from 'node:timers/promises';

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = async (ms) => {
  if (ms > 0) await delay(ms);
};

/** mulberry32: a tiny seeded PRNG giving floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Exponential backoff with "equal jitter": half fixed, half random, so retries never synchronise. */
export function backoffMs(attempt: number, baseMs: number, random: () => number): number {
  const ceiling = baseMs * 2 ** attempt;
  return ceiling / 2 + (ceiling / 2) * random();
}

/**
 * Retry-After as milliseconds: delta-seconds (`120`, tolerated `1.5`) or an HTTP date.
 * undefined when absent or unreadable; never negative.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A token bucket: `rate` requests per second on average, bursts up to `capacity`. */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly rate: number,
    private readonly capacity: number,
    private readonly now: () => number,
    private readonly sleep: Sleep,
  ) {
    this.tokens = capacity;
    this.last = now();
  }

  /** Resolves when a request may go; callers are served in order. */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.wait());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async wait(): Promise<void> {
    for (;;) {
      const now = this.now();
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(Math.ceil(((1 - this.tokens) / this.rate) * 1000));
    }
  }
}
