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
import { authorizationHeader, changesState, is2xx, isAdminWrite, isGet, asList } from '../../rules/inspect.js';
import { DEFAULT_PAGE_LENGTH } from '../../limits.js';
import type { TrafficEntry } from '../entry.js';
import type { GroundTruth } from '../sessions/ground-truth.js';
import { Session, type Walk } from '../sessions/session.js';
import { Book } from './book.js';
import { DEFAULT_MAX_HELD_BYTES, HeldBudget } from './budget.js';
import { heldForm, widen } from './held.js';
import { clientVerdicts } from './client-verdicts.js';
import { rulesFor, sessionRules } from './offered-rules.js';
import type { Finding, InfraNote, TrafficResult } from './result.js';
import { serverJudging } from './server.js';
import { parentOf, settingsEvent } from './settings.js';
import { inShard, sessionKey, type Shard } from './shard.js';
import { Walking } from './walking.js';

export { CHUNK_PAGES } from './walking.js';

export type { Deliberate, DeliberateFinding, Finding, FindingBase, InfraNote, RuleTally, TrafficResult, WalkResult, Shed } from './result.js';

/** Exchanges a session holds for its session-scope rules before they are judged and let go. */
export const CHUNK_EXCHANGES = 400;
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
  /** Client rules whose every finding is deliberate (`--expect`): traffic that tests the server's refusals and cannot be marked. */
  readonly expect?: readonly string[];
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

export function createTrafficJudge(options: TrafficJudgeOptions = {}): TrafficJudge {
  const given = options.complete;
  const isComplete = typeof given === 'function' ? given : () => given === true;
  const book = new Book(options.maxFindingsPerRule ?? 20, options.maxWalks ?? 1_000, options.onFinding);
  const server = serverJudging(book, isComplete);
  const sessions = new Map<string, Session>();
  const verdicts = clientVerdicts(book, new Set(options.expect ?? []));
  const budget: HeldBudget<Holder> = new HeldBudget<Holder>(options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES, (largest) => {
    // Judge and let go what the largest holder holds beyond a walk's last page; when that is all there is, end the walk used longest ago.
    if (largest instanceof Session) flushSession(largest);
    else if (largest !== undefined && largest.chunkPages > 1) walking.flushWalk(largest, true);
    else {
      const idle = walking.recency.values().next().value;
      if (idle === undefined) return false;
      walking.endWalk(idle);
    }
    return true;
  });
  const walking = new Walking({ book, server, verdicts, budget, sessions, isComplete, groundTruth: options.groundTruth });

  const flushSession = (s: Session) => {
    if (s.held.length > 0) {
      widen(s.held);
      for (const rule of sessionRules) server.judge(rule, s.held, s.vars);
    }
    const held = s.held;
    s.held = [];
    budget.release(s, held);
  };

  const drop = (s: Session) => {
    walking.forget(s);
    budget.release(s, s.held);
    s.held = [];
    sessions.delete(s.key);
  };

  const sessionOf = (key: string, entry: TrafficEntry): Session => {
    let s = sessions.get(key);
    if (s !== undefined) return s;
    if (sessions.size >= MAX_SESSIONS) {
      // The longest-known client is judged and let go: memory stays bounded whatever the number of clients.
      const oldest = sessions.values().next().value;
      if (oldest !== undefined) {
        for (const w of [...oldest.walks]) walking.endWalk(w);
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
      if (ev.written) s.vars['page_length_written'] = ev.n !== DEFAULT_PAGE_LENGTH;
      return;
    }
    for (const other of sessions.values()) {
      if (other.origin !== entry.origin) continue;
      flushSession(other);
      for (const w of [...other.walks]) walking.endWalk(w);
      if (ev.keepsPageLength) continue;
      other.pageLengthKnown = isComplete() && ev.stated !== undefined;
      other.vars['page_length_written'] = false;
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
    const t = entry.startedAt === undefined ? Number.NaN : Date.parse(entry.startedAt);
    verdicts.request(s, { ex: entry.exchange, entry, sentAt: Number.isNaN(t) ? undefined : t }, entry);
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
      for (const rule of rulesFor(ex)) {
        const unless = rule.onTraffic.notOfferedWhen;
        if (unless === undefined || vars[unless] !== true) server.judge(rule, [entry], vars);
      }
      s.noteCreate(ex);
      // Past this turn, walks and sessions hold the exchange in its held form: no parsed record outlives it.
      const held = heldForm(entry);
      if (isGet(ex) && ex.response.status === 200 && asList(ex.json) !== undefined) walking.onListRead(s, entry, held);
      else if (changesState(ex) && !isAdminWrite(ex)) walking.onWrite(s, entry, held);
      walking.hold(s, s.held, held);
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
        for (const w of [...s.walks]) walking.endWalk(w);
        flushSession(s);
      }
      return book.result(isComplete());
    },
  };
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
