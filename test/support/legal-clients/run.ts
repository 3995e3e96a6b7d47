/**
 * Plays a plan of legal client behaviours (./plan.ts), and at most one documented trap, against a target,
 * the clients' activities interleaved one request at a time as the plan's schedule says. Each activity
 * keeps a log: the requests it sent (by their observed source), the records it received and whether it
 * read its query to the end; a test sets the judge's ground truth against it.
 */
import { encodeValue } from '../../../src/engine/query.js';
import { parseJsonOrUndefined, type Target, type TargetResponse } from '../../../src/port.js';
import { asList, at, DEFAULT_PAGE_LENGTH, instantOf, MAX_PAGE_LENGTH, pageMeta, recordAttr, recordId, sameValue } from '../../../src/rules/inspect.js';
import type { Activity, ClientPlan, Collection, Drain, Plan, TimestampField, Trap } from './plan.js';

export interface ActivityLog {
  readonly name: string;
  readonly client: number;
  readonly kind: Activity['kind'] | `trap ${Trap['kind']}`;
  /** The observed sources (`request #n`) of its requests. */
  readonly sources: string[];
  /** Times each record was received, repeats at a ge boundary not counted (they are met again by design). */
  readonly received: Map<string, number>;
  /** The last page of its main query was short: it read to the end. */
  reachedEnd: boolean;
  /** A trap's: it made its mistake (the data gave it the occasion: a second page, a short page, a clamp). */
  committed: boolean;
  /** The simulator's clock when it sent its first request. */
  startedAt: number | undefined;
  /** Which pass over its query it is in: a sync's second run is pass 1. */
  pass: number;
}

export interface PlayEnv {
  /** The target, observed by the judge; `onSent` is called with the source of each request as it is observed. */
  readonly target: Target;
  /** One bearer token per client of the plan, and one more for the trap's client. */
  readonly tokens: readonly string[];
  /** The simulator's clock (ms): what a syncing client calls now. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Set by the player before each request: the log of the activity sending it. */
  readonly current: { log: ActivityLog | undefined };
  /** The seeded parents and password profile a create names (without them, a client creates no password profile). */
  readonly ids?: { readonly realm_id: string; readonly user_authentication_info_id: string; readonly password_profile_id: string };
}

interface Page {
  readonly records: readonly unknown[];
  readonly granted: number | undefined;
  readonly total: number | undefined;
  /** links.next, when the answer gives one. */
  readonly next: string | undefined;
}

type Got = { readonly kind: 'page'; readonly page: Page } | { readonly kind: 'refused-limit' } | { readonly kind: 'gone' };

/** Turns of the interleaving: an activity waits for its turn before each request. */
class Turns {
  private readonly waiting: (() => void)[] = [];
  private t = 0;
  constructor(
    private alive: number,
    private readonly schedule: readonly number[],
  ) {}
  wait(): Promise<void> {
    return new Promise((go) => {
      this.waiting.push(go);
      this.next();
    });
  }
  done(): void {
    this.alive--;
    this.next();
  }
  private next(): void {
    if (this.alive === 0 || this.waiting.length < this.alive) return;
    const pick = (this.schedule[this.t++ % Math.max(1, this.schedule.length)] ?? 0) % this.waiting.length;
    const [go] = this.waiting.splice(pick, 1);
    go?.();
  }
}

/** Plays `plan` (and `trap`, as one more client) to its end; the logs of every activity. */
export async function play(plan: Plan, env: PlayEnv, trap?: Trap): Promise<ActivityLog[]> {
  const jobs: { client: number; run: (c: Client) => Promise<void>; log: ActivityLog }[] = [];
  // The trap is one more client, with a credential of its own: a client of its own among legal ones.
  const trapClient = plan.clients.length;
  const answers = plan.clients.map(() => ({ n: 0 }));
  plan.clients.forEach((cp, i) => {
    cp.activities.forEach((a, j) => jobs.push({ client: i, log: newLog(`client ${i + 1} #${j + 1} ${a.kind}`, i, a.kind), run: (c) => legal(c, a) }));
  });
  if (trap !== undefined) jobs.push({ client: trapClient, log: newLog(`client ${trapClient + 1} trap ${trap.kind}`, trapClient, `trap ${trap.kind}`), run: (c) => trapped(c, trap) });
  const turns = new Turns(jobs.length, plan.schedule);
  await Promise.all(
    jobs.map(async (job) => {
      const cp: ClientPlan = plan.clients[job.client] ?? { activities: [], encoded: false, resetEvery: undefined, headerCase: 'lower' };
      const c = new Client(env, env.tokens[job.client] ?? '', cp, job.log, turns, answers[job.client] ?? { n: 0 });
      try {
        await job.run(c);
      } finally {
        turns.done();
      }
    }),
  );
  return jobs.map((j) => j.log);
}

