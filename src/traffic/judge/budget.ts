/**
 * The judge's memory budget: what walks and sessions hold for the server's rules (whole exchanges, until
 * their rules judge them) is counted here, by an estimate of what each entry keeps alive (its texts and
 * the parsed answer). Past the budget, the judge is asked to free some: it judges the largest holding now
 * and lets it go (chunks get shorter under load), or, when every walk holds only its last page, ends the
 * walk used longest ago. Memory does not grow with the traffic.
 */
import type { TrafficEntry } from '../entry.js';

/** The default: about 48 MiB of held exchanges, parsed answers included. */
export const DEFAULT_MAX_HELD_BYTES = 48 * 2 ** 20;

/** Bytes an entry keeps alive while held: its texts, and about three times the answer for its parsed form. */
export function heldBytes(entry: TrafficEntry): number {
  const { request, response } = entry.exchange;
  return 512 + request.url.length + (request.body?.length ?? 0) + response.body.length * 4;
}

export class HeldBudget<H> {
  private readonly held = new Map<H, number>();
  private total = 0;
  private freeing = false;

  constructor(
    private readonly max: number,
    /** Frees something (judging what a holder holds, or ending a walk; they call `release`); false when nothing is left to free. */
    private readonly free: (largest: H | undefined, bytes: number) => boolean,
  ) {}

  /** `bytes` more held by `holder`; past the budget, the judge frees until it fits. */
  add(holder: H, bytes: number): void {
    this.held.set(holder, (this.held.get(holder) ?? 0) + bytes);
    this.total += bytes;
    if (this.freeing) return;
    this.freeing = true;
    try {
      while (this.total > this.max) {
        let largest: H | undefined;
        let most = -1;
        for (const [h, n] of this.held) {
          if (n > most) {
            most = n;
            largest = h;
          }
        }
        if (!this.free(largest, most)) return;
      }
    } finally {
      this.freeing = false;
    }
  }

  /** What `holder` holds now: `kept` bytes (0: nothing, and it is forgotten). */
  release(holder: H, kept = 0): void {
    const n = this.held.get(holder);
    if (n === undefined) return;
    this.total -= n - kept;
    if (kept > 0) this.held.set(holder, kept);
    else this.held.delete(holder);
  }

  holds(holder: H): number {
    return this.held.get(holder) ?? 0;
  }

  get bytes(): number {
    return this.total;
  }
}
