/**
 * The traffic judge: the catalogue's rules and the client rules applied to exchanges nobody scripted.
 * Exchanges are grouped by client (origin and credentials, kept only as a hash) into sessions, and a
 * session's list reads into walks (./walks.ts). Each server rule gets the history its scope says
 * (src/rules/scopes.ts): one exchange, one walk's pages, or a session's exchanges in bounded chunks;
 * the client's conduct is judged as its walks unfold (./conduct.ts). Memory is bounded: a walk keeps
 * at most CHUNK_PAGES pages and a session CHUNK_EXCHANGES exchanges before they are judged and let go.
 *
 * Verdict integrity is the kit's: documented failures go through `judgeRule` (outside the documented
 * surface → inconclusive), and a failure that rests on several exchanges stands only when the traffic
 * is `complete` (it holds every request the server received since it started): otherwise another
 * client's write between the reads would explain it, and it is inconclusive with that reason.
 */
import type { Exchange } from '../../port.js';
import { catalogue } from '../../rules/catalogue.js';
import { clientRuleById, clientRules, type ClientRuleId } from '../client-rules/catalogue.js';
import { evidenceFor, judgeRule, type RuleJudgement } from '../../rules/judge.js';
import { asList, at, authorizationHeader, profilePath, changesState, is2xx, isAdminWrite, isGet, isSettingsPath, methodIs, pathOf, requestJson } from '../../rules/inspect.js';
import { inconclusive, type Level, type Outcome, type Rule } from '../../rules/rule.js';
import { classifyRequest, gapsFor } from '../../rules/surface.js';
import { DEFAULT_PAGE_LENGTH } from '../../limits.js';
import { excerpt } from '../../report/redact.js';
import { drainsRun, onNextPage, onOffset, onOffsetPage, onRetry, onWalkEnd, pinOf, retryUntil, type ConductJudgement } from '../client-rules/conduct.js';
import type { TrafficEntry } from '../entry.js';
import { rulesFor, sessionRules, walkRules } from './offered-rules.js';
import type { Finding, InfraNote, RuleTally, TrafficResult, WalkResult } from './result.js';
import { continues, kindOf, readOf, summarise, walkField, walkLabel, type PageSummary, type WalkKind } from '../sessions/walks.js';
import type { GroundTruth, WalkTracker } from '../sessions/ground-truth.js';

export type { Finding, InfraNote, RuleTally, TrafficResult, WalkResult } from './result.js';

/** Pages a walk holds before its server rules are judged on them and all but the last are let go. */
export const CHUNK_PAGES = 50;
/** Exchanges a session holds for its session-scope rules before they are judged and let go. */
export const CHUNK_EXCHANGES = 400;
/** Open walks per session; past it the longest-idle walk is ended. */
const MAX_OPEN_WALKS = 64;
/** Timestamp runs per session remembered as read to their end. */
const MAX_RUNS = 256;
const MAX_RETRIES = 256;
/** Clients judged at once; past it the longest-known one is judged and let go. */
const MAX_SESSIONS = 10_000;

export interface TrafficJudgeOptions {
  /** The traffic holds every request the server received since it started (proxy --upstream sim). */
  readonly complete?: boolean;
  /** Called as each finding is made (the proxy prints them). */
  readonly onFinding?: (finding: Finding) => void;
  readonly maxFindingsPerRule?: number;
  readonly maxWalks?: number;
  /** Ground truth: a simulator that knows every record (`--upstream sim`). */
  readonly groundTruth?: GroundTruth;
}

export interface TrafficJudge {
  observe(entry: TrafficEntry): void;
  /** An infrastructure event (upstream unreachable, timeout): reported, never a rule failure. */
  note(note: InfraNote): void;
  /** Ends every open walk, judges what is held, and returns the result. */
  finish(): TrafficResult;
}

interface Walk {
  readonly n: number;
  readonly label: string;
  kind: WalkKind;
  readonly session: Session;
  readonly from: string;
  to: string;
  pages: number;
  records: number;
  findings: number;
  first: PageSummary;
  last: PageSummary;
  lastEntry: TrafficEntry;
  /** The pages (and the client's writes meanwhile) not yet judged by the walk-scope rules. */
  chunk: TrafficEntry[];
  chunkPages: number;
  wroteSinceLastPage: boolean;
  /** The walk's first finding about the client: where a ground-truth table says records were lost. */
  cause?: string;
  truth?: WalkTracker;
}

