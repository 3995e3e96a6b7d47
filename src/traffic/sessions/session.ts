/**
 * One client's state as the traffic judge keeps it, and its walks'. A client is an origin and a
 * credential (held as a key in memory only; reports say `client N`). Everything here is bounded: open
 * walks, runs, parents (a client rule's own state is the rule's: client-rules/rule.ts); what a walk or
 * session holds for the server's rules is bounded by the judge's budget (src/traffic/judge/budget.ts).
 */
import type { Exchange } from '../../port.js';
import { at, instantOf, is2xx, isCreatePath, isTimestampField, methodIs, pathOf, requestJson } from '../../rules/inspect.js';
import type { TrafficEntry } from '../entry.js';
import type { WalkTracker } from './ground-truth.js';
import { walkLabel, type PageFacts } from './pages.js';
import type { WalkKind } from './walks.js';

/** Open walks per client; past it the longest-idle walk is ended. */
export const MAX_OPEN_WALKS = 64;
/** Runs of ties and parents remembered per client. */
const MAX_REMEMBERED = 256;

export interface Walk {
  readonly n: number;
  readonly session: Session;
  kind: WalkKind;
  /** The attribute it moves on, once known. */
  field: string | undefined;
  readonly from: string;
  to: string;
  pages: number;
  records: number;
  findings: number;
  /** Its first page (a read of a one-page walk sent again replaces it: the answer before was lost, or stale). */
  first: PageFacts;
  last: PageFacts;
  /** Its last page that held records (the last value it was given). */
  tail: PageFacts;
  /**
   * Its last page as the walk's chunk holds it (src/traffic/judge/held.ts): what a flush keeps, and what the client
   * rules name beside the next page (they read the pages' facts, not their trees).
   */
  lastHeld: TrafficEntry;
  /** The client's request number of its last page: a later request shows the client went on without it. */
  lastSeq: number;
  /** The pages (and the client's writes meanwhile) not yet judged by the walk-scope rules. */
  chunk: TrafficEntry[];
  chunkPages: number;
  wroteSinceLastPage: boolean;
  /** It took a keyset step (a value carried from one page to the next). */
  stepped: boolean;
  /** Records it was sent again that it held already, by position (§4.3 read literally, a retry): waste, never a failure. */
  reread: number;
  /** Its last page held no record it had not read before. */
  addedNothing: boolean;
  /** A later read that could have continued it from its last page but was taken by another walk (the last such). */
  shadow?: { readonly page: PageFacts; readonly held: TrafficEntry; readonly seq: number } | undefined;
  /** The walk's first finding about the client: where a ground-truth table says records were lost. */
  cause?: string;
  truth: WalkTracker | undefined;
}

/** `accounts by created_at #3`: how findings name a walk. */
export const walkName = (w: Walk): string => `${walkLabel(w.first.read, w.field)} #${w.n}`;

export class Session {
  /** Requests seen from this client. */
  seq = 0;
  /** Whether the project's page length is known: observed, or the traffic is complete and nothing reset it. */
  pageLengthKnown: boolean;
  /** Exchanges held for the session-scope rules. */
  held: TrafficEntry[] = [];
  /** Open walks, longest idle first (changed through open, close and touch). */
  private readonly openWalks = new Set<Walk>();
  /** The open walks by their query (path and clauses besides the cursor), longest idle first. */
  private readonly byQuery = new Map<string, Set<Walk>>();
  private readonly runs = new Set<string>();
  /** Parents (realm and user-authentication-info) a 2xx answer showed exist. */
  private readonly parents = new Set<string>();
  /** `parent\0username` of the creates that succeeded: a create repeating one is not judged as a valid create (usernames may be unique). */
  private readonly usernames = new Set<string>();

  constructor(
    readonly key: string,
    readonly label: string,
    readonly origin: string,
    readonly vars: Record<string, unknown>,
    complete: boolean,
  ) {
    this.pageLengthKnown = complete;
    this.vars['usernames_used'] = this.usernames;
  }

  /** Remembers the username of a create that succeeded. */
  noteCreate(ex: Exchange): void {
    if (!methodIs(ex, 'POST') || !is2xx(ex.response.status) || !isCreatePath(pathOf(ex.request.url))) return;
    const username = at(requestJson(ex), 'data', 'username');
    if (typeof username !== 'string') return;
    if (this.usernames.size >= MAX_REMEMBERED) this.usernames.clear();
    this.usernames.add(`${pathOf(ex.request.url).replace(/\/$/, '')}\u0000${username}`);
  }

  /** Marks `walk` as used now: it is ended last when too many are open. */
  touch(walk: Walk): void {
    this.openWalks.delete(walk);
    this.openWalks.add(walk);
    const like = this.byQuery.get(queryKey(walk));
    like?.delete(walk);
    like?.add(walk);
  }

  get walks(): ReadonlySet<Walk> {
    return this.openWalks;
  }

  /** A walk opened: in `walks`, and found by its query. */
  open(walk: Walk): void {
    this.openWalks.add(walk);
    const key = queryKey(walk);
    const like = this.byQuery.get(key);
    if (like === undefined) this.byQuery.set(key, new Set([walk]));
    else like.add(walk);
  }

  /** A walk ended or let go. */
  close(walk: Walk): void {
    this.openWalks.delete(walk);
    const key = queryKey(walk);
    const like = this.byQuery.get(key);
    like?.delete(walk);
    if (like?.size === 0) this.byQuery.delete(key);
  }

  /**
   * The open walks a read of `path` with these other clauses may continue, the most recently used first: a
   * walk's every page has its first page's path and clauses besides the cursor (walks.ts, stepFrom), so a
   * read is compared only with walks of its query, not with every open walk of the client.
   */
  walksOf(read: { readonly path: string; readonly baseKey: string }): Walk[] {
    return [...(this.byQuery.get(`${read.path}\u0000${read.baseKey}`) ?? [])].reverse();
  }

  drained(path: string, field: string, value: string): boolean {
    return this.runs.has(runKey(path, field, value));
  }

  markDrained(path: string, field: string, value: string): void {
    if (this.runs.size >= MAX_REMEMBERED) this.runs.clear();
    this.runs.add(runKey(path, field, value));
  }

  knowParent(key: string): void {
    if (this.parents.has(key)) return;
    if (this.parents.size >= MAX_REMEMBERED) this.parents.clear();
    this.parents.add(key);
  }

  knowsParent(key: string): boolean {
    return this.parents.has(key);
  }
}

/** Timestamps by their instant: `2024-01-01T00:00:00Z` and `...00.000Z` are one run. */
function runKey(path: string, field: string, value: string): string {
  return `${path} ${field} ${isTimestampField(field) ? String(instantOf(value) ?? value) : value}`;
}

/** A walk's query: the path and the clauses besides the cursor, the same on each of its pages. */
const queryKey = (w: Walk): string => `${w.first.read.path}\u0000${w.first.read.baseKey}`;
