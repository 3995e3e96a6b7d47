/**
 * The judge's memory budget: what walks and sessions hold for the server's rules (exchanges, until their
 * rules judge them) is counted here, by an estimate of what each entry keeps alive (its texts and the parsed
 * answer). Since a list's records are held reduced (./held.ts) the estimate is above what is held; it is
 * kept as it was, so that chunks are judged where they were and the verdicts stay the same. Past the
 * budget, the judge is asked to free some: it judges the largest holding now and lets it go (chunks get
 * shorter under load), or, when every walk holds only its last page, ends the walk used longest ago.
 * Memory does not grow with the traffic.
 */
import type { TrafficEntry } from '../entry.js';
import { HeldResponse } from './held.js';

/** The default: about 48 MiB of held exchanges, parsed answers included. */
export const DEFAULT_MAX_HELD_BYTES = 48 * 2 ** 20;

/** Bytes an entry keeps alive while held: its texts, and about three times the answer for its parsed form. */
function heldBytes(entry: TrafficEntry): number {
  const { request, response } = entry.exchange;
  const length = response instanceof HeldResponse ? response.length : response.body.length;
  return 512 + request.url.length + (request.body?.length ?? 0) + length * 4;
}

/**
 * Bytes held, per holder and in all. An exchange held by several (a list read is in its walk's chunk and its
 * session's) counts once in the total, while it is held by any; each holder's share still counts it, so
 * that the largest holder is the one whose judging frees the most.
 */
export class HeldBudget<H> {
  private readonly held = new Map<H, number>();
  /** Per exchange held: by how many holders. */
  private readonly holders = new Map<TrafficEntry, number>();
  private total = 0;
  private freeing = false;

  constructor(
    private readonly max: number,
    /** Frees something (judging what a holder holds, or ending a walk; they call `release`); false when nothing is left to free. */
    private readonly free: (largest: H | undefined, bytes: number) => boolean,
  ) {}

  /** `entry` held by `holder` too; past the budget, the judge frees until it fits. */
  add(holder: H, entry: TrafficEntry): void {
    const bytes = heldBytes(entry);
    this.held.set(holder, (this.held.get(holder) ?? 0) + bytes);
    const n = this.holders.get(entry) ?? 0;
    this.holders.set(entry, n + 1);
    if (n === 0) this.total += bytes;
    if (this.freeing) return;
    this.freeing = true;
    try {
      while (this.total > this.max) {
        let largest: H | undefined;
        let most = -1;
        for (const [h, b] of this.held) {
          if (b > most) {
            most = b;
            largest = h;
          }
        }
        if (!this.free(largest, most)) return;
      }
    } finally {
      this.freeing = false;
    }
  }

  /** `holder` let go of `dropped` (each once per time it was held) and still holds `kept`. */
  release(holder: H, dropped: readonly TrafficEntry[], kept: readonly TrafficEntry[] = []): void {
    if (!this.held.has(holder)) return;
    for (const e of dropped) {
      const n = this.holders.get(e);
      if (n === undefined) continue;
      if (n > 1) this.holders.set(e, n - 1);
      else {
        this.holders.delete(e);
        this.total -= heldBytes(e);
      }
    }
    let share = 0;
    for (const e of kept) share += heldBytes(e);
    if (share > 0) this.held.set(holder, share);
    else this.held.delete(holder);
  }

  holds(holder: H): number {
    return this.held.get(holder) ?? 0;
  }

  get bytes(): number {
    return this.total;
  }
}
