/**
 * What one exchange shows of each reading point (rules/readings.ts), for the fingerprint
 * (rules/fingerprint.ts). Each detector notes a value only where the answer tells the values apart; a
 * point whose evidence needs two answers (a username created twice, a page past the end read against the
 * page count's base) keeps a few facts in `state` and is decided in `finishNotes`.
 */
import type { Exchange } from '../port.js';
import { at, isObject } from './inspect-json.js';
import { asList, describe, is2xx, isAsideStatus, methodIs, pageMeta, recordAttr, recordId, sentWithoutAuth } from './inspect.js';
import { isCreatePath, isHardOffsetPath, isSettingsPath, profileItem, PROFILE_TYPE_HYPHEN } from './inspect-paths.js';
import { listQuery, pathOf, queryParams, readLink, wholeNumber } from './inspect-wire.js';
import { classifyCreateBody } from './profile-request.js';
import { isJsonMediaType } from '../media-types.js';
import { MIN_PASSWORD_LENGTH, OFFSET_LIMIT, MAX_PAGE_LENGTH } from '../limits.js';
import type { ReadingName } from './readings.js';

export interface PointNotes {
  readonly options: { readonly origin: string; readonly wire: boolean };
  readonly seen: Map<ReadingName, Map<string, string>>;
  readonly odd: Map<ReadingName, string>;
  note(point: ReadingName, value: string, evidence: string): void;
  unknown(point: ReadingName, evidence: string): void;
  readonly state: State;
}

interface State {
  /** Why a point stays unobserved when the evidence left several values open. */
  reasons?: Map<ReadingName, string>;
  /** The soft offset limit in force, as the last settings answer showed it. */
  softLimit?: number;
  /** Reads past the last page: the reading needs page.current's base to be told apart. */
  pastEnd?: { readonly counted: number; readonly last: number; readonly current: number; readonly evidence: string }[];
  /** Id forms seen, by collection path. */
  idForms?: Map<string, Map<string, string>>;
  /** What `password.characters` values the creates leave open. */
  characters?: Set<string>;
  charactersEvidence?: string[];
  /** Usernames created, by parent path. */
  usernames?: Set<string>;
  /** Compression: what answers to requests that asked for gzip, and to those that did not, came in. */
  gzip?: { askedGot?: string; askedNot?: string; unaskedGot?: string };
  /** Answers at the offset limit itself and just past it, by path kind. */
  edge?: Map<string, { at: { status: number; records: number; total: number | undefined; evidence: string }[]; past?: { status: number; evidence: string } }>;
}

/** The evidence line of an exchange: its request and status. */
const ev = (ex: Exchange, detail = ''): string => `${describe(ex)} → ${ex.response.status}${detail === '' ? '' : `: ${detail}`}`;

