/**
 * The walks of every client as the judge follows them: which walk a list read continues (or starts), the
 * client rules at each step and at a walk's end, the walk-scope server rules on what a walk holds, and
 * ground truth. Bounded: open walks per client, single-page walks, and what walks hold (the budget).
 */
import { pathOf, sameValue, isTimestampField } from '../../rules/inspect.js';
import type { NextContext } from '../client-rules/rule.js';
import type { TrafficEntry } from '../entry.js';
import type { GroundTruth } from '../sessions/ground-truth.js';
import { pageFacts, pinOf, readOf, walkLabel, type ListRead, type PageFacts } from '../sessions/pages.js';
import { MAX_OPEN_WALKS, walkName, type Session, type Walk } from '../sessions/session.js';
import { movesOn, rereadOf, stepFrom, type Step } from '../sessions/walks.js';
import type { Book } from './book.js';
import type { HeldBudget } from './budget.js';
import type { ClientVerdicts } from './client-verdicts.js';
import { widen } from './held.js';
import { walkRules } from './offered-rules.js';
import type { ServerJudging } from './server.js';

/** Pages a walk holds before its server rules are judged on them and all but the last are let go. */
export const CHUNK_PAGES = 50;
/** Open walks of one page per client (peeks, a page polled): past it the oldest is ended. */
const MAX_SINGLE_PAGE_WALKS = 8;

export interface WalkingDeps {
  readonly book: Book;
  readonly server: ServerJudging;
  readonly verdicts: ClientVerdicts;
  readonly budget: HeldBudget<Walk | Session>;
  readonly sessions: ReadonlyMap<string, Session>;
  readonly isComplete: () => boolean;
  readonly groundTruth: GroundTruth | undefined;
}

export class Walking {
  /** Every open walk of every client, the one used longest ago first. */
  readonly recency = new Set<Walk>();
  private walkSeq = 0;

  constructor(private readonly d: WalkingDeps) {}

  hold(h: Walk | Session, list: TrafficEntry[], entry: TrafficEntry): void {
    list.push(entry);
    this.d.budget.add(h, entry);
  }

  /** Lets a client's walks go without verdicts (the client is forgotten). */
  forget(s: Session): void {
    for (const w of s.walks) {
      this.d.budget.release(w, w.chunk);
      this.recency.delete(w);
    }
  }

  /** Judges the walk-scope server rules on what the walk holds, and lets it go (but its last page when `keepLast`). */
  flushWalk(w: Walk, keepLast: boolean): void {
    if (w.chunkPages > 0) {
      widen(w.chunk);
      const found = { name: walkName(w), found: () => void w.findings++ };
      for (const rule of walkRules) this.d.server.judge(rule, w.chunk, w.session.vars, found);
    }
    // The last page (held once, as the walk's last read) stays; everything else is let go.
    const dropped = keepLast ? w.chunk.filter((e) => e !== w.lastHeld) : w.chunk;
    w.chunk = keepLast ? [w.lastHeld] : [];
    w.chunkPages = keepLast ? 1 : 0;
    this.d.budget.release(w, dropped, w.chunk);
  }

  /** Ends the walk: its chunk judged, the client rules at its end, ground truth, a line in the this.d.book. */
  endWalk(w: Walk): void {
    const s = w.session;
    s.close(w);
    this.recency.delete(w);
    this.flushWalk(w, false);
    const ended = {
      ex: w.lastHeld.exchange,
      first: w.first,
      last: w.last,
      pages: w.pages,
      kind: w.kind,
      stepped: w.stepped,
      field: w.field,
      stopShown: s.seq > w.lastSeq,
      addedNothing: w.addedNothing,
      runs: s,
    };
    // A later read that could have continued this walk, taken by another: had it been this walk's, this is where it ended.
    const shadow = w.shadow;
    const otherwise = shadow === undefined ? undefined : { ...ended, ex: shadow.held.exchange, last: shadow.page, pages: w.pages + 1, stopShown: s.seq > shadow.seq, addedNothing: false };
    const endedByMistake = this.d.verdicts.end(ended, w, otherwise);
    // Its order: by the attribute it stepped on, else as its first read was sorted.
    const sort = w.first.read.sort;
    const order = w.stepped && w.field !== undefined ? { field: w.field, direction: 'asc' as const } : sort;
    // A walk the client ended taking it for done (a short page of an id walk, a run it gave up on) read to what it took for its end: what it left is lost.
    const truth = w.truth?.finish({ ...(w.cause === undefined ? {} : { cause: w.cause }), ...(order === undefined ? {} : { order }), reachedEnd: w.last.short || endedByMistake });
    this.d.book.walk({
      n: w.n,
      label: walkLabel(w.first.read, w.field),
      kind: w.kind,
      client: s.label,
      pages: w.pages,
      records: w.records,
      from: w.from,
      to: w.to,
      findings: w.findings,
      ...(w.reread === 0 ? {} : { reread: w.reread }),
      ...(truth === undefined ? {} : { truth }),
    });
  }