const newLog = (name: string, client: number, kind: ActivityLog['kind']): ActivityLog => ({
  name,
  client,
  kind,
  sources: [],
  received: new Map(),
  reachedEnd: false,
  committed: false,
  startedAt: undefined,
  pass: 0,
});

const TITLE = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => `${dash}${ch.toUpperCase()}`);

class Client {
  private readonly encoded: boolean;
  constructor(
    readonly env: PlayEnv,
    private readonly token: string,
    private readonly plan: ClientPlan,
    readonly log: ActivityLog,
    private readonly turns: Turns,
    /** Answers this client (all its activities) was sent: every `resetEvery`-th is lost. */
    private readonly answers: { n: number },
  ) {
    this.encoded = plan.encoded;
  }

  /** Header names as this client writes them. */
  private named(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    const how = this.plan.headerCase ?? 'lower';
    for (const [k, v] of Object.entries(headers)) out[how === 'lower' ? k : how === 'upper' ? k.toUpperCase() : TITLE(k)] = v;
    return out;
  }

  /**
   * One request. A read whose answer is lost to a connection reset (every `resetEvery`-th answer of the
   * client) is sent again, as a careful client retries a safe request; a create is not (the document says
   * nothing of retrying one).
   */
  async send(method: string, url: string, body?: string, extra: Record<string, string> = {}): Promise<TargetResponse> {
    for (;;) {
      await this.turns.wait();
      this.log.startedAt ??= this.env.now();
      this.env.current.log = this.log;
      let res: TargetResponse;
      try {
        res = await this.env.target.send({
          method,
          url,
          auth: 'none',
          headers: this.named({ authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra }),
          ...(body === undefined ? {} : { body }),
        });
      } finally {
        this.env.current.log = undefined;
      }
      this.answers.n++;
      const lost = method === 'GET' && this.plan.resetEvery !== undefined && this.answers.n % this.plan.resetEvery === 0;
      if (!lost) return res;
    }
  }

  /** A list read, retried as a careful client retries: after Retry-After on 429, after a pause on 5xx or a cut body. */
  async get(path: string, params: readonly (readonly [string, string | number | undefined])[], extra: Record<string, string> = {}): Promise<Got> {
    const query = params
      .filter((p): p is readonly [string, string | number] => p[1] !== undefined)
      .map(([k, v]) => `${this.encoded ? k.replace('[', '%5B').replace(']', '%5D') : k}=${encodeValue(String(v))}`)
      .join('&');
    return this.getUrl(query === '' ? path : `${path}?${query}`, params.find(([k]) => k === 'page[limit]')?.[1], extra);
  }

  /** A list read of a URL as given (a link followed), retried as a careful client retries. */
  async getUrl(url: string, asked: string | number | undefined, extra: Record<string, string> = {}): Promise<Got> {
    for (let attempt = 0; attempt < 12; attempt++) {
      const res = await this.send('GET', url, undefined, extra);
      if (res.status === 429) {
        await this.env.sleep(retryAfterMs(res.headers['retry-after']));
        continue;
      }
      const json = parseJsonOrUndefined(res.body);
      const list = asList(json);
      if (res.status >= 500 || (res.status === 200 && list === undefined)) {
        await this.env.sleep(200);
        continue;
      }
      if (res.status === 400 && typeof asked === 'number' && asked > MAX_PAGE_LENGTH) return { kind: 'refused-limit' };
      if (res.status !== 200 || list === undefined) return { kind: 'gone' };
      const m = pageMeta(json);
      const next = at(json, 'links', 'next');
      return { kind: 'page', page: { records: list.data, granted: m.limit, total: m.totalMethod === 'exact' ? m.resultsTotal : undefined, next: typeof next === 'string' ? next : undefined } };
    }
    return { kind: 'gone' };
  }

  /** Counts the page's records as received; a record met again at the value a ge step carries is not a repeat. */
  receive(records: readonly unknown[], boundary?: { readonly field: string; readonly value: string }): void {
    for (const r of records) {
      const id = recordId(r);
      if (id === undefined) continue;
      const n = this.log.received.get(id) ?? 0;
      if (n > 0 && boundary !== undefined && sameValue(boundary.field, recordAttr(r, boundary.field) ?? '', boundary.value)) continue;
      this.log.received.set(id, n + 1);
    }
  }
}

