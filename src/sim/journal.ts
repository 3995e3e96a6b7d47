/**
 * The request journal (`GET /__sim/requests`): the last API requests the simulator answered (not the
 * admin API's), in a ring
 * buffer of fixed size, so a test can ask what its code sent. Deterministic (a sequence number, no
 * wall time) and secret-free: no headers or bodies, and query values of secret-looking names redacted.
 */

export interface JournalEntry {
  /** 1, 2, 3, ... since start (a reset clears the entries, not the count); 0 for an admin request, not journaled. */
  readonly seq: number;
  readonly method: string;
  /** Path and query, secrets redacted, at most MAX_URL characters. */
  readonly url: string;
  readonly status: number;
  /** The project the request acted on (the token's client id, or the one asking for a token); null when none. */
  readonly client_id: string | null;
}

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
  private readonly ring: (JournalEntry | undefined)[];
  private next = 0;
  private count = 0;
  private seq = 0;

  constructor(readonly capacity: number = DEFAULT_JOURNAL_SIZE) {
    this.ring = new Array<JournalEntry | undefined>(Math.max(1, capacity));
  }

  /** Kept as it came, cut to a bounded length; redacted when read (list), so the hot path pays nothing for it. */
  record(method: string, url: string, status: number, clientId: string | null): JournalEntry {
    const kept: JournalEntry = { seq: ++this.seq, method, url: url.length > MAX_URL ? url.slice(0, MAX_URL) : url, status, client_id: clientId };
    this.ring[this.next] = kept;
    this.next = (this.next + 1) % this.ring.length;
    this.count = Math.min(this.count + 1, this.ring.length);
    return kept;
  }

  /** Oldest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const method = filter.method?.toUpperCase();
    const start = (this.next - this.count + this.ring.length) % this.ring.length;
    for (let i = 0; i < this.count; i++) {
      const e = this.ring[(start + i) % this.ring.length] as JournalEntry;
      if (method !== undefined && e.method !== method) continue;
      if (filter.status !== undefined && e.status !== filter.status) continue;
      if (filter.clientId !== undefined && e.client_id !== filter.clientId) continue;
      if (filter.since !== undefined && e.seq <= filter.since) continue;
      const url = redactUrl(e.url);
      if (filter.path !== undefined && !url.startsWith(filter.path)) continue;
      out.push({ ...e, url });
    }
    return filter.limit === undefined ? out : out.slice(Math.max(0, out.length - filter.limit));
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
  }
}
