/**
 * The traffic judge: the catalogue's rules and the client rules applied to exchanges nobody scripted.
 * The loop is here; each concern is in its room: who a client is and what it keeps (../sessions/),
 * which reads form a walk (../sessions/walks.ts), the server's verdicts (./server.ts), the client rules
 * with their listeners (../client-rules/), what is written down (./book.ts), memory (./budget.ts).
 *
 * Each exchange is read once: its request kind picks the server rules offered it (./offered-rules.ts), a
 * list read's page facts (../sessions/pages.ts) feed walk reconstruction, the client rules and ground truth.
 * Walk and session rules judge what is held when a walk ends, a chunk fills, or the budget says so.
 */
import { authorizationHeader, changesState, is2xx, isAdminWrite, isGet, isTimestampField, pathOf, asList, sameValue } from '../../rules/inspect.js';
import { DEFAULT_PAGE_LENGTH } from '../../limits.js';
import { clientRules } from '../client-rules/catalogue.js';
import type { ClientOutcome, EndContext, NextContext, RequestContext } from '../client-rules/rule.js';
import { retryUntil } from '../client-rules/retry.js';
import type { TrafficEntry } from '../entry.js';
import type { GroundTruth } from '../sessions/ground-truth.js';
import { pageFacts, pinOf, readOf, walkLabel, type ListRead, type PageFacts } from '../sessions/pages.js';
import { MAX_OPEN_WALKS, Session, type Walk } from '../sessions/session.js';
import { movesOn, stepFrom, type Step } from '../sessions/walks.js';
import { Book, levelOf } from './book.js';
import { DEFAULT_MAX_HELD_BYTES, HeldBudget, heldBytes } from './budget.js';
import { rulesFor, sessionRules, walkRules } from './offered-rules.js';
import type { Finding, InfraNote, TrafficResult } from './result.js';
import { serverJudging } from './server.js';
import { parentOf, settingsEvent } from './settings.js';
import { inShard, sessionKey, type Shard } from './shard.js';

export type { Finding, InfraNote, RuleTally, TrafficResult, WalkResult, Shed } from './result.js';

/** Pages a walk holds before its server rules are judged on them and all but the last are let go. */
export const CHUNK_PAGES = 50;
/** Exchanges a session holds for its session-scope rules before they are judged and let go. */
export const CHUNK_EXCHANGES = 400;
/** Open walks of one page per client (peeks, a page polled): past it the oldest is ended. */
const MAX_SINGLE_PAGE_WALKS = 8;
/** Clients judged at once; past it the longest-known one is judged and let go. */
const MAX_SESSIONS = 10_000;

export interface TrafficJudgeOptions {
  /**
   * The traffic holds every request the server received since it started, and nothing else changed its
   * data (proxy --upstream sim): failures resting on several exchanges stand. A function is asked each time.
   */
  readonly complete?: boolean | (() => boolean);
  /** Called as each finding is made (the proxy prints them). */
  readonly onFinding?: (finding: Finding) => void;
  readonly maxFindingsPerRule?: number;
  readonly maxWalks?: number;
  /** Ground truth: a simulator that knows every record (`--upstream sim`). */
  readonly groundTruth?: GroundTruth;
  /** What walks and sessions may hold for the server's rules, in estimated bytes (default 48 MiB). */
  readonly maxHeldBytes?: number;
  /** Judge only the clients of this shard (`check --shard I/N`); the others are not read. */
  readonly shard?: Shard;
}

export interface TrafficJudge {
  observe(entry: TrafficEntry): void;
  /** An infrastructure event (upstream unreachable, timeout, a body that cannot be decoded): reported, never a rule failure. */
  note(note: InfraNote): void;
  /** Lets a client go unjudged from now on (a proxy's judge fell behind): its state is dropped without verdicts, and counted. */
  forget(clientKey: string): void;
  /** Exchanges (of `clients` clients) that were never handed to this judge, to count in its result. */
  shed(exchanges: number, clients: number): void;
  /** Ends every open walk, judges what is held, and returns the result. */
  finish(): TrafficResult;
}

type Holder = Walk | Session;