  /** Runs of ties the client read to their end: eq(attr,v) to a short page, or ge(attr,v) sorted by attr to a page past v. */
  private noteRuns(s: Session, page: PageFacts): void {
    const read = page.read;
    const pin = pinOf(read);
    if (pin !== undefined && (page.short || (read.offset === 0 && page.resultsTotal !== undefined && page.resultsTotal <= page.count))) s.markDrained(read.path, pin.field, pin.value);
    const c = read.cursor;
    if (c === undefined || c.op !== 'ge' || !isTimestampField(c.field) || read.sort?.field !== c.field || read.sort.direction !== 'asc') return;
    const last = page.last[c.field];
    if (page.short || (last !== undefined && !sameValue(c.field, last, c.value))) s.markDrained(read.path, c.field, c.value);
  }

  /**
   * A list read answered 200: which walk it continues (or starts), the client rules at that step, ground truth.
   * `held` is the form the walk's chunk holds for its server rules (./held.ts); the rest reads `entry` in its turn.
   */
  onListRead(s: Session, entry: TrafficEntry, held: TrafficEntry): void {
    const ex = entry.exchange;
    const read = readOf(ex);
    if (read === undefined) return;
    const page = pageFacts(read, ex);
    const pin = pinOf(read);
    // A read of one value alone drains the run of ties a walk stopped at: its records count toward that walk.
    if (pin !== undefined) {
      for (const open of s.walks) {
        const v = open.last.last[pin.field];
        if (open.first.read.path === read.path && open.field === pin.field && v !== undefined && sameValue(pin.field, v, pin.value)) open.truth?.also(ex);
      }
    }
    // The walks this read may continue, the most recently used first; where several may, the client is
    // judged as continuing one it broke no rule in, if there is one (a verdict must hold under every reading
    // of which walk a read continues).
    // After an empty last page, a walk resumes from the last value it was given: its last page with records.
    const candidates: { readonly walk: Walk; readonly step: Step; readonly prev: PageFacts }[] = [];
    for (const open of s.walksOf(read)) {
      const st = stepFrom(open.last, read);
      if (st !== undefined) candidates.push({ walk: open, step: st, prev: open.last });
      else if (open.last.count === 0 && open.tail !== open.last) {
        const resumed = stepFrom(open.tail, read);
        if (resumed === 'next') candidates.push({ walk: open, step: resumed, prev: open.tail });
      }
    }
    // A walk keeps its page size and reads on from where it was: such a walk goes first (the sort is stable: then the most recent).
    // The same read as a walk's last is a retry of it, unless another walk reads on exactly from where its last page
    // ended (two workers walking alike read the same pages), or it had ended on an empty page (an export run twice).
    if (candidates.length > 1) candidates.sort((a, b) => fit(b, read) - fit(a, read));
    const ctxOf = (c: { readonly walk: Walk; readonly step: Step; readonly prev: PageFacts }): NextContext => ({
      ex,
      prevEx: c.walk.lastHeld.exchange,
      step: c.step,
      prev: c.prev,
      page,
      first: c.walk.first,
      runs: s,
      wroteBetween: c.walk.wroteSinceLastPage,
    });
    const chosen = candidates.length < 2 ? candidates[0] : (candidates.find((c) => !this.d.verdicts.breaks(s, ctxOf(c))) ?? candidates[0]);
    // The walks it could have continued and did not: where they end is judged under that reading too.
    for (const c of candidates) if (c !== chosen && c.step !== 'again') c.walk.shadow = { page, held, seq: s.seq };
    let w = chosen?.walk;
    const step = chosen?.step;
    const prev = chosen?.prev;
    if (w === undefined || step === undefined || prev === undefined) {
      // A client holds many walks open at once (workers sharing a credential walk alike): none is ended for
      // another's start. Bounded: single-page walks (peeks, a page polled) past a few, and all past MAX_OPEN_WALKS.
      const single = [...s.walks].filter((x) => x.pages === 1);
      if (single.length >= MAX_SINGLE_PAGE_WALKS && single[0] !== undefined) this.endWalk(single[0]);
      if (s.walks.size >= MAX_OPEN_WALKS) {
        const idle = s.walks.values().next().value;
        if (idle !== undefined) this.endWalk(idle);
      }
      w = {
        n: ++this.walkSeq,
        session: s,
        kind: read.cursor === undefined ? 'offset' : 'keyset',
        field: movesOn(read),
        from: entry.source,
        to: entry.source,
        pages: 0,
        records: 0,
        findings: 0,
        first: page,
        last: page,
        tail: page,
        lastHeld: held,
        lastSeq: s.seq,
        chunk: [],
        chunkPages: 0,
        wroteSinceLastPage: false,
        stepped: false,
        reread: 0,
        addedNothing: false,
        truth: this.d.groundTruth?.startWalk(read, entry),
      };
      s.open(w);
      this.recency.add(w);
    } else {
      // The same read again (a retry, a refresh) takes no step: nothing for the client rules to judge.
      if (step !== 'again') this.d.verdicts.next(ctxOf({ walk: w, step, prev }), [w.lastHeld, entry], w);
      const again = rereadOf(prev, page, step);
      w.reread += again;
      if (step === 'again' && w.pages === 1) {
        // A first page read again (a retry after a lost answer, a widget polled): the walk begins anew from this answer.
        w.first = page;
        w.pages = 0;
        w.records = 0;
        w.truth = this.d.groundTruth?.startWalk(read, entry);
      }
      // A retry of the same read says nothing new of where the walk stands.
      if (step !== 'again') w.addedNothing = page.count > 0 && again >= page.count;
      // Resumed after its end (a sync's next run): the server's walk rules judge each pass apart, the last page of the one before kept.
      // An id walk's end is its empty page (§4.3); a short page before it is not one.
      if (step !== 'again' && w.last.short && (w.last.count === 0 || read.cursor?.field !== 'id')) this.flushWalk(w, true);
      if (step === 'next' && read.cursor !== undefined) {
        w.kind = 'keyset';
        w.field = read.cursor.field;
        w.stepped = true;
      }
      s.touch(w);
      this.recency.delete(w);
      this.recency.add(w);
    }
    w.pages++;
    w.records += page.count;
    w.last = page;
    if (page.count > 0) w.tail = page;
    w.lastHeld = held;
    w.lastSeq = s.seq;
    w.to = entry.source;
    w.wroteSinceLastPage = false;
    w.shadow = undefined;
    this.hold(w, w.chunk, held);
    w.chunkPages++;
    w.truth?.page(ex, read, entry, step === 'again' && w.pages > 1);
    // After this read's judgements: what it drained excuses the requests that come after it, not itself.
    this.noteRuns(s, page);
    if (w.chunkPages >= CHUNK_PAGES) this.flushWalk(w, true);
  }

