/**
 * Walks a list endpoint page by page the way §4.3 describes, and returns every exchange in order
 * for the step's rules to judge. The walk only decides the next request; judging (exactly once,
 * nothing missed) is the oracle's job. The first exchange is always an initial GET without the
 * walk's sort and filter, so checks can read the unfiltered results.total.
 */
import { asList, MAX_PAGE_LENGTH, recordAttr, recordId, sameValue } from '../rules/inspect.js';
import type { Exchange, TargetRequest } from '../port.js';
import type { WalkSpec } from './format.js';
import { buildUrl, type QueryPair } from './request.js';
import { OFFSET_LIMIT } from '../limits.js';

/** The walk's templated parts, filled. */
export interface ResolvedWalkParts {
  readonly path: string;
  readonly query: readonly QueryPair[];
  readonly between: { readonly afterPage: number; readonly request: TargetRequest } | undefined;
}

export type Send = (request: TargetRequest) => Promise<Exchange>;

/** Where the next page starts. */
type Cursor =
  | { readonly mode: 'keyset-id'; readonly after: string | undefined }
  | { readonly mode: 'keyset-timestamp'; readonly from: string | undefined; readonly offset: number }
  | { readonly mode: 'offset'; readonly offset: number };

export async function runWalk(spec: WalkSpec, parts: ResolvedWalkParts, send: Send): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  const get = async (query: readonly QueryPair[]): Promise<Exchange> => {
    const exchange = await send({ method: 'GET', url: buildUrl(parts.path, query) });
    exchanges.push(exchange);
    return exchange;
  };
  const limit = String(spec.limit);
  await get([...parts.query, ['page[limit]', limit]]);
  if (spec.mode === 'shared-timestamp') {
    await sharedTimestampProbe(spec, parts.query, get);
    return exchanges;
  }

  const extraFilter = parts.query.find(([name]) => name === 'filter')?.[1];
  const kept = parts.query.filter(([name]) => name !== 'filter');
  const requested = new Set<string>();
  let cursor: Cursor | undefined = start(spec);
  for (let page = 1; cursor !== undefined && page <= spec.maxPages; page += 1) {
    const query = pageQuery(spec, cursor, kept, extraFilter, limit);
    const key = buildUrl(parts.path, query);
    if (requested.has(key)) break; // no progress: the target ignored the filter or the offset
    requested.add(key);
    const exchange = await get(query);
    if (parts.between !== undefined && parts.between.afterPage === page) exchanges.push(await send(parts.between.request));
    const items = exchange.response.status === 200 ? asList(exchange.json)?.data : undefined;
    cursor = items === undefined ? undefined : advance(spec, cursor, items);
  }
  return exchanges;
}

/** A uniform page holds at least two records (a page of one is trivially uniform): the run needs three. */
const MIN_RUN = 3;

/** Offsets the scan for a run stays within: §8's soft limit on the paths it applies to. */
const SCAN_OFFSETS = OFFSET_LIMIT;

/**
 * §4.3's further paging, probed where the data allows it: read the set sorted by the attribute until a
 * run of records sharing one value ends (at least three), then read ge(attribute, value) with a page shorter
 * than the run (so its first page is uniform; under half of it when it can, so a further page is too) and page on with page[offset] while pages stay
 * uniform, and once past. Data without such a run leaves the rule without a uniform page: not judged.
 */
