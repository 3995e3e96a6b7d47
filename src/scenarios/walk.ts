/**
 * Walks a list endpoint page by page the way §4.3 describes, and returns every exchange in order
 * for the step's rules to judge. The walk only decides the next request; judging (exactly once,
 * nothing missed) is the oracle's job. The first exchange is always an initial GET without the
 * walk's sort and filter, so checks can read the unfiltered results.total.
 */
import { asList, recordAttr, recordId, sameValue } from '../rules/inspect.js';
import type { Exchange, TargetRequest } from '../port.js';
import type { WalkSpec } from './format.js';
import { buildUrl, type QueryPair } from './request.js';

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

function start(spec: WalkSpec): Cursor {
  switch (spec.mode) {
    case 'keyset-id':
      return { mode: 'keyset-id', after: undefined };
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
