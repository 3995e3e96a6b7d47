/** What list reads show of the reading points: where page and results sit, counting, links, offsets at the limits, ids, timestamps, order. */
import type { Exchange } from '../port.js';
import { at, isObject } from './inspect-json.js';
import { asList, isAsideStatus, pageMeta, recordAttr, recordId } from './inspect.js';
import { isHardOffsetPath } from './inspect-paths.js';
import { listQuery, queryParams, readLink, wholeNumber } from './inspect-wire.js';
import { OFFSET_LIMIT, MAX_PAGE_LENGTH } from '../limits.js';
import type { ReadingName } from './readings.js';

import { ev, type PointNotes } from './fingerprint-notes.js';

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

export function listRead(ex: Exchange, path: string, n: PointNotes): void {
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

export function origin(ex: Exchange, url: URL, n: PointNotes): void {
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

export function idCase(ex: Exchange, id: string, n: PointNotes): void {
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
