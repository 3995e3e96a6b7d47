/**
 * The request journal (`GET /__sim/requests`): the last API requests the simulator answered (not the
 * admin API's), in a ring
 * buffer of fixed size, so a test can ask what its code sent and what it got. Secret-free: no headers or
 * bodies, and query values of secret-looking names redacted. Its times are wall times read from the
 * injected clock (in process) or by the HTTP adapter (served); they stay here and in `serve --log`, never in
 * an API answer, a fixture or a report, so a run stays byte-identical for its seed.
 */
import { iso } from '../store/clock.js';

/** A fault the client met: the connection reset with no answer, an answer cut halfway, or an injected 5xx. */
export type JournalFault = 'reset' | 'truncated' | 'error';

export interface JournalEntry {
  /** 1, 2, 3, ... since start (a reset clears the entries, not the count); 0 for an admin request, not journaled. */
  readonly seq: number;
  readonly method: string;
  /** Path and query, secrets redacted, at most MAX_URL characters. */
  readonly url: string;
  /** The status the client got; null when its connection was reset before any answer (`fault: "reset"`). */
  readonly status: number | null;
  /** The project the request acted on (the token's client id, or the one asking for a token); null when none. */
  readonly client_id: string | null;
  /** When the request was received, and when its answer was handed over (or its connection cut). */
  readonly received_at: string;
  readonly answered_at: string;
  /** The injected latency the answer was held for (served: shorter when shutdown cut it short). */
  readonly latency_ms: number;
  readonly fault: JournalFault | null;
}

/**
 * An entry as kept: its times as numbers, settled in place once the answer is written (served). The
 * HTTP adapter holds it from `Simulator.handle` until then; nothing else changes it.
 */
export interface KeptEntry {
  readonly seq: number;
  readonly method: string;
  readonly url: string;
  readonly status: number | null;
  readonly client_id: string | null;
  readonly receivedMs: number;
  answeredMs: number;
  latencyMs: number;
  fault: JournalFault | null;
}

/** What the simulator decided for an answer: its status, the latency to hold it, the fault injected. */
export interface Outcome {
  readonly status: number | null;
  readonly latencyMs: number;
  readonly fault: JournalFault | null;
}

/** What the transport was told to do with an answer (SimResponse.transport) and whether it is an injected 5xx. */
export function outcomeOf(status: number, transport: { readonly delayMs: number; readonly cut?: 'reset' | 'truncate' } | undefined, injectedError: boolean): Outcome {
  const cut = transport?.cut;
  // A reset answers nothing: the status the simulator built never reaches the client.
  if (cut === 'reset') return { status: null, latencyMs: transport?.delayMs ?? 0, fault: 'reset' };
  return { status, latencyMs: transport?.delayMs ?? 0, fault: cut === 'truncate' ? 'truncated' : injectedError ? 'error' : null };
}

/** What the HTTP adapter did: held the answer `heldMs`, then wrote it whole, cut it halfway, or reset the connection. */
export interface Delivery {
  readonly answeredMs: number;
  readonly heldMs: number;
  readonly cut: 'reset' | 'truncate' | undefined;
}

/** The entry as the client met it, once the adapter has written the answer (pure: the kept entry is settled from it). */
function delivered(entry: KeptEntry, d: Delivery): Pick<KeptEntry, 'answeredMs' | 'latencyMs' | 'fault'> {
  const fault = d.cut === 'reset' ? 'reset' : d.cut === 'truncate' ? 'truncated' : entry.fault === 'error' ? 'error' : null;
  return { answeredMs: d.answeredMs, latencyMs: d.heldMs, fault };
}

/** The entry as listed and logged: secrets redacted, times as ISO 8601. */
export function entryView(e: KeptEntry): JournalEntry {
  return {
    seq: e.seq,
    method: e.method,
    url: redactUrl(e.url),
    status: e.status,
    client_id: e.client_id,
    received_at: iso(e.receivedMs),
    answered_at: iso(e.answeredMs),
    latency_ms: e.latencyMs,
    fault: e.fault,
  };
}

