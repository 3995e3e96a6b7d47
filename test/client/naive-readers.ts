/** The naive readers of §4.3's traps, shared by the client's tests and the traffic judge's. */
import { isListRecord, timestampOf, type ListRecord } from '../../src/client/keyset.js';
import type { Target } from '../../src/port.js';
import { idsOf } from './helpers.js';

export function recordsOf(body: string): ListRecord[] {
  const parsed: unknown = JSON.parse(body);
  const data: unknown = typeof parsed === 'object' && parsed !== null && 'data' in parsed ? parsed.data : undefined;
  return Array.isArray(data) ? data.filter(isListRecord) : [];
}

/** Offset paging as a naive exporter writes it: sort=id, page[offset] += limit until a short page. */
export async function naiveOffsetReader(target: Target, limit: number): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const ids = idsOf((await target.send({ method: 'GET', url: `/v2/accounts?sort=id&page[limit]=${limit}&page[offset]=${offset}` })).body);
    out.push(...ids);
    if (ids.length < limit) return out;
  }
}

/** A timestamp reader that trusts gt(created_at,<last>) to move on. */
export async function naiveGtReader(target: Target, limit: number): Promise<string[]> {
  const out: string[] = [];
  let last: string | undefined;
  for (;;) {
    const filter = last === undefined ? '' : `&filter=gt(created_at,${last})`;
    const records = recordsOf((await target.send({ method: 'GET', url: `/v2/accounts?sort=created_at&page[limit]=${limit}${filter}` })).body);
    const tail = records.at(-1);
    if (tail === undefined) return out;
    out.push(...records.map((r) => r.id));
    last = timestampOf(tail, 'created_at');
  }
}
