/** What a route handler gets: the parsed request, the caller's project and access, the simulator. */
import type { Deviations } from '../engine/deviations.js';
import type { QueryParams } from '../engine/query.js';
import type { Project } from '../store/project.js';
import type { SimRequest, SimResponse } from './messages.js';
import type { JournalFilter } from './journal.js';
import type { ReadingsPlay } from './readings-play.js';
import type { LongReads } from './long-reads.js';

export type Access = 'read-write' | 'read-only' | 'admin';

export interface RequestContext {
  readonly req: SimRequest;
  /** Path without a trailing slash. */
  readonly path: string;
  readonly trailingSlash: boolean;
  readonly query: QueryParams;
  readonly params: Readonly<Record<string, string>>;
  readonly project: Project;
  readonly access: Access;
  readonly baseUrl: string;
  readonly deviations: Deviations;
  /** Admin handlers act on the simulator itself. */
  readonly admin: AdminOps;
  /**
   * The cap on one list read's work (engine/read-cost.ts units: records examined with one simple test),
   * `serve --max-scan`; undefined: the default cap of the collection read (read-cost.ts scanCap).
   */
  readonly maxScan: number | undefined;
  /** Served: long reads run in slices, holding their project still; in process, undefined (they run at once). */
  readonly longReads: LongReads<Project> | undefined;
  /** What the simulator answers where the document is silent (rules/readings.ts). */
  readonly play: ReadingsPlay;
  /** Answers go to a socket: build list pages as bytes (body-parts.ts), not text. */
  readonly wire: boolean;
}

export type Handler = (ctx: RequestContext) => SimResponse;

/** The operations of the admin API, implemented by the simulator. */
export interface AdminOps {
  reset(): void;
  /** The journal's entries, filtered (GET /__sim/requests). */
  requests(filter: JournalFilter): unknown;
  reseed(options: unknown): SimResponse | undefined;
  snapshot(): unknown;
  /** The body as it came (its text, or served, its UTF-8 bytes): it is read as steps, refused where it shows it must be. */
  restore(body: string | Uint8Array): SimResponse | undefined;
  describe(): unknown;
}