/** An admin request's entry: not journaled, only seen by `serve --log`. */
export function unjournaled(method: string, url: string, clientId: string | null, outcome: Outcome, receivedMs: number): KeptEntry {
  return keptEntry(0, method, url, clientId, outcome, receivedMs);
}

function keptEntry(seq: number, method: string, url: string, clientId: string | null, outcome: Outcome, receivedMs: number): KeptEntry {
  return { seq, method, url: bounded(url), status: outcome.status, client_id: clientId, receivedMs, answeredMs: receivedMs, latencyMs: outcome.latencyMs, fault: outcome.fault };
}

const bounded = (url: string): string => (url.length > MAX_URL ? url.slice(0, MAX_URL) : url);

export interface JournalFilter {
  readonly method?: string;
  /** Entries whose path starts with this. */
  readonly path?: string;
  readonly status?: number;
  readonly clientId?: string;
  /** Entries after this sequence number. */
  readonly since?: number;
  /** The newest this many (default: all kept). */
  readonly limit?: number;
}

export const DEFAULT_JOURNAL_SIZE = 1000;
const MAX_URL = 2048;
const SECRET_NAME = /token|secret|password|key|credential/i;

/** The URL with the values of secret-looking query parameters replaced, and cut to a bounded length. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  let out = url;
  // Most queries name nothing secret-looking: no split, no decoding (this runs on every request).
  if (q >= 0 && (SECRET_NAME.test(url) || url.includes('%', q))) {
    const parts = url
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = eq < 0 ? pair : pair.slice(0, eq);
        let decoded = name;
        try {
          decoded = decodeURIComponent(name);
        } catch {
          // keep the raw name
        }
        return eq >= 0 && SECRET_NAME.test(decoded) ? `${name}=<redacted>` : pair;
      });
    out = `${url.slice(0, q)}?${parts.join('&')}`;
  }
  return out.length > MAX_URL ? `${out.slice(0, MAX_URL - 1)}…` : out;
}

export class Journal {
  private readonly ring: (KeptEntry | undefined)[];
  private next = 0;
  private count = 0;
  private seq = 0;

  constructor(readonly capacity: number = DEFAULT_JOURNAL_SIZE) {
    this.ring = new Array<KeptEntry | undefined>(Math.max(1, capacity));
  }

  /**
   * Kept as it came, cut to a bounded length; redacted when read (list), so the hot path pays nothing for
   * it. In process the answer is handed over as it is built: answered when received.
   */
  record(method: string, url: string, clientId: string | null, outcome: Outcome, receivedMs: number): KeptEntry {
    // One literal, not a spread of a second one: this runs on every request.
    const kept = keptEntry(++this.seq, method, url, clientId, outcome, receivedMs);
    this.ring[this.next] = kept;
    this.next = (this.next + 1) % this.ring.length;
    this.count = Math.min(this.count + 1, this.ring.length);
    return kept;
  }

  /** What the client met, once the HTTP adapter has written the answer (or cut it). */
  static settle(entry: KeptEntry, d: Delivery): void {
    const settled = delivered(entry, d);
    entry.answeredMs = settled.answeredMs;
    entry.latencyMs = settled.latencyMs;
    entry.fault = settled.fault;
  }

  /** Oldest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const method = filter.method?.toUpperCase();
    const start = (this.next - this.count + this.ring.length) % this.ring.length;
    for (let i = 0; i < this.count; i++) {
      const e = this.ring[(start + i) % this.ring.length] as KeptEntry;
      if (method !== undefined && e.method !== method) continue;
      if (filter.status !== undefined && e.status !== filter.status) continue;
      if (filter.clientId !== undefined && e.client_id !== filter.clientId) continue;
      if (filter.since !== undefined && e.seq <= filter.since) continue;
      const view = entryView(e);
      if (filter.path !== undefined && !view.url.startsWith(filter.path)) continue;
      out.push(view);
    }
    return filter.limit === undefined ? out : out.slice(Math.max(0, out.length - filter.limit));
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
  }
}
