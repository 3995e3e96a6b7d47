/**
 * Reading list answers for the reference client: the `{"data": [...], "meta": ...}` envelope narrowed
 * from unknown JSON, record timestamps wherever the resource keeps them, and filter values.
 */
import { isJsonObject } from '../engine/json.js';
import type { TargetResponse } from '../port.js';
import { ClientError } from './retry.js';
import { instantOf, pageMeta, recordAttr } from '../rules/inspect.js';

/** A list item: any JSON object with a string id. */
export interface ListRecord {
  readonly id: string;
  readonly [key: string]: unknown;
}

export type TimestampAttribute = 'created_at' | 'updated_at';

/**
 * A timestamp as the target wrote it (reused verbatim in filters) and as an instant: `ns` at the
 * precision the target writes (compared: two records a microsecond apart are not at one instant), `ms`
 * for clocks and buffers.
 */
export interface Stamp {
  readonly text: string;
  readonly ns: bigint;
  readonly ms: number;
}

/** Ids strictly ascending within the page and after `after` (JS order, as the keyset filter compares them). */
export function ascendingIds(page: readonly ListRecord[], after: string | undefined): boolean {
  let previous = after;
  for (const record of page) {
    if (previous !== undefined && !(record.id > previous)) return false;
    previous = record.id;
  }
  return true;
}

export function parseList(response: TargetResponse, url: string): { data: ListRecord[]; total: number | undefined } {
  let body: unknown;
  try {
    body = response.body === '' ? undefined : JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  if (response.status !== 200) {
    throw new ClientError('CLIENT_HTTP_STATUS', `GET ${url} answered ${response.status}${errorDetail(body)}`, { status: response.status });
  }
  if (!isJsonObject(body) || !Array.isArray(body['data'])) throw new ClientError('CLIENT_BAD_RESPONSE', `GET ${url}: the answer has no data array`, { status: 200 });
  const data: ListRecord[] = [];
  for (const item of body['data']) {
    if (!isListRecord(item)) throw new ClientError('CLIENT_BAD_RESPONSE', `GET ${url}: a list item has no string id`, { status: 200 });
    data.push(item);
  }
  // results.total wherever the target puts it, as a number or a numeric string (§2.3: position and type not shown).
  return { data, total: pageMeta(body).resultsTotal };
}

/** ` (title: detail)` of the API's error array, when there is one. */
function errorDetail(body: unknown): string {
  const first = isJsonObject(body) && Array.isArray(body['errors']) ? body['errors'][0] : undefined;
  if (!isJsonObject(first)) return '';
  const text = [first['title'], first['detail']].filter((s): s is string => typeof s === 'string').join(': ');
  return text === '' ? '' : ` (${text})`;
}

export function isListRecord(v: unknown): v is ListRecord {
  return isJsonObject(v) && typeof v['id'] === 'string';
}

/** A record's timestamp wherever the target keeps it: `meta.timestamps.<attr>` (accounts), `meta.<attr>`, `<attr>` or `attributes.<attr>`. */
export function timestampOf(record: ListRecord, attribute: TimestampAttribute): string | undefined {
  const value = recordAttr(record, attribute);
  return typeof value === 'string' ? value : undefined;
}

export function stampOfRecord(record: ListRecord, attribute: TimestampAttribute): Stamp {
  const text = timestampOf(record, attribute);
  const ns = text === undefined ? undefined : instantOf(text);
  if (text === undefined || ns === undefined) throw new ClientError('CLIENT_BAD_RESPONSE', `record ${record.id} has no readable ${attribute}`);
  return { text, ns, ms: msOf(ns) };
}

export function stampOf(text: string): Stamp {
  const ns = instantOf(text);
  if (ns === undefined) throw new RangeError(`not a timestamp: '${text}'`);
  return { text, ns, ms: msOf(ns) };
}

const msOf = (ns: bigint): number => Number(ns / 1_000_000n) - (ns < 0n && ns % 1_000_000n !== 0n ? 1 : 0);

/** Quote a filter value that would break the grammar (`,` or parentheses); ids and ISO times pass as they are. */
export function filterValue(value: string): string {
  if (!/[,()"'\s]/.test(value)) return value;
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}
