/**
 * The judge's memory budget: what walks and sessions hold for the server's rules (whole exchanges, until
 * their rules judge them) is counted here, by an estimate of what each entry keeps alive (its texts and
 * the parsed answer). Past the budget, the holder that holds most is judged now and let go: chunks get
 * shorter under load, memory does not grow.
 */
import type { TrafficEntry } from '../entry.js';

/** The default: about 96 MiB of held exchanges, parsed answers included. */
export const DEFAULT_MAX_HELD_BYTES = 96 * 2 ** 20;

/** Bytes an entry keeps alive while held: its texts, and about three times the answer for its parsed form. */
export function heldBytes(entry: TrafficEntry): number {
  const { request, response } = entry.exchange;
  return 512 + request.url.length + (request.body?.length ?? 0) + response.body.length * 4;
}

export class HeldBudget<H> {
  private readonly held = new Map<H, number>();
  private total = 0;

  constructor(
    private readonly max: number,
    /** Judges what `holder` holds and lets it go (it then calls `release`). */
    private readonly flush: (holder: H) => void,
  ) {}

  /** `bytes` more held by `holder`; past the budget, the largest holders are flushed until it fits. */
  add(holder: H, bytes: number): void {
    this.held.set(holder, (this.held.get(holder) ?? 0) + bytes);
    this.total += bytes;
    while (this.total > this.max && this.held.size > 0) {
      let largest: H | undefined;
      let most = -1;
      for (const [h, n] of this.held) {
        if (n > most) {
          most = n;
          largest = h;
        }
      }
      if (largest === undefined) return;
      const before = this.total;
      this.flush(largest);
      // A flush that kept nothing back releases; one that could not (a holder keeps its last page) is set aside.
      if (this.total === before) this.release(largest);
    }
  }

  /** `holder` holds nothing any more (or only `kept` bytes). */
  release(holder: H, kept = 0): void {
    const n = this.held.get(holder);
    if (n === undefined) return;
    this.total -= n - kept;
    if (kept > 0) this.held.set(holder, kept);
    else this.held.delete(holder);
  }

  get bytes(): number {
    return this.total;
  }
}
