/**
 * Commands of the model-based test: each sends one operation to the simulator (password profile
 * CRUD, settings, the virtual clock, list reads) and compares the answer with a small reference
 * model, a Map of records plus the project's page length. Every command applies in every state (on
 * an empty model the record commands address an id that does not exist), so a run replays exactly
 * from its seed and path.
 */
import { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH } from '../limits.js';
import type * as fc from 'fast-check';
import { asList, asString, at, idsOf, instantOf, pageMeta, PROFILE_TYPE } from '../rules/inspect.js';
import type { Exchange } from '../port.js';
import { adminRequest } from './admin-requests.js';
import { StopRun, type Trial } from './trial.js';
import type { FindingId } from './env.js';
import type { RuleId } from '../rules/ids.js';

interface ModelRecord {
  readonly id: string;
  readonly username: string;
  /** Instants in nanoseconds, as the answers showed them. */
  readonly created: bigint;
  readonly updated: bigint;
}

/**
 * What the model follows where the document is silent: the simulator's readings (GET /__sim/state).
 * `exactTime`: answers show the virtual clock's own milliseconds, so writes and clock moves can be
 * checked to the millisecond; under another precision only their order is.
 */
export interface ModelReadings {
  readonly unsorted: 'created_at' | 'id' | 'newest';
  readonly ties: 'asc' | 'desc';
  readonly exactTime: boolean;
}

export interface Model {
  readonly records: Map<string, ModelRecord>;
  pageLength: number;
  /** The newest timestamp a write answered with (ns), 0 before any. */
  last: bigint;
  /** Virtual time moved through the admin API since that write. */
  advancedMs: number;
  readonly readings: ModelReadings;
}

export interface Real {
  readonly trial: Trial;
  readonly collection: string;
  readonly ppid: string;
  readonly adminToken: string;
}

export type ModelCommand = fc.AsyncCommand<Model, Real>;