const ACCOUNTS = '/v2/accounts';
/** Pages one walk reads at most: a server that never ends a walk (a deviation) does not hold the test. */
const MAX_PAGES = 120;

function retryAfterMs(value: string | undefined): number {
  const v = value?.trim() ?? '';
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  return 1000;
}

/** A list read with a limit above the maximum that the server refused: asked again with the maximum (a careful client). */
/** A list read with a limit above the maximum that the server refused: asked again with the maximum (a careful client). No limit: none sent. */
async function page(
  c: Client,
  limit: number | undefined,
  params: (readonly [string, string | number | undefined])[],
  path: string = ACCOUNTS,
  extra: Record<string, string> = {},
): Promise<{ page: Page | undefined; limit: number | undefined }> {
  let got = await c.get(path, [['page[limit]', limit], ...params], extra);
  if (got.kind === 'refused-limit') {
    limit = MAX_PAGE_LENGTH;
    got = await c.get(path, [['page[limit]', limit], ...params], extra);
  }
  return { page: got.kind === 'page' ? got.page : undefined, limit };
}

/** The page size in force: the one granted (meta.page.limit), else the one asked up to the maximum, else the document's default (§8). */
const sizeOf = (p: Page, asked: number | undefined): number => p.granted ?? Math.min(asked ?? DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH);
const isShort = (p: Page, asked: number | undefined): boolean => p.records.length === 0 || p.records.length < sizeOf(p, asked);
const valueOf = (r: unknown, field: string): string | undefined => recordAttr(r, field) ?? undefined;