const onRequest = clientRules.filter((r) => r.onRequest !== undefined);
const onNext = clientRules.filter((r) => r.onNext !== undefined);
const onEnd = clientRules.filter((r) => r.onEnd !== undefined);

export function createTrafficJudge(options: TrafficJudgeOptions = {}): TrafficJudge {
  const given = options.complete;
  const isComplete = typeof given === 'function' ? given : () => given === true;
  const book = new Book(options.maxFindingsPerRule ?? 20, options.maxWalks ?? 1_000, options.onFinding);
  const server = serverJudging(book, isComplete);
  const sessions = new Map<string, Session>();
  /** Every open walk of every client, the one used longest ago first. */
  const recency = new Set<Walk>();
  const budget = new HeldBudget<Holder>(options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES, (largest) => {
    // Judge and let go what the largest holder holds beyond a walk's last page; when that is all there is, end the walk used longest ago.
    if (largest instanceof Session) flushSession(largest);
    else if (largest !== undefined && largest.chunkPages > 1) flushWalk(largest, true);
    else {
      const idle = recency.values().next().value;
      if (idle === undefined) return false;
      endWalk(idle);
    }
    return true;
  });
  let walkSeq = 0;

  const walkName = (w: Walk): string => `${walkLabel(w.first.read, w.field)} #${w.n}`;

  /** A client rule's verdict: tallied, and a failure (or a documented rule's inconclusive) recorded with the exchanges it rests on. */
  const conduct = (ruleId: (typeof clientRules)[number]['id'], o: ClientOutcome, evidence: readonly TrafficEntry[], walk?: Walk) => {
    book.tally(ruleId, o.status);
    if (o.status === 'pass') return;
    const level = levelOf(ruleId);
    if (o.status === 'inconclusive' && level !== 'documented') return;
    if (walk !== undefined) {
      walk.findings++;
      if (o.status === 'fail') walk.cause ??= `the client: ${o.message}`;
    }
    book.record(
      {
        ruleId,
        level,
        party: 'client',
        status: o.status,
        message: o.status === 'fail' ? o.message : o.reason,
        ...(o.status === 'fail' ? { expected: o.expected, actual: o.actual } : {}),
        ...(walk === undefined ? {} : { walk: walkName(walk) }),
        evidence: evidence.map((e) => e.source),
      },
      evidence,
    );
  };

  const heard = {
    request: (ctx: RequestContext, entry: TrafficEntry) => {
      for (const r of onRequest) {
        const o = r.onRequest?.(ctx);
        if (o !== undefined) conduct(r.id, o, [entry]);
      }
    },
    next: (ctx: NextContext, evidence: readonly TrafficEntry[], w: Walk) => {
      for (const r of onNext) {
        const o = r.onNext?.(ctx);
        if (o !== undefined) conduct(r.id, o, evidence, w);
      }
    },
    end: (ctx: EndContext, w: Walk) => {
      for (const r of onEnd) {
        const o = r.onEnd?.(ctx);
        if (o !== undefined) conduct(r.id, o, [w.lastEntry], w);
      }
    },
  };

  const hold = (h: Holder, list: TrafficEntry[], entry: TrafficEntry) => {
    list.push(entry);
    budget.add(h, heldBytes(entry));
  };

  const flushSession = (s: Session) => {
    if (s.held.length > 0) for (const rule of sessionRules) server.judge(rule, s.held, s.vars);
    s.held = [];
    budget.release(s);
  };

  const flushWalk = (w: Walk, keepLast: boolean) => {
    if (w.chunkPages > 0) {
      const found = { name: walkName(w), found: () => void w.findings++ };
      for (const rule of walkRules) server.judge(rule, w.chunk, w.session.vars, found);
    }
    w.chunk = keepLast ? [w.lastEntry] : [];
    w.chunkPages = keepLast ? 1 : 0;
    budget.release(w, keepLast ? heldBytes(w.lastEntry) : 0);
  };

  const endWalk = (w: Walk) => {
    const s = w.session;
    s.walks.delete(w);
    recency.delete(w);
    flushWalk(w, false);
    heard.end({ ex: w.lastEntry.exchange, first: w.first, last: w.last, pages: w.pages, kind: w.kind, stepped: w.stepped, field: w.field, stopShown: s.seq > w.lastSeq }, w);
    // Its order: by the attribute it stepped on, else as its first read was sorted.
    const sort = w.first.read.sort;
    const order = w.stepped && w.field !== undefined ? { field: w.field, direction: 'asc' as const } : sort;
    const truth = w.truth?.finish({ ...(w.cause === undefined ? {} : { cause: w.cause }), ...(order === undefined ? {} : { order }), reachedEnd: w.last.short });
    book.walk({
      n: w.n,
      label: walkLabel(w.first.read, w.field),
      kind: w.kind,
      client: s.label,
      pages: w.pages,
      records: w.records,
      from: w.from,
      to: w.to,
      findings: w.findings,
      ...(truth === undefined ? {} : { truth }),
    });
  };

  const drop = (s: Session) => {
    for (const w of s.walks) {
      budget.release(w);
      recency.delete(w);
    }
    budget.release(s);
    sessions.delete(s.key);
  };

  const sessionOf = (key: string, entry: TrafficEntry): Session => {
    let s = sessions.get(key);
    if (s !== undefined) return s;
    if (sessions.size >= MAX_SESSIONS) {
      // The longest-known client is judged and let go: memory stays bounded whatever the number of clients.
      const oldest = sessions.values().next().value;
      if (oldest !== undefined) {
        for (const w of [...oldest.walks]) endWalk(w);
        flushSession(oldest);
        drop(oldest);
      }
    }
    const complete = isComplete();
    s = new Session(key, `client ${++book.clients}`, entry.origin, complete ? { page_length_known: true } : {}, complete);
    sessions.set(key, s);
    return s;
  };

  /** What the traffic says of the project's page length: for this client, or (an operator's action) for every client of that server. */
  const trackSettings = (s: Session, entry: TrafficEntry) => {
    const ev = settingsEvent(entry.exchange);
    if (ev === undefined) return;
    if (ev.kind === 'page-length') {
      s.pageLengthKnown = true;
      s.vars['page_length_known'] = true;
      s.vars['page_length'] = ev.n;
      // Written back to the document's default, the project is judged as an unchanged one again.
      if (ev.written) s.wrotePageLength = ev.n !== DEFAULT_PAGE_LENGTH;
      return;
    }
    for (const other of sessions.values()) {
      if (other.origin !== entry.origin) continue;
      flushSession(other);
      for (const w of [...other.walks]) endWalk(w);
      if (ev.keepsPageLength) continue;
      other.pageLengthKnown = isComplete() && ev.stated !== undefined;
      other.wrotePageLength = false;
      delete other.vars['page_length'];
      if (other.pageLengthKnown && ev.stated !== DEFAULT_PAGE_LENGTH) other.vars['page_length'] = ev.stated;
      other.vars['page_length_known'] = other.pageLengthKnown;
    }
  };

  /** The session's vars, plus the request's parent when a 2xx answer showed it exists. */
  const varsFor = (s: Session, entry: TrafficEntry): Readonly<Record<string, unknown>> => {
    const p = parentOf(entry.exchange);
    if (p === undefined) return s.vars;
    if (is2xx(entry.exchange.response.status)) s.knowParent(p.key);
    return s.knowsParent(p.key) ? { ...s.vars, realm_id: p.realm, user_authentication_info_id: p.uai } : s.vars;
  };

  const requestHeard = (s: Session, entry: TrafficEntry) => {
    const ex = entry.exchange;
    const t = entry.startedAt === undefined ? Number.NaN : Date.parse(entry.startedAt);
    const sentAt = Number.isNaN(t) ? undefined : t;
    const request = `${ex.request.method} ${ex.request.url}`;
    heard.request({ ex, sentAt, waitUntil: sentAt === undefined ? undefined : s.takeRetry(request) }, entry);
    if (ex.response.status === 429 && sentAt !== undefined) {
      const until = retryUntil(ex.response.headers['retry-after'], sentAt);
      if (until !== undefined) s.waitFor(request, until);
    }
  };

  /** Runs of ties the client read to their end: eq(attr,v) to a short page, or ge(attr,v) sorted by attr to a page past v. */
  const noteRuns = (s: Session, page: PageFacts) => {
    const read = page.read;
    const pin = pinOf(read);
    if (pin !== undefined && (page.short || (read.offset === 0 && page.resultsTotal !== undefined && page.resultsTotal <= page.count))) s.markDrained(read.path, pin.field, pin.value);
    const c = read.cursor;
    if (c === undefined || c.op !== 'ge' || !isTimestampField(c.field) || read.sort?.field !== c.field || read.sort.direction !== 'asc') return;
    const last = page.last[c.field];
    if (page.short || (last !== undefined && !sameValue(c.field, last, c.value))) s.markDrained(read.path, c.field, c.value);
  };

  const onListRead = (s: Session, entry: TrafficEntry) => {
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
    for (const open of [...s.walks].reverse()) {
      const st = stepFrom(open.last, read);
      if (st !== undefined) candidates.push({ walk: open, step: st, prev: open.last });
      else if (open.last.count === 0 && open.tail !== open.last) {
        const resumed = stepFrom(open.tail, read);
        if (resumed === 'next') candidates.push({ walk: open, step: resumed, prev: open.tail });
      }
    }
    // A walk keeps its page size and reads on from where it was: such a walk goes first (the sort is stable: then the most recent).
    if (candidates.length > 1) candidates.sort((a, b) => fit(b.prev, read) - fit(a.prev, read));
    const ctxOf = (c: { readonly walk: Walk; readonly step: Step; readonly prev: PageFacts }): NextContext => ({
      ex,
      prevEx: c.walk.lastEntry.exchange,
      step: c.step,
      prev: c.prev,
      page,
      first: c.walk.first,
      runs: s,
      wroteBetween: c.walk.wroteSinceLastPage,
    });
    const chosen = candidates.length < 2 ? candidates[0] : (candidates.find((c) => !onNext.some((r) => r.level === 'documented' && r.onNext?.(ctxOf(c))?.status === 'fail')) ?? candidates[0]);
    let w = chosen?.walk;
    const step = chosen?.step;
    const prev = chosen?.prev;
    if (w === undefined || step === undefined || prev === undefined) {
      // A client holds many walks open at once (workers sharing a credential walk alike): none is ended for
      // another's start. Bounded: single-page walks (peeks, a page polled) past a few, and all past MAX_OPEN_WALKS.
      const single = [...s.walks].filter((x) => x.pages === 1);
      if (single.length >= MAX_SINGLE_PAGE_WALKS && single[0] !== undefined) endWalk(single[0]);
      if (s.walks.size >= MAX_OPEN_WALKS) {
        const idle = s.walks.values().next().value;
        if (idle !== undefined) endWalk(idle);
      }
      w = {
        n: ++walkSeq,
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
        lastEntry: entry,
        lastSeq: s.seq,
        chunk: [],
        chunkPages: 0,
        wroteSinceLastPage: false,
        stepped: false,
        truth: options.groundTruth?.startWalk(read, entry),
      };
      s.walks.add(w);
      recency.add(w);
    } else {
      heard.next(ctxOf({ walk: w, step, prev }), [w.lastEntry, entry], w);
      // Resumed after its end (a sync's next run): the server's walk rules judge each pass apart, the last page of the one before kept.
      // An id walk's end is its empty page (§4.3); a short page before it is not one.
      if (w.last.short && (w.last.count === 0 || read.cursor?.field !== 'id')) flushWalk(w, true);
      if (step === 'next' && read.cursor !== undefined) {
        w.kind = 'keyset';
        w.field = read.cursor.field;
        w.stepped = true;
      }
      s.touch(w);
      recency.delete(w);
      recency.add(w);
    }
    w.pages++;
    w.records += page.count;
    w.last = page;
    if (page.count > 0) w.tail = page;
    w.lastEntry = entry;
    w.lastSeq = s.seq;
    w.to = entry.source;
    w.wroteSinceLastPage = false;
    hold(w, w.chunk, entry);
    w.chunkPages++;
    w.truth?.page(ex, read, entry);
    // After this read's judgements: what it drained excuses the requests that come after it, not itself.
    noteRuns(s, page);
    if (w.chunkPages >= CHUNK_PAGES) flushWalk(w, true);
  };

  /**
   * A write goes into the chunks of the client's open walks: the server's rules then know the data changed
   * under them. In complete traffic, into every client's walks and session chunk on that server: another
   * client's write changes what all of them read (without it, such failures are inconclusive anyway).
   */
  const onWrite = (s: Session, entry: TrafficEntry) => {
    const path = pathOf(entry.exchange.request.url).replace(/\/$/, '');
    for (const other of isComplete() ? sessions.values() : [s]) {
      if (other.origin !== s.origin) continue;
      // The client's own write is held with its exchanges below; another's goes into its session chunk here.
      if (other !== s) hold(other, other.held, entry);
      for (const w of other.walks) {
        if (w.chunk.length < CHUNK_PAGES * 4) hold(w, w.chunk, entry);
        if (other === s && (path.startsWith(`${w.first.read.path}/`) || path === w.first.read.path)) w.wroteSinceLastPage = true;
      }
    }
  };

  return {
    observe(raw) {
      const key = sessionKey(raw);
      if (options.shard !== undefined && !inShard(key, options.shard)) return;
      book.entries++;
      const entry = normalise(raw);
      const s = sessionOf(key, entry);
      s.seq++;
      if (entry.undecodable !== undefined) {
        book.note({
          kind: 'undecodable',
          message: `${entry.source}: ${entry.exchange.request.method} ${entry.exchange.request.url}: ${entry.undecodable}; not judged`,
          ...(entry.startedAt === undefined ? {} : { at: entry.startedAt }),
        });
        return;
      }
      const ex = entry.exchange;
      requestHeard(s, entry);
      trackSettings(s, entry);
      const vars = varsFor(s, entry);
      for (const rule of rulesFor(ex)) if (!(s.wrotePageLength && rule.id === 'pagination.limit.default')) server.judge(rule, [entry], vars);
      if (isGet(ex) && ex.response.status === 200 && asList(ex.json) !== undefined) onListRead(s, entry);
      else if (changesState(ex) && !isAdminWrite(ex)) onWrite(s, entry);
      hold(s, s.held, entry);
      if (s.held.length >= CHUNK_EXCHANGES) flushSession(s);
    },
    note(n) {
      book.note(n);
    },
    forget(key) {
      const s = sessions.get(key);
      if (s !== undefined) drop(s);
    },
    shed(exchanges, clients) {
      book.shedExchanges(exchanges, clients);
    },
    finish() {
      for (const s of sessions.values()) {
        for (const w of [...s.walks]) endWalk(w);
        flushSession(s);
      }
      return book.result(isComplete());
    },
  };
}

/** How well `read` continues a walk whose last page was `prev`: the same page size asked, and starting where that page ended. */
function fit(prev: PageFacts, read: ListRead): number {
  const sameSize = prev.read.limit === read.limit ? 2 : 0;
  const onFromEnd = read.offset === prev.read.offset + prev.count || (read.cursor !== undefined && read.offset === 0) ? 1 : 0;
  return sameSize + onFromEnd;
}

/** A request without credentials is judged as one sent without them (the rules' `auth: 'none'`). */
function normalise(entry: TrafficEntry): TrafficEntry {
  const req = entry.exchange.request;
  if (req.auth !== undefined) return entry;
  const auth = authorizationHeader(entry.exchange) === undefined ? 'none' : 'default';
  return { ...entry, exchange: { ...entry.exchange, request: { ...req, auth } } };
}

/** Judges a whole set of entries (a HAR's, a test's recording) and returns the result. */
export async function judgeTraffic(entries: Iterable<TrafficEntry> | AsyncIterable<TrafficEntry>, options: TrafficJudgeOptions = {}): Promise<TrafficResult> {
  const judge = createTrafficJudge(options);
  for await (const e of entries) judge.observe(e);
  return judge.finish();
}
