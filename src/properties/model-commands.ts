/**
 * Commands of the model-based test: each sends one operation to the simulator (password profile
 * CRUD, settings, the virtual clock, list reads) and compares the answer with a small reference
 * model, a Map of records plus the project's page length. Every command applies in every state (on
 * an empty model the record commands address an id that does not exist), so a run replays exactly
 * from its seed and path.
 */
import type * as fc from 'fast-check';
import { asList, asString, at, idsOf, instantOf, pageMeta, PROFILE_TYPE } from '../rules/inspect.js';
import type { Exchange } from '../target/types.js';
import { adminRequest } from './admin.js';
import { StopRun, type Trial } from './trial.js';
import type { FindingId } from './types.js';
import type { RuleId } from '../rules/ids.js';

export interface ModelRecord {
  readonly id: string;
  readonly username: string;
  readonly createdMs: number;
  readonly updatedMs: number;
}

export interface Model {
  readonly records: Map<string, ModelRecord>;
  pageLength: number;
  /** The newest timestamp a write answered with. */
  lastMs: number;
  /** Virtual time moved through the admin API since that write. */
  advancedMs: number;
}

export interface Real {
  readonly trial: Trial;
  readonly collection: string;
  readonly ppid: string;
  readonly adminToken: string;
}

export type ModelCommand = fc.AsyncCommand<Model, Real>;