async function legal(c: Client, a: Activity): Promise<void> {
  switch (a.kind) {
    case 'peek': {
      const got = await page(c, a.limit, [['sort', a.sort]]);
      if (got.page !== undefined) c.receive(got.page.records);
      return;
    }
    case 'pages': {
      let offset = 0;
      let limit: number | undefined = a.limit;
      for (let p = 0; p < a.pages; p++) {
        const got = await page(c, limit, [
          ['sort', a.sort],
          ['page[offset]', offset],
        ]);
        limit = got.limit;
        if (got.page === undefined) return;
        c.receive(got.page.records);
        if (isShort(got.page, limit)) return void (c.log.reachedEnd = true);
        offset += sizeOf(got.page, limit);
      }
      return;
    }
    case 'jumps': {
      const first = await page(c, a.limit, [['sort', a.sort]]);
      if (first.page === undefined || first.page.total === undefined) return;
      const size = sizeOf(first.page, first.limit);
      c.receive(first.page.records);
      const pages = Math.max(1, Math.ceil(first.page.total / size));
      let at = 0;
      for (const f of a.at) {
        const offset = Math.floor((f / 100) * (pages - 1)) * size;
        // A jump of exactly the size asked, when more was asked than granted, reads as the clamp mistake itself: a careful UI that jumps would not ask more than it gets.
        if (offset === at || ((first.limit ?? 0) > size && offset - at === first.limit)) continue;
        const got = await page(c, first.limit, [
          ['sort', a.sort],
          ['page[offset]', offset],
        ]);
        if (got.page === undefined) return;
        c.receive(got.page.records);
        at = offset;
      }
      return;
    }
    case 'id-walk':
      return idWalk(c, a.limit, a.stopAfter);
    case 'ts-walk':
      await tsWalk(c, a.field, a.limit, a.drain, { upper: a.upper, stopAfter: a.stopAfter, from: undefined });
      return;
    case 'sync': {
      const first = await tsWalk(c, a.field, a.limit, a.drain, { upper: false, stopAfter: undefined, from: undefined });
      if (first === undefined) return;
      // The buffer lives here: resume from no later than now − buffer, however new the newest record seen.
      const floor = c.env.now() - a.bufferMs;
      const newestMs = Number((instantOf(first) ?? 0n) / 1_000_000n);
      const from = newestMs < floor ? first : new Date(floor).toISOString();
      c.log.reachedEnd = false;
      c.log.pass++;
      await tsWalk(c, a.field, a.limit, a.drain, { upper: false, stopAfter: undefined, from });
      return;
    }
    case 'grid':
      return grid(c, a.limit, a.sort, a.clicks);
    case 'window': {
      // The window's ends from the oldest and newest records (a report's date picker), then ge(start) to a bound checked here.
      const oldest = valueOf((await page(c, 1, [['sort', 'created_at']])).page?.records[0], 'created_at');
      const newest = valueOf((await page(c, 1, [['sort', '-created_at']])).page?.records[0], 'created_at');
      const lo = instantOf(oldest ?? '');
      const hi = instantOf(newest ?? '');
      if (lo === undefined || hi === undefined) return;
      const start = lo + ((hi - lo) * BigInt(a.from)) / 100n;
      const until = start + ((hi - lo) * BigInt(a.span)) / 100n;
      await tsWalk(c, 'created_at', a.limit, a.drain, { upper: false, stopAfter: undefined, from: isoOf(start), until });
      return;
    }
    case 'export':
      return idWalk(c, a.limit, undefined, a.path, a.resumeAfter);
    case 'links':
      return followLinks(c, a.limit);
    case 'profile-create': {
      const ids = c.env.ids;
      if (ids === undefined) return;
      const path = `/v2/authentication-realms/${ids.realm_id}/user-authentication-info/${ids.user_authentication_info_id}/user-authentication-password-profile-info${a.slash ? '/' : ''}`;
      const username = `${c.log.name.replace(/\W+/g, '-')}-${c.log.sources.length}@example.com`;
      const body = JSON.stringify({ data: { type: 'user_authentication_password_profile_info', password_profile_id: ids.password_profile_id, username, password: a.password } });
      await c.send('POST', path, body, a.charset ? { 'content-type': 'application/json; charset=utf-8' } : {});
      return;
    }
    case 'since': {
      const first = await page(c, a.limit, [['sort', a.field]]);
      const records = first.page?.records ?? [];
      c.receive(records);
      // A value from the page's middle, not its last (nor equal to it): a query of its own, not the next step of a walk.
      const v = valueOf(records[Math.floor(records.length / 2) - 1], a.field);
      const last = valueOf(records.at(-1), a.field);
      if (v === undefined || last === undefined || records.length < 3 || sameValue(a.field, v, last)) return;
      let offset = 0;
      for (let p = 0; p < a.pages; p++) {
        const got = await page(c, first.limit, [
          ['sort', a.desc ? `-${a.field}` : a.field],
          ['filter', `ge(${a.field},${v})`],
          ['page[offset]', offset === 0 ? undefined : offset],
        ]);
        if (got.page === undefined) return;
        c.receive(got.page.records);
        if (isShort(got.page, got.limit)) return;
        offset += sizeOf(got.page, got.limit);
      }
      return;
    }
    case 'create': {
      const n = c.log.name.replace(/\W+/g, '-');
      await c.send('POST', ACCOUNTS, JSON.stringify({ data: { type: 'account', name: `legal ${n}`, legal_name: `Legal ${n} Ltd` } }));
      return;
    }
  }
}

/** An ISO 8601 instant of nanoseconds since the epoch, to the millisecond (the document's format). */
const isoOf = (ns: bigint): string => new Date(Number(ns / 1_000_000n)).toISOString();

/** A UI grid: page 1; the last page from page.total by the size granted; back to page 2; then `clicks` times next. */
async function grid(c: Client, limit: number | undefined, sort: string | undefined, clicks: number): Promise<void> {
  const first = await page(c, limit, [['sort', sort]]);
  if (first.page === undefined || first.page.total === undefined) return;
  c.receive(first.page.records);
  const size = sizeOf(first.page, first.limit);
  // Ask for what is granted from here on: a grid that asked more would read as the clamp mistake.
  const asked = first.limit === undefined ? undefined : size;
  const pages = Math.ceil(first.page.total / size);
  const at = (n: number) => [['sort', sort] as const, ['page[offset]', n * size] as const];
  for (const n of [...new Set([pages - 1, 1])].filter((x) => x > 0)) {
    const got = await page(c, asked, [...at(n)]);
    if (got.page === undefined) return;
    c.receive(got.page.records);
  }
  for (let n = 2; n < 2 + clicks && n < pages; n++) {
    const got = await page(c, asked, [...at(n)]);
    if (got.page === undefined) return;
    c.receive(got.page.records);
  }
}