export function observeExchange(ex: Exchange, n: PointNotes): void {
  const path = pathOf(ex.request.url);
  if (path.startsWith('/__sim/')) {
    // The simulator's operator moving the soft limit: reads past it are judged against the new one.
    const raised = at(requestData(ex) ?? parsed(ex.request.body), 'page_offset_limit');
    if (path === '/__sim/settings' && is2xx(ex.response.status) && typeof raised === 'number') n.state.softLimit = raised;
    // A state put back or made anew: the limit is the one the next settings answer shows, 10,000 until then.
    else if (/^\/__sim\/(restore|reset|seed)$/.test(path) && is2xx(ex.response.status)) n.state.softLimit = undefined;
    return;
  }
  // The token endpoint is not the API: its answers keep their own wire form.
  if (path === '/oauth/access_token') {
    const status = ex.response.status;
    if (methodIs(ex, 'POST') && status === 404) n.note('token.endpoint', 'absent', ev(ex));
    else if (methodIs(ex, 'POST') && (is2xx(status) || status === 400 || status === 401)) n.note('token.endpoint', 'present', ev(ex));
    return;
  }
  if (n.options.wire) wire(ex, n);
  const type = (ex.response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (is2xx(ex.response.status) && ex.json !== undefined) mediaType(ex, type, n);
  if (isSettingsPath(path)) settings(ex, n);
  if (ex.response.status >= 400) errorBody(ex, n);
  if (methodIs(ex, 'GET')) {
    if (sentWithoutAuth(ex) && !isSettingsPath(path)) {
      if (ex.response.status === 401) n.note('auth.reads', 'required', ev(ex));
      else if (ex.response.status === 200 && asList(ex.json) !== undefined) n.note('auth.reads', 'optional', ev(ex));
    }
    if (asList(ex.json) !== undefined || ex.response.status >= 400) listRead(ex, path, n);
  }
  if (methodIs(ex, 'POST') && isCreatePath(path)) create(ex, path, n);
  if (methodIs(ex, 'PUT') && profileItem(path) !== undefined) update(ex, path, n);
}

// ---------------------------------------------------------------- the wire

function wire(ex: Exchange, n: PointNotes): void {
  const h = ex.response.headers;
  const gzip = /\bgzip\b/i.test(h['content-encoding'] ?? '');
  const asked = Object.entries(ex.request.headers ?? {}).some(([k, v]) => k.toLowerCase() === 'accept-encoding' && /\bgzip\b/i.test(v));
  if (ex.response.body !== '') {
    const g = (n.state.gzip ??= {});
    if (asked && gzip) g.askedGot ??= ev(ex, 'gzip when asked');
    else if (asked) g.askedNot ??= ev(ex, 'identity though gzip was asked for');
    else if (gzip) g.unaskedGot ??= ev(ex, 'gzip without Accept-Encoding');
  }
  const connection = (h['connection'] ?? '').toLowerCase();
  n.note('connection', connection.includes('close') ? 'close' : 'keep-alive', ev(ex, connection === '' ? 'no Connection header' : `Connection: ${connection}`));
}

function mediaType(ex: Exchange, type: string, n: PointNotes): void {
  if (type === 'application/json' || type === 'application/vnd.api+json') n.note('media-type', type, ev(ex, `Content-Type ${type}`));
  else n.unknown('media-type', ev(ex, `Content-Type ${type === '' ? 'absent' : type}`));
}

// ---------------------------------------------------------------- settings and errors

function settings(ex: Exchange, n: PointNotes): void {
  if (methodIs(ex, 'GET')) {
    if (ex.response.status === 200) n.note('settings.path', '/v2/settings', ev(ex));
    else if (ex.response.status === 404) n.note('settings.path', 'hidden', ev(ex));
  }
  const limit = at(ex.json, 'data', 'page_offset_limit');
  if (is2xx(ex.response.status) && typeof limit === 'number' && Number.isInteger(limit) && limit > 0) n.state.softLimit = limit;
}

function errorBody(ex: Exchange, n: PointNotes): void {
  const json = ex.json;
  if (!isObject(json)) return;
  const type = (ex.response.headers['content-type'] ?? '').toLowerCase();
  const errors = json['errors'];
  if (Array.isArray(errors) && isObject(errors[0])) {
    const status = errors[0]['status'];
    if (typeof status === 'number') n.note('errors.format', 'errors-array', ev(ex, 'errors[].status a number'));
    else if (typeof status === 'string') n.note('errors.format', 'errors-array-text-status', ev(ex, 'errors[].status a string'));
    else n.unknown('errors.format', ev(ex, 'errors[] without a status'));
  } else if (isObject(json['error']) && 'code' in json['error']) n.note('errors.format', 'error-object', ev(ex, '{"error": {"code", ...}}'));
  else if (type.startsWith('application/problem+json') || ('title' in json && 'status' in json && !('data' in json))) n.note('errors.format', 'problem-json', ev(ex, 'a problem document'));
  else n.unknown('errors.format', ev(ex, `members ${Object.keys(json).slice(0, 5).join(', ')}`));
}

// ---------------------------------------------------------------- list reads

const DEEP = ['meta', 'response', 'body', 'listing', 'paging', 'state', 'window', 'view', 'frame', 'slot', 'part', 'info'];
const LAYOUTS: readonly { readonly value: string; readonly page: string; readonly results: string }[] = [
  { value: 'meta', page: 'meta.page', results: 'meta.results' },
  { value: 'top', page: 'page', results: 'results' },
  { value: 'nested', page: 'meta.listing.paging.page', results: 'meta.listing.paging.results' },
  { value: 'split', page: 'page', results: 'meta.results' },
  { value: 'deep', page: [...DEEP, 'page'].join('.'), results: [...DEEP, 'results'].join('.') },
];

/** Paths of the shallowest `page` and `results` objects outside data and links. */
function pagePaths(json: unknown): { page?: string; results?: string } {
  const found: { page?: string; results?: string } = {};
  let level: [unknown, string][] = [[json, '']];
  for (let depth = 0; depth < 32 && level.length > 0 && (found.page === undefined || found.results === undefined); depth++) {
    const next: [unknown, string][] = [];
    for (const [value, path] of level) {
      if (!isObject(value)) continue;
      for (const [key, member] of Object.entries(value).slice(0, 200)) {
        if (!isObject(member) || (depth === 0 && (key === 'data' || key === 'links'))) continue;
        const p = path === '' ? key : `${path}.${key}`;
        if (key === 'page' && found.page === undefined) found.page = p;
        else if (key === 'results' && found.results === undefined) found.results = p;
        else next.push([member, p]);
      }
    }
    level = next;
  }
  return found;
}

/** Page parameters given once each, no filter, a sort (if any) on one plain attribute: a refusal can only be the page parameters'. */
function plainPaging(url: string): boolean {
  const params = queryParams(url);
  const once = (name: string) => (params.get(name)?.length ?? 0) <= 1;
  const sort = params.get('sort')?.[0];
  return once('page[limit]') && once('page[offset]') && !params.has('filter') && (sort === undefined || /^(id|created_at|updated_at)$/.test(sort));
}

function listRead(ex: Exchange, path: string, n: PointNotes): void {
  if (!plainPaging(ex.request.url)) {
    if (ex.response.status === 200 && asList(ex.json) !== undefined) {
      envelope(ex, n);
      counting(ex, wholeNumber(listQuery(ex.request.url).offset) ?? 0, n);
      records(ex, path, asList(ex.json)?.data ?? [], n);
    }
    return;
  }
  const q = listQuery(ex.request.url);
  const asked = wholeNumber(q.limit);
  const offset = wholeNumber(q.offset) ?? 0;
  const status = ex.response.status;
  if (isAsideStatus(status) || status >= 500) return;
  // Page limits and offsets: what a refused or a served read says.
  if (asked !== undefined && asked > MAX_PAGE_LENGTH && q.limit !== undefined) {
    if (status === 200) n.note('limit.above-max', 'clamp', ev(ex));
    else if (status >= 400) n.note('limit.above-max', 'refuse', ev(ex));
  }
  const list = asList(ex.json);
  const m = pageMeta(ex.json);
  if (q.limit !== undefined && asked === 0) {
    if (status >= 400) n.note('limit.zero', 'refuse', ev(ex));
    else if (status === 200 && m.limit === 1) n.note('limit.zero', 'one', ev(ex, 'meta.page.limit 1'));
    else if (status === 200 && m.limit !== undefined) n.note('limit.zero', 'default', ev(ex, `meta.page.limit ${m.limit}`));
  }
  offsets(ex, path, offset, status, list?.data.length, m.resultsTotal, n);
  if (status !== 200 || list === undefined) return;
  envelope(ex, n);
  counting(ex, offset, n);
  records(ex, path, list.data, n);
}

function envelope(ex: Exchange, n: PointNotes): void {
  const paths = pagePaths(ex.json);
  if (paths.page !== undefined && paths.results !== undefined) {
    const layout = LAYOUTS.find((l) => l.page === paths.page && l.results === paths.results);
    if (layout !== undefined) n.note('meta.position', layout.value, ev(ex, `page at ${paths.page}, results at ${paths.results}`));
    else n.unknown('meta.position', ev(ex, `page at ${paths.page}, results at ${paths.results}`));
    const limit = at(ex.json, ...paths.page.split('.'), 'limit');
    if (typeof limit === 'number') n.note('meta.numbers', 'number', ev(ex, 'page.limit a number'));
    else if (typeof limit === 'string') n.note('meta.numbers', 'string', ev(ex, 'page.limit a string'));
  }
  const links = isObject(ex.json) ? ex.json['links'] : undefined;
  n.note('links', isObject(links) ? 'present' : 'absent', ev(ex, isObject(links) ? 'links present' : 'no links'));
  if (isObject(links)) {
    for (const name of ['current', 'first', 'next', 'last', 'prev']) {
      const link = readLink(links, name);
      if (link.kind === 'url') {
        origin(ex, link.url, n);
        break;
      }
    }
  }
}

function origin(ex: Exchange, url: URL, n: PointNotes): void {
  let expected: string;
  try {
    expected = new URL(n.options.origin).origin;
  } catch {
    return;
  }
  n.note('links.origin', url.origin === expected ? 'request' : 'canonical', ev(ex, `links at ${url.origin}`));
}

function counting(ex: Exchange, offset: number, n: PointNotes): void {
  const m = pageMeta(ex.json);
  if (m.limit === undefined || m.limit <= 0 || m.resultsTotal === undefined || m.total === undefined) return;
  const total = m.resultsTotal;
  if (total === 0) {
    if (m.total === 0) n.note('page.total-empty', 'zero', ev(ex, 'page.total 0'));
    else if (m.total === 1) n.note('page.total-empty', 'one', ev(ex, 'page.total 1'));
    return;
  }
  if (offset === 0 && m.current !== undefined) {
    if (m.current === 1) n.note('page.current', 'one-based', ev(ex, 'page.current 1 at offset 0'));
    else if (m.current === 0) n.note('page.current', 'zero-based', ev(ex, 'page.current 0 at offset 0'));
  }
  if (offset > 0 && offset % m.limit !== 0 && offset < total) {
    const grid = Math.ceil(total / m.limit);
    const own = Math.ceil(offset / m.limit) + Math.ceil((total - offset) / m.limit);
    if (own !== grid && m.total === grid) n.note('page.grid', 'data-set', ev(ex, `page.total ${grid}`));
    else if (own !== grid && m.total === own) n.note('page.grid', 'offset', ev(ex, `page.total ${own}`));
  }
  if (offset >= total && m.current !== undefined) {
    const list = (n.state.pastEnd ??= []);
    if (list.length < 4) list.push({ counted: Math.floor(offset / m.limit), last: Math.max(0, m.total - 1), current: m.current, evidence: ev(ex, `page.current ${m.current} of ${m.total}`) });
  }
}

/** Offsets at and past the limits (§8), from the path's kind and the soft limit in force. */
function offsets(ex: Exchange, path: string, offset: number, status: number, records: number | undefined, total: number | undefined, n: PointNotes): void {
  const raw = listQuery(ex.request.url).limit;
  const limitQ = wholeNumber(raw);
  // A page[limit] the read could be refused for: the offset is not what its answer says anything about.
  if (raw !== undefined && (limitQ === undefined || limitQ < 1 || limitQ > MAX_PAGE_LENGTH)) return;
  const hard = isHardOffsetPath(path);
  const limit = hard ? OFFSET_LIMIT : (n.state.softLimit ?? OFFSET_LIMIT);
  const kind = `${hard ? 'hard' : 'soft'}@${limit}`;
  const edges = (n.state.edge ??= new Map());
  const edge = edges.get(kind) ?? { at: [] };
  edges.set(kind, edge);
  if (offset === limit && edge.at.length < 8) edge.at.push({ status, records: records ?? 0, total, evidence: ev(ex) });
  if (offset === limit + 1) edge.past ??= { status, evidence: ev(ex) };
  // A hard-limited page reaching past the 10,000th record: cut there, or served whole.
  if (hard && status === 200 && records !== undefined && total !== undefined && total > OFFSET_LIMIT && offset < OFFSET_LIMIT && limitQ !== undefined && offset + limitQ > OFFSET_LIMIT) {
    if (records === OFFSET_LIMIT - offset) n.note('offset.edge', 'exclusive', ev(ex, `${records} records: the page stops at the 10,000th`));
    else if (records === Math.min(limitQ, total - offset)) n.note('offset.edge', 'inclusive', ev(ex, `${records} records`));
  }
  if (offset <= limit) return;
  const point: ReadingName = hard ? 'offset.past-hard' : 'offset.past-soft';
  if (status >= 400 && status < 500) n.note(point, 'refuse', ev(ex));
  else if (status === 200 && records !== undefined && records > 0) {
    // Records past the hard limit are no reading: pagination.offset-limit.hard judges them.
    if (hard) n.unknown(point, ev(ex, `${records} records past 10,000`));
    else n.note(point, 'serve', ev(ex, `${records} records`));
  } else if (status === 200 && (hard || (total !== undefined && total > offset))) n.note(point, 'empty', ev(ex, `no records of ${total ?? '?'}`));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function idForm(id: string): string | undefined {
  if (UUID.test(id)) return 'uuid';
  if (/^[a-z]+_[0-9a-f]{32}$/i.test(id)) return 'prefixed';
  if (/^(0|[1-9]\d*)$/.test(id)) return 'numeric';
  return undefined;
}

function idCase(ex: Exchange, id: string, n: PointNotes): void {
  if (!UUID.test(id) || !/[a-f]/i.test(id)) return;
  if (id === id.toUpperCase()) n.note('ids.case', 'upper', ev(ex, `id ${id}`));
  else if (id === id.toLowerCase()) n.note('ids.case', 'lower', ev(ex, `id ${id}`));
  else n.unknown('ids.case', ev(ex, `id ${id} in mixed case`));
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.(\d+))?Z$/;
const PRECISIONS: Readonly<Record<number, string>> = { 0: 's', 3: 'ms', 6: 'us', 9: 'ns' };

function records(ex: Exchange, path: string, data: readonly unknown[], n: PointNotes): void {
  const auth = path.startsWith('/v2/authentication-realms');
  const first = data[0];
  if (first !== undefined) {
    const id = recordId(first);
    if (id !== undefined) {
      idCase(ex, id, n);
      if (!auth && (path === '/v2/accounts' || path === '/v2/orders' || path === '/v2/files')) {
        const forms = (n.state.idForms ??= new Map());
        const byPath = forms.get(path) ?? new Map<string, string>();
        forms.set(path, byPath);
        byPath.set(idForm(id) ?? `other (${id.slice(0, 40)})`, ev(ex, `id ${id}`));
      }
    }
    const created = recordAttr(first, 'created_at');
    if (typeof created === 'string' && !auth) {
      const m = TIMESTAMP.exec(created);
      const p = m === null ? undefined : PRECISIONS[m[2]?.length ?? 0];
      if (p !== undefined) n.note('timestamps.precision', p, ev(ex, `created_at ${created}`));
      else n.unknown('timestamps.precision', ev(ex, `created_at ${created}`));
      const placement = isObject(at(first, 'meta', 'timestamps'))
        ? 'meta.timestamps'
        : at(first, 'meta', 'created_at') !== undefined
          ? 'meta'
          : at(first, 'attributes', 'created_at') !== undefined
            ? 'attributes'
            : at(first, 'created_at') !== undefined
              ? 'top'
              : undefined;
      if (placement !== undefined) n.note('timestamps.placement', placement, ev(ex, `created_at at ${placement === 'top' ? 'the record’s top' : placement}`));
    }
  }
  order(ex, path, data, n);
}

const compareIds = (a: string, b: string): number => {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

function order(ex: Exchange, path: string, data: readonly unknown[], n: PointNotes): void {
  const q = listQuery(ex.request.url);
  const ids = data.map(recordId);
  const stamps = data.map((r) => recordAttr(r, 'created_at'));
  if (ids.some((i) => i === undefined) || data.length < 3) return;
  const s = stamps.filter((v): v is string => typeof v === 'string');
  // Records sharing created_at are ordered by the ties' reading: only a page of distinct values tells the orders apart.
  if (q.sort === undefined && q.filter === undefined && !path.startsWith('/v2/authentication-realms') && new Set(s).size === s.length) {
    const pairs = (cmp: (i: number) => number) => Array.from({ length: data.length - 1 }, (_, i) => cmp(i));
    const byTime = s.length === data.length ? pairs((i) => ((s[i] ?? '') < (s[i + 1] ?? '') ? -1 : (s[i] ?? '') > (s[i + 1] ?? '') ? 1 : 0)) : [];
    const byId = pairs((i) => compareIds(ids[i] ?? '', ids[i + 1] ?? ''));
    const up = byTime.length > 0 && byTime.every((c) => c < 0);
    const down = byTime.length > 0 && byTime.every((c) => c > 0);
    const idUp = byId.every((c) => c < 0);
    if (up && !idUp) n.note('order.unsorted', 'created_at', ev(ex, 'oldest first'));
    else if (down && !idUp) n.note('order.unsorted', 'newest', ev(ex, 'newest first'));
    else if (idUp && !up && !down) n.note('order.unsorted', 'id', ev(ex, 'by id'));
  }
  const sort = q.sort;
  if (sort !== undefined && !sort.startsWith('-') && !sort.includes(',')) {
    const values = data.map((r) => (sort === 'id' ? recordId(r) : recordAttr(r, sort)));
    for (let i = 0; i + 1 < data.length; i++) {
      const [a, b] = [values[i], values[i + 1]];
      if (typeof a !== 'string' || a !== b) continue;
      const c = compareIds(ids[i] ?? '', ids[i + 1] ?? '');
      n.note('order.ties', c < 0 ? 'id' : 'id-desc', ev(ex, `records ${i + 1} and ${i + 2} share ${sort} ${a}`));
      break;
    }
  }
}

// ---------------------------------------------------------------- creates and updates

const parentOf = (path: string): string => path.replace(/\/$/, '');

function create(ex: Exchange, path: string, n: PointNotes): void {
  const status = ex.response.status;
  if (isAsideStatus(status) || status === 404 || status >= 500) return;
  const body = classifyCreateBody(ex);
  const data = isObject(at(ex.json, 'data')) ? at(ex.json, 'data') : undefined;
  const createdId = at(data, 'id');
  if (typeof createdId === 'string') idCase(ex, createdId, n);
  const self = readLink(at(ex.json, 'links'), 'self');
  if (self.kind === 'url') origin(ex, self.url, n);
  const contentType = Object.entries(ex.request.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (!isJsonMediaType(contentType) && (ex.request.body ?? '') !== '') {
    if (status === 415) n.note('create.media-type', 'strict', ev(ex, `Content-Type ${contentType ?? 'absent'}`));
    else n.note('create.media-type', 'lenient', ev(ex, `Content-Type ${contentType ?? 'absent'}`));
    return;
  }
  const username = at(requestData(ex), 'username');
  const key = typeof username === 'string' ? `${parentOf(path)}\u0000${username}` : undefined;
  const used = (n.state.usernames ??= new Set());
  const repeat = key !== undefined && used.has(key);
  if (repeat && (body.kind === 'valid' || body.kind === 'unclear')) duplicate(ex, status, n, 201);
  if (key !== undefined && is2xx(status) && used.size < 10_000) used.add(key);
  if (repeat) return;
  if (body.kind === 'valid' && at(body.data, 'type') === PROFILE_TYPE_HYPHEN) {
    if (is2xx(status)) n.note('create.hyphen-type', 'accept', ev(ex));
    else if (status === 400 || status === 422) n.note('create.hyphen-type', 'refuse', ev(ex));
  }
  const password = at(requestData(ex), 'password');
  if (typeof password !== 'string') return;
  const counts = { graphemes: graphemeCount(password), 'code-points': [...password].length, 'code-units': password.length };
  const fieldsOk = ['type', 'password_profile_id', 'username'].every((f) => typeof at(requestData(ex), f) === 'string' && at(requestData(ex), f) !== '');
  if (!fieldsOk) return;
  const least = Math.min(...Object.values(counts));
  const most = Math.max(...Object.values(counts));
  if (most < MIN_PASSWORD_LENGTH && (status === 400 || status === 422)) n.note('errors.validation-status', String(status), ev(ex, `a ${most}-character password`));
  if (least < MIN_PASSWORD_LENGTH && most >= MIN_PASSWORD_LENGTH && (is2xx(status) || status === 400 || status === 422)) {
    const accepted = is2xx(status);
    const fits = Object.entries(counts)
      .filter(([, c]) => c >= MIN_PASSWORD_LENGTH === accepted)
      .map(([k]) => k);
    const open = (n.state.characters ??= new Set(['graphemes', 'code-points', 'code-units']));
    for (const k of [...open]) if (!fits.includes(k)) open.delete(k);
    const evidence = (n.state.charactersEvidence ??= []);
    if (evidence.length < 3) evidence.push(ev(ex, `${JSON.stringify(counts)} ${accepted ? 'accepted' : 'refused'}`));
  }
}

function update(ex: Exchange, path: string, n: PointNotes): void {
  const item = profileItem(path);
  const username = at(requestData(ex), 'username');
  if (item === undefined || typeof username !== 'string') return;
  const parent = path.slice(0, path.lastIndexOf('/'));
  const key = `${parent}\u0000${username}`;
  const used = (n.state.usernames ??= new Set());
  if (used.has(key)) duplicate(ex, ex.response.status, n, 200);
  else if (is2xx(ex.response.status) && used.size < 10_000) used.add(key);
}

function duplicate(ex: Exchange, status: number, n: PointNotes, created: number): void {
  if (status === created || is2xx(status)) n.note('usernames', 'repeat', ev(ex, 'a username held already, accepted'));
  else if (status === 409) n.note('usernames', 'conflict', ev(ex, 'a username held already'));
  else if (status === 422) n.note('usernames', 'invalid', ev(ex, 'a username held already'));
}

function parsed(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '') as unknown;
  } catch {
    return undefined;
  }
}

function requestData(ex: Exchange): unknown {
  try {
    return at(JSON.parse(ex.request.body ?? '') as unknown, 'data');
  } catch {
    return undefined;
  }
}

let segmenter: Intl.Segmenter | undefined;
function graphemeCount(s: string): number {
  let g = 0;
  for (const _ of (segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(s)) g += 1;
  return g;
}

// ---------------------------------------------------------------- decided at the end

/** Points whose evidence needs the whole run: ids per collection, page.current past the end, password characters, compression, the offset edge. */
export function finishNotes(n: PointNotes): void {
  const reasons = (n.state.reasons ??= new Map());
  const forms = n.state.idForms;
  if (forms !== undefined && forms.size === 3) {
    const single = (p: string) => {
      const m = forms.get(p);
      return m !== undefined && m.size === 1 ? [...m][0] : undefined;
    };
    const [a, o, f] = ['/v2/accounts', '/v2/orders', '/v2/files'].map(single);
    const evidence = [a, o, f].map((x) => x?.[1] ?? '').join('; ');
    if (a === undefined || o === undefined || f === undefined) n.unknown('ids.format', [...forms].map(([p, m]) => `${p}: ${[...m.keys()].join(', ')}`).join('; '));
    else if (a[0] === o[0] && o[0] === f[0] && ['uuid', 'prefixed', 'numeric'].includes(a[0])) n.note('ids.format', a[0], evidence);
    else if (a[0] === 'uuid' && o[0] === 'prefixed' && f[0] === 'numeric') n.note('ids.format', 'per-collection', evidence);
    else n.unknown('ids.format', evidence);
  }
  const base = readBase(n);
  for (const p of n.state.pastEnd ?? []) {
    if (base === undefined) {
      reasons.set('page.current-past-end', 'reads past the last page were seen, but no read at offset 0 showed how pages are counted');
      continue;
    }
    const counted = p.counted + base;
    const capped = p.last + base;
    if (counted === capped) continue;
    if (p.current === counted) n.note('page.current-past-end', 'counted', p.evidence);
    else if (p.current === capped) n.note('page.current-past-end', 'capped', p.evidence);
    else n.unknown('page.current-past-end', p.evidence);
  }
  const open = n.state.characters;
  if (open !== undefined) {
    const evidence = (n.state.charactersEvidence ?? []).join('; ');
    const [only] = [...open];
    if (open.size === 0) n.unknown('password.characters', evidence);
    else if (open.size === 1 && only !== undefined) n.note('password.characters', only, evidence);
    else reasons.set('password.characters', `the creates seen leave ${[...open].join(' or ')} open (${evidence})`);
  }
  const g = n.state.gzip;
  if (g?.unaskedGot !== undefined) n.note('compression', 'always', g.unaskedGot);
  else if (g?.askedGot !== undefined) n.note('compression', 'on-request', g.askedGot);
  else if (g?.askedNot !== undefined) n.note('compression', 'never', g.askedNot);
  else if (n.options.wire) reasons.set('compression', 'no request asked for gzip, and none was sent it unasked: never or on request');
  for (const [key, e] of n.state.edge ?? []) {
    const hard = key.startsWith('hard');
    const limit = Number(key.split('@')[1]);
    // At the limit itself a read is within it, or past it and answered as reads past it are (refused, empty, or served).
    const past = n.seen.get(hard ? 'offset.past-hard' : 'offset.past-soft');
    const pastServes = past === undefined || past.has('serve');
    for (const at of e.at) {
      if (at.status >= 400 && at.status < 500) n.note('offset.edge', 'exclusive', at.evidence);
      else if (at.status === 200 && at.records > 0 && (hard || !pastServes)) n.note('offset.edge', 'inclusive', `${at.evidence}: ${at.records} records`);
      else if (at.status === 200 && at.records === 0 && at.total !== undefined && at.total > limit) n.note('offset.edge', 'exclusive', `${at.evidence}: no records of ${at.total}`);
      else if (at.status === 200 && e.past !== undefined && e.past.status >= 400 && e.past.status < 500) n.note('offset.edge', 'inclusive', `${at.evidence}; ${e.past.evidence}`);
    }
  }
}

function readBase(n: PointNotes): number | undefined {
  const values = n.seen.get('page.current');
  if (values === undefined || values.size !== 1) return undefined;
  return values.has('one-based') ? 1 : values.has('zero-based') ? 0 : undefined;
}
