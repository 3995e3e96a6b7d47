/**
 * What every flight of one relay shares: the upstream leg, the observers (none for a bare relay), the
 * counters, and shutdown's wait for the requests in flight.
 */
import type { Dispatcher } from 'undici';
import type { TrafficEntry } from '../entry.js';
import type { InfraNote } from './answers.js';

export interface Upstream {
  /** e.g. `https://api.example.com`. */
  readonly origin: string;
  /** The base URL's path without its last slash (`''` for none), put before every request's path. */
  readonly prefix: string;
  /** The `host` header the upstream gets (undici sends it). */
  readonly host: string;
}

/** Everything a capturing relay does besides relaying; a bare relay has none. */
export interface Observers {
  readonly maxCaptureBytes: number;
  readonly onExchange: (entry: TrafficEntry) => void;
  readonly annotate: ((entry: TrafficEntry) => string | undefined) | undefined;
  readonly onInfra: ((note: InfraNote) => void) | undefined;
  /** Read as each request arrives; its value goes on the entry as `simClock` (ground truth in front of the simulator). */
  readonly stamp?: (() => number) | undefined;
}

/** The relay's shared state: the upstream leg, the counters, shutdown. */
export class RelayState {
  sequence = 0;
  relayed = 0;
  infra = 0;
  failedCallbacks = 0;
  inFlight = 0;
  closing = false;
  private idle: (() => void) | undefined;

  constructor(
    readonly dispatcher: Dispatcher,
    readonly upstream: Upstream,
    readonly timeoutMs: number,
    readonly observers: Observers | undefined,
  ) {}

  settled(): void {
    this.inFlight--;
    if (this.inFlight === 0 && this.idle !== undefined) this.idle();
  }

  /** Resolves true once no request is in flight, false when `graceMs` ran out first. */
  drained(graceMs: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.idle = undefined;
        resolve(false);
      }, graceMs);
      timer.unref();
      this.idle = () => {
        clearTimeout(timer);
        this.idle = undefined;
        resolve(true);
      };
    });
  }
}