/** A first page sorted by id, then links.next as the answers give it, to its end (a missing or null link ends it). */
async function followLinks(c: Client, limit: number | undefined): Promise<void> {
  const first = await page(c, limit, [['sort', 'id']]);
  let p = first.page;
  for (let pages = 1; p !== undefined && pages < MAX_PAGES; pages++) {
    c.receive(p.records);
    if (p.next === undefined || p.records.length === 0) {
      c.log.reachedEnd = p.next === undefined;
      return;
    }
    const next = new URL(p.next, 'http://link.invalid');
    const got = await c.getUrl(`${next.pathname}${next.search}`, first.limit);
    p = got.kind === 'page' ? got.page : undefined;
  }
}

/** sort=id with gt(id,<last>) to the empty page; or stopped, by choice, after `stopAfter` full pages; `resumeAfter`: interrupted there and resumed from its checkpoint on fresh connections. */
async function idWalk(c: Client, limit: number | undefined, stopAfter: number | undefined, path: Collection = ACCOUNTS, resumeAfter?: number): Promise<void> {
  let after: string | undefined;
  for (let pages = 1; pages < MAX_PAGES; pages++) {
    const fresh: Record<string, string> = resumeAfter !== undefined && pages > resumeAfter ? { connection: 'close' } : {};
    const got = await page(
      c,
      limit,
      [
        ['sort', 'id'],
        ['filter', after === undefined ? undefined : `gt(id,${after})`],
      ],
      path,
      fresh,
    );
    if (got.page === undefined) return;
    const records = got.page.records;
    c.receive(records);
    if (records.length === 0) return void (c.log.reachedEnd = true);
    if (stopAfter !== undefined && pages >= stopAfter && !isShort(got.page, got.limit)) return;
    after = recordId(records.at(-1));
    if (after === undefined) return;
  }
}

interface TsWalkOptions {
  readonly upper: boolean;
  readonly stopAfter: number | undefined;
  /** Resume from ge(f,<from>). */
  readonly from: string | undefined;
  /** Stop, on the client's side, once a page reaches past this instant (a date window's end). */
  readonly until?: bigint;
}

/**
 * §4.3 by a timestamp: sort=f, then ge(f,<last>); a full page of one value paged through as `drain` says
 * (./plan.ts Drain). Starts from `from` (ge) when given. Returns the newest value it read (a sync's
 * checkpoint), when it read to the end.
 */
async function tsWalk(c: Client, f: TimestampField, limit: number, drain: Drain, o: TsWalkOptions): Promise<string | undefined> {
  let bound: string | undefined;
  if (o.upper) {
    const newest = await page(c, 1, [['sort', `-${f}`]]);
    const v = valueOf(newest.page?.records[0], f);
    if (v === undefined) return undefined;
    bound = `le(${f},${v})`;
  }
  const filter = (clause: string | undefined) => [clause, bound].filter((x) => x !== undefined).join(':') || undefined;
  let cursor: { op: 'ge' | 'gt'; value: string } | undefined = o.from === undefined ? undefined : { op: 'ge', value: o.from };
  let offset = 0;
  let newest: string | undefined;
  /** Distinct records held per instant (drain `held`). */
  const held = new Map<string, number>();
  const seen = new Set<string>();
  for (let pages = 1; pages < MAX_PAGES; pages++) {
    const got = await page(c, limit, [
      ['sort', f],
      ['filter', filter(cursor === undefined ? undefined : `${cursor.op}(${f},${cursor.value})`)],
      ['page[offset]', offset === 0 ? undefined : offset],
    ]);
    if (got.page === undefined) return undefined;
    limit = got.limit ?? limit;
    const records = got.page.records;
    c.receive(records, cursor?.op === 'ge' ? { field: f, value: cursor.value } : undefined);
    for (const r of records) {
      const id = recordId(r);
      const at = valueOf(r, f);
      if (id === undefined || at === undefined || seen.has(id)) continue;
      seen.add(id);
      const k = String(instantOf(at) ?? at);
      held.set(k, (held.get(k) ?? 0) + 1);
    }
    const first = valueOf(records[0], f);
    const last = valueOf(records.at(-1), f);
    if (last !== undefined) newest = last;
    if (isShort(got.page, limit) || last === undefined || first === undefined) {
      c.log.reachedEnd = true;
      return newest;
    }
    if (o.stopAfter !== undefined && pages >= o.stopAfter) return undefined;
    if (o.until !== undefined && (instantOf(last) ?? 0n) > o.until) return undefined;
    const onLast = cursor?.op === 'ge' && sameValue(f, cursor.value, last);
    if (drain === 'held') {
      cursor = { op: 'ge', value: last };
      offset = held.get(String(instantOf(last) ?? last)) ?? 0;
    } else if (!sameValue(f, first, last)) {
      cursor = { op: 'ge', value: last };
      offset = 0;
    } else if (drain === 'offset') {
      // The same ordering further on: the filter the page was read with (ge(v) for a first page, whose first value is v).
      if (cursor === undefined || cursor.op !== 'ge') cursor = { op: 'ge', value: first };
      offset += records.length;
    } else if (drain === 'literal') {
      // Step 3 to the letter: ge(<the last value of the previous page>), which re-reads a page of that value; once it comes back, further on.
      if (onLast) offset += records.length;
      else {
        cursor = { op: 'ge', value: last };
        offset = 0;
      }
    } else {
      await drainTies(c, f, last, bound);
      cursor = { op: 'gt', value: last };
      offset = 0;
    }
  }
  return undefined;
}