async function sharedTimestampProbe(spec: WalkSpec & { readonly mode: 'shared-timestamp' }, query: readonly QueryPair[], get: (q: readonly QueryPair[]) => Promise<Exchange>): Promise<void> {
  const { attribute } = spec;
  const kept = query.filter(([name]) => name !== 'filter');
  const extraFilter = query.find(([name]) => name === 'filter')?.[1];
  const withFilter = (own: string | undefined): QueryPair[] => {
    const text = [extraFilter, own].filter((f): f is string => f !== undefined).join(':');
    return text === '' ? [] : [['filter', text]];
  };
  let run: { value: string; length: number } | undefined;
  let found: { value: string; length: number } | undefined;
  let pages = 0;
  for (let offset = 0; found === undefined && pages < spec.maxPages && offset <= SCAN_OFFSETS; offset += spec.limit, pages += 1) {
    const ex = await get([...kept, ['sort', attribute], ...withFilter(undefined), ['page[limit]', String(spec.limit)], ...(offset === 0 ? [] : [['page[offset]', String(offset)] as QueryPair])]);
    const items = ex.response.status === 200 ? asList(ex.json)?.data : undefined;
    if (items === undefined) return;
    for (const item of items) {
      const value = recordAttr(item, attribute);
      if (typeof value !== 'string') return;
      if (run !== undefined && sameValue(attribute, run.value, value)) run.length += 1;
      else {
        if (run !== undefined && run.length >= MIN_RUN) found = run;
        if (found !== undefined) break;
        run = { value, length: 1 };
      }
    }
    if (items.length < spec.limit) {
      if (found === undefined && run !== undefined && run.length >= MIN_RUN) found = run; // the set ended on the run
      break;
    }
  }
  if (found === undefined) return;
  // Shorter than the run; under half of it where it is long enough, so that a page read further on is uniform too.
  const pageSize = Math.min(found.length >= 5 ? Math.floor((found.length - 1) / 2) : found.length - 1, MAX_PAGE_LENGTH);
  for (let offset = 0, probe = 0; probe < spec.maxPages; offset += pageSize, probe += 1) {
    const ex = await get([
      ...kept,
      ['sort', attribute],
      ...withFilter(`ge(${attribute},${found.value})`),
      ['page[limit]', String(pageSize)],
      ...(offset === 0 ? [] : [['page[offset]', String(offset)] as QueryPair]),
    ]);
    const items = ex.response.status === 200 ? asList(ex.json)?.data : undefined;
    if (items === undefined || items.length < pageSize) return;
    const first = recordAttr(items[0], attribute);
    const last = recordAttr(items.at(-1), attribute);
    // Past the shared value: the rest of the run has been read (or lost, which the rule judges).
    if (typeof first !== 'string' || typeof last !== 'string' || !sameValue(attribute, first, last) || !sameValue(attribute, last, found.value)) return;
  }
}

function start(spec: WalkSpec): Cursor {
  switch (spec.mode) {
    case 'keyset-id':
      return { mode: 'keyset-id', after: undefined };
    case 'shared-timestamp':
    case 'keyset-timestamp':
      return { mode: 'keyset-timestamp', from: undefined, offset: 0 };
    case 'offset':
      return { mode: 'offset', offset: 0 };
  }
}

function pageQuery(spec: WalkSpec, cursor: Cursor, kept: readonly QueryPair[], extraFilter: string | undefined, limit: string): QueryPair[] {
  const out: QueryPair[] = [...kept];
  const filter = (own: string | undefined) => {
    const text = [extraFilter, own].filter((f): f is string => f !== undefined).join(':');
    if (text !== '') out.push(['filter', text]);
  };
  switch (cursor.mode) {
    case 'keyset-id':
      out.push(['sort', 'id']);
      filter(cursor.after === undefined ? undefined : `gt(id,${cursor.after})`);
      out.push(['page[limit]', limit]);
      break;
    case 'keyset-timestamp': {
      const attribute = spec.mode === 'keyset-timestamp' ? spec.attribute : 'created_at';
      out.push(['sort', attribute]);
      filter(cursor.from === undefined ? undefined : `ge(${attribute},${cursor.from})`);
      out.push(['page[limit]', limit]);
      if (cursor.offset > 0) out.push(['page[offset]', String(cursor.offset)]);
      break;
    }
    case 'offset':
      filter(undefined);
      out.push(['page[limit]', limit], ['page[offset]', String(cursor.offset)]);
      break;
  }
  return out;
}

/** The next cursor, or undefined when the walk is over. */
function advance(spec: WalkSpec, cursor: Cursor, items: readonly unknown[]): Cursor | undefined {
  switch (cursor.mode) {
    case 'keyset-id': {
      // §4.3: for id-sorted reads, stop when a page returns zero records.
      if (items.length === 0) return undefined;
      const last = recordId(items[items.length - 1]);
      return last === undefined ? undefined : { mode: 'keyset-id', after: last };
    }
    case 'keyset-timestamp': {
      if (items.length < spec.limit) return undefined; // a short page under a ge filter is the end
      const attribute = spec.mode === 'keyset-timestamp' ? spec.attribute : 'created_at';
      const first = recordAttr(items[0], attribute);
      const last = recordAttr(items[items.length - 1], attribute);
      if (typeof last !== 'string') return undefined;
      if (typeof first !== 'string' || !sameValue(attribute, first, last)) return { mode: 'keyset-timestamp', from: last, offset: 0 };
      // A uniform page: more records may share this timestamp, so page further on the same ge filter.
      if (cursor.from !== undefined && sameValue(attribute, cursor.from, last)) return { ...cursor, offset: cursor.offset + spec.limit };
      // Unfiltered first page: everything is ≥ last, so ge(last) at offset `limit` continues it exactly.
      if (cursor.from === undefined) return { mode: 'keyset-timestamp', from: last, offset: spec.limit };
      return { mode: 'keyset-timestamp', from: last, offset: 0 };
    }
    case 'offset':
      return items.length < spec.limit ? undefined : { mode: 'offset', offset: cursor.offset + spec.limit };
  }
}