  /**
   * A write goes into the chunks of the client's open walks: the server's rules then know the data changed
   * under them. In complete traffic, into every client's walks and session chunk on that server: another
   * client's write changes what all of them read (without it, such failures are inconclusive anyway).
   */
  onWrite(s: Session, entry: TrafficEntry, held: TrafficEntry): void {
    const path = pathOf(entry.exchange.request.url).replace(/\/$/, '');
    for (const other of this.d.isComplete() ? this.d.sessions.values() : [s]) {
      if (other.origin !== s.origin) continue;
      // The client's own write is held with its exchanges below; another's goes into its session chunk here.
      if (other !== s) this.hold(other, other.held, held);
      for (const w of other.walks) {
        if (w.chunk.length < CHUNK_PAGES * 4) this.hold(w, w.chunk, held);
        if (other === s && (path.startsWith(`${w.first.read.path}/`) || path === w.first.read.path)) w.wroteSinceLastPage = true;
      }
    }
  }
}

/**
 * How well `read` continues a candidate walk: the same page size asked, and starting where its last page ended (3);
 * its very read again, a retry (2.5), unless that walk had ended on an empty page (last of all); the same size (2).
 */
function fit(c: { readonly walk: Walk; readonly step: Step; readonly prev: PageFacts }, read: ListRead): number {
  if (c.step === 'again') return c.prev.count === 0 ? -1 : 2.5;
  const prev = c.prev;
  const sameSize = prev.read.limit === read.limit ? 2 : 0;
  const onFromEnd = read.offset === prev.read.offset + prev.count || (read.cursor !== undefined && read.offset === 0) ? 1 : 0;
  return sameSize + onFromEnd;
}