interface Session {
  readonly label: string;
  readonly origin: string;
  readonly vars: Record<string, unknown>;
  /** Whether the project's page length is known: observed, or the traffic is complete and nothing reset it. */
  pageLengthKnown: boolean;
  /** The client wrote the page length itself: lists without page[limit] are pagination.limit.project-setting's to judge. */
  wrotePageLength: boolean;
  held: TrafficEntry[];
  readonly walks: Map<string, Walk>;
  readonly runs: Set<string>;
  readonly retries: Map<string, number>;
  /** Parents (realm and user-authentication-info) a 2xx answer showed exist: a create on one of them is judged as on a known parent. */
  readonly parents: Set<string>;
}

export function createTrafficJudge(options: TrafficJudgeOptions = {}): TrafficJudge {
  const complete = options.complete === true;
  const maxFindings = options.maxFindingsPerRule ?? 20;
  const maxWalks = options.maxWalks ?? 1_000;
  const tallies = new Map<string, RuleTally>();
  for (const r of catalogue) tallies.set(r.id, { passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
  for (const r of clientRules) tallies.set(r.id, { passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
  const findings: Finding[] = [];
  const kept = new Map<string, number>();
  const walks: WalkResult[] = [];
  const infrastructure: InfraNote[] = [];
  const sessions = new Map<string, Session>();
  let entries = 0;
  let walkCount = 0;
  let clientCount = 0;

  const tally = (id: string, status: Outcome['status']) => {
    const t = tallies.get(id);
    if (t === undefined) return;
    if (status === 'pass') t.passed++;
    else if (status === 'fail') t.failed++;
    else if (status === 'inconclusive') t.inconclusive++;
    else t.skipped++;
  };

  /** A finding, its evidence excerpted (redacted, cut) only when it is kept: past the first few per rule it is counted. */
  const record = (base: Omit<Finding, 'exchanges'>, evidence: readonly TrafficEntry[]) => {
    const n = kept.get(base.ruleId) ?? 0;
    kept.set(base.ruleId, n + 1);
    const keep = n < maxFindings;
    if (!keep && options.onFinding === undefined) return;
    const f: Finding = { ...base, exchanges: keep ? evidence.map((e) => excerpt(e.exchange, { evidence: true })) : [] };
    if (keep) findings.push(f);
    try {
      options.onFinding?.(f);
    } catch {
      // A printer's failure never stops the judging.
    }
  };

  /** Judges one server rule on `held`, reviewing multi-exchange documented failures when the traffic is not complete. */
  const judgeServer = (rule: Rule, all: readonly TrafficEntry[], vars: Readonly<Record<string, unknown>>, walk?: Walk) => {
    // A read outside the documented surface can support no documented verdict and changes nothing: over
    // several exchanges it is left out, so it does not make the rest inconclusive. Writes stay.
    // So is a request refused for credentials or rate (401, 403, 407, 429): it observed nothing.
    const held = all.length > 1 && rule.level === 'documented' ? all.filter((h) => changesState(h.exchange) || !(outsideFor(rule, h.exchange) || REFUSED.has(h.exchange.response.status))) : all;
    const exchanges = held.map((h) => h.exchange);
    const ctx = { exchanges, vars };
    // A write the server accepted (2xx) is a fact the verdict rests on, not a reading it assumes.
    const verified = new Set(exchanges.filter((ex) => changesState(ex)));
    const judged = judgeRule(rule, ctx, verified).map((j) => reviewForTraffic(rule, j, ctx, vars));
    for (const j of judged) {
      tally(j.ruleId, j.outcome.status);
      if (j.outcome.status !== 'fail' && j.outcome.status !== 'inconclusive') continue;
      // Inconclusive verdicts are counted, and kept only when they are about a documented rule.
      const level = catalogueLevel(j.ruleId);
      if (j.outcome.status === 'inconclusive' && level !== 'documented') continue;
      const idx = j.outcome.status === 'fail' ? evidenceFor(rule, ctx) : exchanges.map((_e, i) => i);
      const evidence = idx.slice(0, 5).flatMap((i) => (held[i] === undefined ? [] : [held[i]]));
      if (walk !== undefined) walk.findings++;
      record(
        {
          ruleId: j.ruleId,
          level,
          party: 'server',
          status: j.outcome.status,
          message: j.outcome.status === 'fail' ? j.outcome.message : j.outcome.reason,
          ...(j.outcome.status === 'fail' ? { expected: j.outcome.expected, actual: j.outcome.actual } : {}),
          ...(walk === undefined ? {} : { walk: `${walk.label} #${walk.n}` }),
          evidence: evidence.map((e) => e.source),
        },
        evidence,
      );
    }
  };

  /** A documented failure that rests on several exchanges: only complete traffic rules out another client's writes. */
  const reviewForTraffic = (rule: Rule, j: RuleJudgement, ctx: { exchanges: readonly Exchange[]; vars: Readonly<Record<string, unknown>> }, vars: Readonly<Record<string, unknown>>): RuleJudgement => {
    if (j.outcome.status !== 'fail' || rule.level !== 'documented' || j.ruleId !== rule.id) return j;
    if (rule.id === 'pagination.limit.default' && vars['page_length_known'] !== true) {
      return {
        ruleId: rule.id,
        outcome: inconclusive("the project's page length is not known from this traffic (§8: it is changeable per project; a GET or write of the settings endpoint in the traffic tells it)"),
      };
    }
    if (complete || ctx.exchanges.length < 2) return j;
    const alone = evidenceFor(rule, ctx).some((i) => {
      const ex = ctx.exchanges[i];
      return ex !== undefined && judgeRule(rule, { exchanges: [ex], vars: ctx.vars })[0]?.outcome.status === 'fail';
    });
    if (alone) return j;
    return {
      ruleId: rule.id,
      outcome: inconclusive(
        `${j.outcome.message}; but this verdict rests on several exchanges, and the traffic is not known to hold every write the server received (another client's write between them would explain it; pass --complete when it does)`,
      ),
    };
  };

  const judgeConduct = (judgements: readonly ConductJudgement[], entries: readonly TrafficEntry[], walk?: Walk) => {
    for (const j of judgements) {
      tally(j.ruleId, j.outcome.status);
      if (j.outcome.status !== 'fail') continue;
      if (walk !== undefined) {
        walk.findings++;
        walk.cause ??= `the client: ${j.outcome.message}`;
      }
      const rule = clientRuleById(j.ruleId);
      record(
        {
          ruleId: j.ruleId,
          level: rule?.level ?? 'assumed',
          party: 'client',
          status: 'fail',
          message: j.outcome.message,
          expected: j.outcome.expected,
          actual: j.outcome.actual,
          ...(walk === undefined ? {} : { walk: `${walk.label} #${walk.n}` }),
          evidence: entries.map((e) => e.source),
        },
        entries,
      );
    }
  };

  const sessionOf = (entry: TrafficEntry): Session => {
    const auth = authorizationHeader(entry.exchange);
    // Kept in memory only: reports name a session `client N`, never by its credentials.
    const key = `${entry.origin}\u0000${auth ?? ''}`;
    let s = sessions.get(key);
    if (s === undefined) {
      if (sessions.size >= MAX_SESSIONS) {
        // The longest-known client is judged and let go: memory stays bounded whatever the number of clients.
        const [oldKey, oldest] = sessions.entries().next().value ?? [];
        if (oldest !== undefined && oldKey !== undefined) {
          for (const w of [...oldest.walks.values()]) endWalk(w);
          flushSession(oldest);
          sessions.delete(oldKey);
        }
      }
      s = {
        label: `client ${++clientCount}`,
        origin: entry.origin,
        vars: complete ? { page_length_known: true } : {},
        pageLengthKnown: complete,
        wrotePageLength: false,
        held: [],
        walks: new Map(),
        runs: new Set(),
        retries: new Map(),
        parents: new Set(),
      };
      sessions.set(key, s);
    }
    return s;
  };

  const flushSession = (s: Session) => {
    if (s.held.length === 0) return;
    for (const rule of sessionRules) judgeServer(rule, s.held, s.vars);
    s.held = [];
  };

  const flushWalk = (w: Walk, keepLast: boolean) => {
    if (w.chunkPages > 0) for (const rule of walkRules) judgeServer(rule, w.chunk, w.session.vars, w);
    w.chunk = keepLast ? [w.lastEntry] : [];
    w.chunkPages = keepLast ? 1 : 0;
  };

  const endWalk = (w: Walk) => {
    w.session.walks.delete(keyOfWalk(w));
    flushWalk(w, false);
    judgeConduct(onWalkEnd(w.first, w.last, w.pages, w.lastEntry.exchange, runsOf(w.session), w.lastEntry.exchange.response.headers['date']), [w.lastEntry], w);
    const truth = w.truth?.finish(w.cause);
    walkCount++;
    if (walks.length < maxWalks || w.findings > 0) {
      walks.push({
        n: w.n,
        label: w.label,
        kind: w.kind,
        client: w.session.label,
        pages: w.pages,
        records: w.records,
        from: w.from,
        to: w.to,
        findings: w.findings,
        ...(truth === undefined ? {} : { truth }),
      });
    }
  };

  const walkKeys = new WeakMap<Walk, string>();
  const keyOfWalk = (w: Walk): string => walkKeys.get(w) ?? '';

  const runsOf = (s: Session) => ({ has: (field: string, value: string) => s.runs.has(`${field} ${Date.parse(value)}`) || s.runs.has(`${field} ${value}`) });

  const onListRead = (s: Session, entry: TrafficEntry) => {
    const ex = entry.exchange;
    const read = readOf(ex);
    if (read === undefined) return;
    const page = summarise(read, ex);
    const pin = pinOf(read);
    if (pin !== undefined && drainsRun(page)) {
      if (s.runs.size >= MAX_RUNS) s.runs.clear();
      s.runs.add(`${pin.field} ${Number.isNaN(Date.parse(pin.value)) ? pin.value : Date.parse(pin.value)}`);
    }
    if (pin !== undefined) for (const open of s.walks.values()) if (open.first.read.path === read.path && walkField(open.first.read) === pin.field) open.truth?.also(ex);
    let w = s.walks.get(read.key);
    if (w !== undefined && !continues(w.last, read)) {
      endWalk(w);
      w = undefined;
    }
    if (w === undefined) {
      if (s.walks.size >= MAX_OPEN_WALKS) {
        const oldest = s.walks.values().next().value;
        if (oldest !== undefined) endWalk(oldest);
      }
      w = {
        n: ++walkSeq,
        label: walkLabel(read),
        kind: kindOf(read),
        session: s,
        from: entry.source,
        to: entry.source,
        pages: 0,
        records: 0,
        findings: 0,
        first: page,
        last: page,
        lastEntry: entry,
        chunk: [],
        chunkPages: 0,
        wroteSinceLastPage: false,
        ...(options.groundTruth === undefined ? {} : { truth: options.groundTruth.startWalk(read, entry) }),
      };
      walkKeys.set(w, read.key);
      s.walks.set(read.key, w);
    } else {
      const judgements = onNextPage(w.last, read, ex, runsOf(s));
      if (read.cursor === undefined && w.last.read.cursor === undefined) judgements.push(onOffsetPage(w.last, page, w.wroteSinceLastPage, ex));
      judgeConduct(judgements, [w.lastEntry, entry], w);
      if (read.cursor !== undefined) w.kind = 'keyset';
      // Re-inserted: the map's order is the order of last use, so the longest-idle walk ends first.
      s.walks.delete(read.key);
      s.walks.set(read.key, w);
    }
    w.pages++;
    w.records += page.count;
    w.last = page;
    w.lastEntry = entry;
    w.to = entry.source;
    w.wroteSinceLastPage = false;
    w.chunk.push(entry);
    w.chunkPages++;
    w.truth?.page(ex, entry);
    if (w.chunkPages >= CHUNK_PAGES) flushWalk(w, true);
  };
  let walkSeq = 0;

  const onWrite = (s: Session, entry: TrafficEntry) => {
    const path = pathOf(entry.exchange.request.url).replace(/\/$/, '');
    for (const w of s.walks.values()) {
      if (w.chunk.length >= CHUNK_PAGES * 4) continue;
      w.chunk.push(entry);
      if (path.startsWith(`${w.first.read.path}/`) || path === w.first.read.path) w.wroteSinceLastPage = true;
    }
  };

  const trackSettings = (s: Session, entry: TrafficEntry) => {
    const ex = entry.exchange;
    if (isAdminWrite(ex)) {
      // The operator (the simulator's admin API, whatever credentials it came with) may have changed
      // anything for every client of that server: what each held is judged now, and the page length
      // is known again only from the settings endpoint.
      const op = pathOf(ex.request.url).replace(/\/$/, '');
      // Reset and reseed start the projects afresh (page length 25); restore and settings set it to anything.
      const keeps = op === '/__sim/clock' || op.startsWith('/__sim/adversity');
      const fresh = op === '/__sim/reset' || op === '/__sim/seed';
      for (const other of sessions.values()) {
        if (other.origin !== entry.origin) continue;
        flushSession(other);
        for (const w of [...other.walks.values()]) endWalk(w);
        if (keeps) continue;
        const stated = fresh ? DEFAULT_PAGE_LENGTH : statedPageLength(requestJson(ex));
        other.pageLengthKnown = complete && stated !== undefined;
        other.wrotePageLength = false;
        delete other.vars['page_length'];
        if (other.pageLengthKnown && stated !== DEFAULT_PAGE_LENGTH) other.vars['page_length'] = stated;
        other.vars['page_length_known'] = other.pageLengthKnown;
      }
      return;
    }
    if (!isSettingsPath(pathOf(ex.request.url)) || !is2xx(ex.response.status)) return;
    const fromAnswer = at(ex.json, 'data', 'page_length');
    const fromRequest = methodIs(ex, 'PUT', 'PATCH', 'POST') ? at(requestJson(ex), 'data', 'page_length') : undefined;
    const n = typeof fromAnswer === 'number' ? fromAnswer : typeof fromRequest === 'number' ? fromRequest : undefined;
    if (n === undefined || !Number.isInteger(n)) return;
    s.pageLengthKnown = true;
    s.vars['page_length_known'] = true;
    s.vars['page_length'] = n;
    // Written back to the document's default, the project is judged as an unchanged one again.
    if (!isGet(ex)) s.wrotePageLength = n !== DEFAULT_PAGE_LENGTH;
  };

  /** The session's vars, plus the request's parent when a 2xx answer showed it exists. */
  const varsFor = (s: Session, ex: Exchange): Readonly<Record<string, unknown>> => {
    const p = profilePath(pathOf(ex.request.url));
    if (p === undefined) return s.vars;
    const key = `${p.realm}/${p.uai}`;
    if (is2xx(ex.response.status) && !s.parents.has(key)) {
      if (s.parents.size >= MAX_RUNS) s.parents.clear();
      s.parents.add(key);
    }
    return s.parents.has(key) ? { ...s.vars, realm_id: p.realm, user_authentication_info_id: p.uai } : s.vars;
  };

  const retryCheck = (s: Session, entry: TrafficEntry) => {
    const ex = entry.exchange;
    const sentAt = entry.startedAt === undefined ? Number.NaN : Date.parse(entry.startedAt);
    if (Number.isNaN(sentAt)) return;
    const key = `${ex.request.method} ${ex.request.url}`;
    const until = s.retries.get(key);
    if (until !== undefined) {
      s.retries.delete(key);
      judgeConduct([onRetry(until, sentAt, ex)], [entry]);
    }
    if (ex.response.status === 429) {
      const u = retryUntil(ex.response.headers['retry-after'], sentAt);
      if (u !== undefined) {
        if (s.retries.size >= MAX_RETRIES) s.retries.clear();
        s.retries.set(key, u);
      }
    }
  };

  return {
    observe(raw) {
      entries++;
      const entry = normalise(raw);
      const ex = entry.exchange;
      const s = sessionOf(entry);
      retryCheck(s, entry);
      trackSettings(s, entry);
      const vars = varsFor(s, ex);
      for (const rule of rulesFor(ex)) if (!(s.wrotePageLength && rule.id === 'pagination.limit.default')) judgeServer(rule, [entry], vars);
      const offset = onOffset(ex);
      if (offset !== undefined) judgeConduct([offset], [entry]);
      if (isGet(ex) && ex.response.status === 200 && asList(ex.json) !== undefined) onListRead(s, entry);
      else if (changesState(ex) && !isAdminWrite(ex)) onWrite(s, entry);
      s.held.push(entry);
      if (s.held.length >= CHUNK_EXCHANGES) flushSession(s);
    },
    note(n) {
      if (infrastructure.length < 1_000) infrastructure.push(n);
    },
    finish() {
      for (const s of sessions.values()) {
        for (const w of [...s.walks.values()]) endWalk(w);
        flushSession(s);
      }
      walks.sort((a, b) => a.n - b.n);
      return { entries, clients: clientCount, complete, tallies, findings, walks, walksTotal: walkCount, infrastructure };
    },
  };
}

/** Statuses that say a request was refused before it was judged on its merits (as rules/judge.ts reads them). */
const REFUSED: ReadonlySet<number> = new Set([401, 403, 407, 429]);

/** Each request classified once, whatever number of rules ask. */
const classified = new WeakMap<object, ReturnType<typeof classifyRequest>>();
const classificationOf = (ex: Exchange): ReturnType<typeof classifyRequest> => {
  let c = classified.get(ex.request);
  if (c === undefined) classified.set(ex.request, (c = classifyRequest(ex.request)));
  return c;
};
const outsideFor = (rule: Rule, ex: Exchange): boolean => gapsFor(classificationOf(ex), rule.id, ex.response.status).length > 0;

/** The one page length an operator's restore or settings body states (every `page_length` in it agrees), else undefined. */
function statedPageLength(body: unknown): number | undefined {
  const found = new Set<unknown>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || typeof v !== 'object' || v === null) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'page_length') found.add(x);
      else visit(x, depth + 1);
    }
  };
  visit(body, 0);
  const [only] = found;
  return found.size === 1 && typeof only === 'number' && Number.isInteger(only) ? only : undefined;
}

const catalogueLevel = (id: string): Level => catalogue.find((r) => r.id === id)?.level ?? clientRuleById(id)?.level ?? 'assumed';

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

export type { ClientRuleId };