/** Every record of one timestamp, keyed on id: eq(f,v) sorted by id, then gt(id,<last>), to a short page. */
async function drainTies(c: Client, f: TimestampField, v: string, bound: string | undefined): Promise<void> {
  let after: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const clauses = [`eq(${f},${v})`, after === undefined ? undefined : `gt(id,${after})`, bound].filter((x) => x !== undefined).join(':');
    const got = await page(c, MAX_PAGE_LENGTH, [
      ['sort', 'id'],
      ['filter', clauses],
    ]);
    if (got.page === undefined) return;
    c.receive(got.page.records, { field: f, value: v });
    if (isShort(got.page, MAX_PAGE_LENGTH)) return;
    after = recordId(got.page.records.at(-1));
    if (after === undefined) return;
  }
}

/** A documented mistake, made as a naive client makes it. */
async function trapped(c: Client, trap: Trap): Promise<void> {
  switch (trap.kind) {
    case 'gt-timestamp': {
      let last: string | undefined;
      for (let pages = 0; pages < MAX_PAGES; pages++) {
        const got = await page(c, trap.limit, [
          ['sort', trap.field],
          ['filter', last === undefined ? undefined : `gt(${trap.field},${last})`],
        ]);
        if (got.page === undefined) return;
        c.receive(got.page.records);
        if (last !== undefined) c.log.committed = true;
        if (isShort(got.page, trap.limit)) return void (c.log.reachedEnd = true);
        last = valueOf(got.page.records.at(-1), trap.field);
      }
      return;
    }
    case 'unsorted-keyset': {
      let after: string | undefined;
      for (let pages = 0; pages < 40; pages++) {
        const got = await page(c, trap.limit, [
          ['sort', trap.sort === 'none' ? undefined : trap.sort],
          ['filter', after === undefined ? undefined : `gt(id,${after})`],
        ]);
        if (got.page === undefined) return;
        if (after !== undefined) c.log.committed = true;
        c.receive(got.page.records);
        if (got.page.records.length === 0) return void (c.log.reachedEnd = true);
        after = recordId(got.page.records.at(-1));
      }
      return;
    }
    case 'id-short-stop': {
      let after: string | undefined;
      for (let pages = 0; pages < MAX_PAGES; pages++) {
        const got = await page(c, trap.limit, [
          ['sort', 'id'],
          ['filter', after === undefined ? undefined : `gt(id,${after})`],
        ]);
        if (got.page === undefined) return;
        c.receive(got.page.records);
        if (isShort(got.page, trap.limit)) {
          c.log.reachedEnd = true;
          c.log.committed = got.page.records.length > 0;
          break;
        }
        after = recordId(got.page.records.at(-1));
      }
      // The client goes on to something else: its stop is in the traffic.
      await c.get('/v2/settings', []);
      return;
    }
    case 'clamped-advance': {
      for (let offset = 0; offset < MAX_PAGES * trap.limit; offset += trap.limit) {
        const got = await c.get(ACCOUNTS, [
          ['sort', 'id'],
          ['page[limit]', trap.limit],
          ['page[offset]', offset],
        ]);
        if (got.kind !== 'page') return;
        if (offset > 0) c.log.committed = true;
        c.receive(got.page.records);
        if (isShort(got.page, trap.limit)) return void (c.log.reachedEnd = true);
      }
      return;
    }
    case 'hard-offset':
      await c.get(trap.path, [
        ['page[limit]', 10],
        ['page[offset]', trap.offset],
      ]);
      c.log.committed = true;
      return;
  }
}