/** Simulator behaviour beyond the rule catalogue (its virtual clock): the property fails, no rule does. */
const SIM_CLOCK: FindingId = 'sim.clock';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A failing assertion stops the sequence; it rests on `evidence` (the command's own exchange) when given. */
function must(real: Real, ok: boolean, ruleId: FindingId, message: string, expected: unknown, actual: unknown, evidence?: readonly Exchange[]): void {
  if (!real.trial.expect(ok, ruleId, message, expected, actual, evidence)) throw new StopRun(message);
}

const NS_PER_MS = 1_000_000n;
const ns = (v: unknown): bigint => instantOf(asString(v) ?? '') ?? -1n;
const shown = (t: bigint): string => (t < 0n ? 'not a timestamp' : new Date(Number(t / NS_PER_MS)).toISOString());
const pick = (m: Model, n: number): ModelRecord | undefined => [...m.records.values()][n % Math.max(1, m.records.size)];
const itemUrl = (real: Real, id: string): string => `${real.collection}/${encodeURIComponent(id)}`;
const jsonRequest = (method: string, url: string, body: unknown) => ({ method, url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function recordOf(real: Real, ex: Exchange, rule: RuleId): ModelRecord {
  const data = at(ex.json, 'data');
  const id = asString(at(data, 'id'));
  const username = asString(at(data, 'username'));
  must(real, id !== undefined && username !== undefined, rule, `${ex.request.method} ${ex.request.url}: data.id and data.username`, 'strings', data, [ex]);
  return { id: id ?? '', username: username ?? '', created: ns(at(data, 'meta', 'created_at')), updated: ns(at(data, 'meta', 'updated_at')) };
}

/** Writes happen after the previous one, and after any clock move since (to the millisecond when answers show the clock's own). */
function checkClock(m: Model, real: Real, at: bigint, what: string): void {
  const floor = m.readings.exactTime ? m.last + BigInt(m.advancedMs) * NS_PER_MS : m.last;
  // Under another precision a create answers the millisecond its instant falls in: order is judged to the millisecond.
  const notBefore = m.readings.exactTime ? at >= floor : at / NS_PER_MS >= floor / NS_PER_MS;
  const later = m.readings.exactTime ? m.last === 0n || at > m.last : true;
  must(real, at >= 0n && notBefore && later, SIM_CLOCK, `${what}: timestamp against the previous write and the clock moves since`, `after ${shown(floor)}`, shown(at));
  m.last = at;
  m.advancedMs = 0;
}

/** A model record as reports show it. */
const view = (r: ModelRecord) => ({ id: r.id, username: r.username, created_at: shown(r.created), updated_at: shown(r.updated) });

/** The same instant, written at two precisions: equal to the coarser one's (a create answers milliseconds, §2.1). */
const sameInstant = (m: Model, a: bigint, b: bigint): boolean => a === b || (!m.readings.exactTime && a / NS_PER_MS === b / NS_PER_MS);

export class CreateCmd implements ModelCommand {
  constructor(
    readonly username: string,
    readonly password: string,
  ) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    // A username the run has not sent before: a repeat would be a duplicate the server may refuse.
    const username = real.trial.env.usernames.fresh(this.username, this.password);
    const ex = await real.trial.send(jsonRequest('POST', real.collection, { data: { type: PROFILE_TYPE, password_profile_id: real.ppid, username, password: this.password } }));
    must(real, ex.response.status === 201, 'create.status.201', `POST ${real.collection}`, 201, ex.response.status, [ex]);
    const r = recordOf(real, ex, 'create.response.fields');
    must(real, r.username === username, 'create.response.fields', 'data.username echoes the request', username, r.username, [ex]);
    checkClock(m, real, r.created, 'create');
    m.records.set(r.id, r);
  }
  toString = () => `create(${JSON.stringify(this.username)}, <${this.password.length}-character password>)`;
}

export class UpdateCmd implements ModelCommand {
  constructor(
    readonly n: number,
    readonly username: string | undefined,
    readonly password: string | undefined,
  ) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const old = pick(m, this.n);
    const id = old?.id ?? MISSING_ID;
    const username = this.username === undefined ? undefined : real.trial.env.usernames.fresh(this.username, this.password);
    const data = { type: PROFILE_TYPE, ...(username === undefined ? {} : { username }), ...(this.password === undefined ? {} : { password: this.password }) };
    const ex = await real.trial.send(jsonRequest('PUT', itemUrl(real, id), { data }));
    if (old === undefined) return must(real, ex.response.status === 404, 'password-profile.update', `PUT of a record that does not exist`, 404, ex.response.status);
    must(real, ex.response.status === 200, 'password-profile.update', `PUT ${itemUrl(real, id)}`, 200, ex.response.status);
    const r = recordOf(real, ex, 'password-profile.update');
    must(real, r.username === (username ?? old.username), 'password-profile.update', 'data.username after the update', username ?? old.username, r.username);
    must(real, sameInstant(m, r.created, old.created), 'password-profile.update', 'created_at does not change on update', shown(old.created), shown(r.created));
    must(
      real,
      m.readings.exactTime ? r.updated > old.updated : r.updated / NS_PER_MS >= old.updated / NS_PER_MS,
      'large-data.updates-during-traversal',
      'an update moves updated_at (so an updated_at walk meets the record again)',
      `after ${shown(old.updated)}`,
      shown(r.updated),
    );
    checkClock(m, real, r.updated, 'update');
    m.records.set(id, r);
  }
  toString = () =>
    `update(#${this.n}${this.username === undefined ? '' : `, username ${JSON.stringify(this.username)}`}${this.password === undefined ? '' : `, <${this.password.length}-character password>`})`;
}

export class DeleteCmd implements ModelCommand {
  constructor(readonly n: number) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const old = pick(m, this.n);
    const id = old?.id ?? MISSING_ID;
    const ex = await real.trial.send({ method: 'DELETE', url: itemUrl(real, id) });
    if (old === undefined) return must(real, ex.response.status === 404, 'password-profile.delete', 'DELETE of a record that does not exist', 404, ex.response.status);
    must(real, ex.response.status === 204, 'password-profile.delete', `DELETE ${itemUrl(real, id)}`, 204, ex.response.status);
    m.records.delete(id);
    // §4.3 "deletes are not visible" to an updated_at sync: the record leaves list reads.
    const list = await real.trial.send({ method: 'GET', url: `${real.collection}?page[limit]=${MAX_PAGE_LENGTH}&sort=updated_at` });
    must(real, !idsOf(list.json).includes(id), 'large-data.deletes-immediate', `GET ${list.request.url} after DELETE`, `record ${id} absent`, 'listed', [ex, list]);
    const again = await real.trial.send({ method: 'GET', url: itemUrl(real, id) });
    must(real, again.response.status === 404, 'password-profile.delete', 'GET after DELETE', 404, again.response.status);
  }
  toString = () => `delete(#${this.n})`;
}

export class GetCmd implements ModelCommand {
  constructor(readonly n: number) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const want = pick(m, this.n);
    const ex = await real.trial.send({ method: 'GET', url: itemUrl(real, want?.id ?? MISSING_ID) });
    if (want === undefined) return must(real, ex.response.status === 404, 'password-profile.get', 'GET of a record that does not exist', 404, ex.response.status);
    must(real, ex.response.status === 200, 'password-profile.get', `GET ${ex.request.url}`, 200, ex.response.status);
    const r = recordOf(real, ex, 'password-profile.get');
    const same = r.id === want.id && r.username === want.username && sameInstant(m, r.created, want.created) && sameInstant(m, r.updated, want.updated);
    must(real, same, 'password-profile.get', 'the record as the model has it', view(want), view(r));
  }
  toString = () => `get(#${this.n})`;
}