/** Simulator behaviour beyond the rule catalogue (its virtual clock): the property fails, no rule does. */
export const SIM_CLOCK: FindingId = 'sim.clock';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A failing assertion stops the sequence; it rests on `evidence` (the command's own exchange) when given. */
function must(real: Real, ok: boolean, ruleId: FindingId, message: string, expected: unknown, actual: unknown, evidence?: readonly Exchange[]): void {
  if (!real.trial.expect(ok, ruleId, message, expected, actual, evidence)) throw new StopRun(message);
}

const ms = (v: unknown): number => instantOf(asString(v) ?? '') ?? Number.NaN;
const pick = (m: Model, n: number): ModelRecord | undefined => [...m.records.values()][n % Math.max(1, m.records.size)];
const itemUrl = (real: Real, id: string): string => `${real.collection}/${encodeURIComponent(id)}`;
const jsonRequest = (method: string, url: string, body: unknown) => ({ method, url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function recordOf(real: Real, ex: Exchange, rule: RuleId): ModelRecord {
  const data = at(ex.json, 'data');
  const id = asString(at(data, 'id'));
  const username = asString(at(data, 'username'));
  must(real, id !== undefined && username !== undefined, rule, `${ex.request.method} ${ex.request.url}: data.id and data.username`, 'strings', data, [ex]);
  return { id: id ?? '', username: username ?? '', createdMs: ms(at(data, 'meta', 'created_at')), updatedMs: ms(at(data, 'meta', 'updated_at')) };
}

/** Writes happen after the previous one, and after any clock move since. */
function checkClock(m: Model, real: Real, at: number, what: string): void {
  must(
    real,
    at >= m.lastMs + m.advancedMs && (m.lastMs === 0 || at > m.lastMs),
    SIM_CLOCK,
    `${what}: timestamp against the previous write and the clock moves since`,
    `after ${new Date(m.lastMs + m.advancedMs).toISOString()}`,
    Number.isNaN(at) ? 'not a timestamp' : new Date(at).toISOString(),
  );
  m.lastMs = at;
  m.advancedMs = 0;
}

export class CreateCmd implements ModelCommand {
  constructor(
    readonly username: string,
    readonly password: string,
  ) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const ex = await real.trial.send(jsonRequest('POST', real.collection, { data: { type: PROFILE_TYPE, password_profile_id: real.ppid, username: this.username, password: this.password } }));
    must(real, ex.response.status === 201, 'create.status.201', `POST ${real.collection}`, 201, ex.response.status, [ex]);
    const r = recordOf(real, ex, 'create.response.fields');
    must(real, r.username === this.username, 'create.response.fields', 'data.username echoes the request', this.username, r.username, [ex]);
    checkClock(m, real, r.createdMs, 'create');
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
    const data = { type: PROFILE_TYPE, ...(this.username === undefined ? {} : { username: this.username }), ...(this.password === undefined ? {} : { password: this.password }) };
    const ex = await real.trial.send(jsonRequest('PUT', itemUrl(real, id), { data }));
    if (old === undefined) return must(real, ex.response.status === 404, 'password-profile.update', `PUT of a record that does not exist`, 404, ex.response.status);
    must(real, ex.response.status === 200, 'password-profile.update', `PUT ${itemUrl(real, id)}`, 200, ex.response.status);
    const r = recordOf(real, ex, 'password-profile.update');
    must(real, r.username === (this.username ?? old.username), 'password-profile.update', 'data.username after the update', this.username ?? old.username, r.username);
    must(real, r.createdMs === old.createdMs, 'password-profile.update', 'created_at does not change on update', new Date(old.createdMs).toISOString(), r.createdMs);
    must(
      real,
      r.updatedMs > old.updatedMs,
      'large-data.updates-during-traversal',
      'an update moves updated_at (so an updated_at walk meets the record again)',
      `after ${new Date(old.updatedMs).toISOString()}`,
      r.updatedMs,
    );
    checkClock(m, real, r.updatedMs, 'update');
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
    const list = await real.trial.send({ method: 'GET', url: `${real.collection}?page[limit]=100&sort=updated_at` });
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
    must(real, JSON.stringify(r) === JSON.stringify(want), 'password-profile.get', 'the record as the model has it', want, r);
  }
  toString = () => `get(#${this.n})`;
}

export class SettingsCmd implements ModelCommand {
  constructor(readonly pageLength: number) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const ex = await real.trial.send(jsonRequest('PUT', '/v2/settings', { data: { type: 'settings', page_length: this.pageLength } }));
    const valid = Number.isInteger(this.pageLength) && this.pageLength >= 1 && this.pageLength <= 100;
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

function ordered(m: Model, sort: ListSort | undefined): ModelRecord[] {
  const s = sort ?? 'created_at';
  const desc = s.startsWith('-') ? -1 : 1;
  const field = s.replace(/^-/, '');
  const key = (r: ModelRecord): string | number => (field === 'created_at' ? r.createdMs : field === 'updated_at' ? r.updatedMs : field === 'id' ? r.id : r.username);
  const cmp = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);
  // Ties go by ascending id in either direction (API-NOTES.md "Accounts"; the simulator's total order).
  return [...m.records.values()].sort((a, b) => desc * cmp(key(a), key(b)) || cmp(a.id, b.id));
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
    const limitRule: RuleId = this.limit !== undefined ? 'pagination.limit.per-call' : m.pageLength === 25 ? 'pagination.limit.default' : 'pagination.limit.project-setting';
    must(real, meta.limit === limit, limitRule, `GET ${url}: meta.page.limit (page_length ${m.pageLength})`, limit, meta.limit);
    const ids = idsOf(ex.json);
    const gone = ids.find((id) => !m.records.has(id));
    must(real, gone === undefined, 'large-data.deletes-invisible', `GET ${url}: lists a record that was deleted or never created`, 'only live records', gone);
    const offset = this.offset ?? 0;
    const expected = ordered(m, this.sort)
      .slice(offset, offset + limit)
      .map((r) => r.id);
    must(real, ids.join(',') === expected.join(','), 'password-profile.list', `GET ${url}: the page the model expects`, expected, ids);
  }
  toString = () => `list(${[this.limit === undefined ? '' : `limit ${this.limit}`, this.offset === undefined ? '' : `offset ${this.offset}`, this.sort ?? ''].filter((s) => s !== '').join(', ')})`;
}