export class SettingsCmd implements ModelCommand {
  constructor(readonly pageLength: number) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const ex = await real.trial.send(jsonRequest('PUT', '/v2/settings', { data: { type: 'settings', page_length: this.pageLength } }));
    const valid = Number.isInteger(this.pageLength) && this.pageLength >= 1 && this.pageLength <= MAX_PAGE_LENGTH;
    must(real, ex.response.status === (valid ? 200 : 400), 'settings.page-length', `PUT /v2/settings page_length ${this.pageLength}`, valid ? 200 : 400, ex.response.status);
    if (valid) m.pageLength = this.pageLength;
  }
  toString = () => `settings(page_length ${this.pageLength})`;
}

export class ClockCmd implements ModelCommand {
  constructor(readonly advanceMs: number) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const ex = await real.trial.send(adminRequest(real.adminToken, 'POST', '/__sim/clock', { advance_ms: this.advanceMs }));
    must(real, ex.response.status === 200, SIM_CLOCK, 'POST /__sim/clock', 200, ex.response.status);
    m.advancedMs += this.advanceMs;
  }
  toString = () => `clock(+${this.advanceMs} ms)`;
}

export type ListSort = 'created_at' | '-created_at' | 'id' | 'updated_at' | '-updated_at' | 'username';

const UNSORTED: Readonly<Record<ModelReadings['unsorted'], ListSort>> = { created_at: 'created_at', id: 'id', newest: '-created_at' };

function ordered(m: Model, sort: ListSort | undefined): ModelRecord[] {
  const s = sort ?? UNSORTED[m.readings.unsorted];
  const desc = s.startsWith('-') ? -1 : 1;
  const field = s.replace(/^-/, '');
  const key = (r: ModelRecord): string | bigint => (field === 'created_at' ? r.created : field === 'updated_at' ? r.updated : field === 'id' ? r.id : r.username);
  const cmp = (a: string | bigint, b: string | bigint): number => (a < b ? -1 : a > b ? 1 : 0);
  const tie = m.readings.ties === 'asc' ? 1 : -1;
  // Ties go by id in either direction (ascending in the public API, docs/api-notes.md "Accounts"; else the reading's).
  return [...m.records.values()].sort((a, b) => desc * cmp(key(a), key(b)) || tie * cmp(a.id, b.id));
}

/** Whether the model knows the order of a list read: not by a timestamp the answers show coarser than the clock. */
function orderKnown(m: Model, sort: ListSort | undefined): boolean {
  const field = (sort ?? UNSORTED[m.readings.unsorted]).replace(/^-/, '');
  return m.readings.exactTime || (field !== 'created_at' && field !== 'updated_at');
}

export class ListCmd implements ModelCommand {
  constructor(
    readonly limit: number | undefined,
    readonly offset: number | undefined,
    readonly sort: ListSort | undefined,
  ) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const q = [this.limit === undefined ? '' : `page[limit]=${this.limit}`, this.offset === undefined ? '' : `page[offset]=${this.offset}`, this.sort === undefined ? '' : `sort=${this.sort}`].filter(
      (p) => p !== '',
    );
    const url = `${real.collection}${q.length === 0 ? '' : `?${q.join('&')}`}`;
    const ex = await real.trial.send({ method: 'GET', url });
    must(real, ex.response.status === 200 && asList(ex.json) !== undefined, 'password-profile.list', `GET ${url}`, 200, ex.response.status);
    const meta = pageMeta(ex.json);
    must(real, meta.resultsTotal === m.records.size, 'pagination.results.total', `GET ${url}: results.total against the records created and not deleted`, m.records.size, meta.resultsTotal);
    const limit = this.limit ?? m.pageLength;
    const limitRule: RuleId = this.limit !== undefined ? 'pagination.limit.per-call' : m.pageLength === DEFAULT_PAGE_LENGTH ? 'pagination.limit.default' : 'pagination.limit.project-setting';
    must(real, meta.limit === limit, limitRule, `GET ${url}: meta.page.limit (page_length ${m.pageLength})`, limit, meta.limit);
    const ids = idsOf(ex.json);
    const gone = ids.find((id) => !m.records.has(id));
    must(real, gone === undefined, 'large-data.deletes-invisible', `GET ${url}: lists a record that was deleted or never created`, 'only live records', gone);
    const offset = this.offset ?? 0;
    if (!orderKnown(m, this.sort)) {
      must(
        real,
        ids.length === Math.max(0, Math.min(limit, m.records.size - offset)),
        'password-profile.list',
        `GET ${url}: records on the page`,
        Math.max(0, Math.min(limit, m.records.size - offset)),
        ids.length,
      );
      return;
    }
    const expected = ordered(m, this.sort)
      .slice(offset, offset + limit)
      .map((r) => r.id);
    must(real, ids.join(',') === expected.join(','), 'password-profile.list', `GET ${url}: the page the model expects`, expected, ids);
  }
  toString = () => `list(${[this.limit === undefined ? '' : `limit ${this.limit}`, this.offset === undefined ? '' : `offset ${this.offset}`, this.sort ?? ''].filter((s) => s !== '').join(', ')})`;
}
