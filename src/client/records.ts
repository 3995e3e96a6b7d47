/**
 * Reading list answers for the reference client: the `{"data": [...], "meta": ...}` envelope narrowed
 * from unknown JSON, record timestamps wherever the resource keeps them, and filter values.
 */
import { isJsonObject } from '../engine/json.js';
import type { TargetResponse } from '../target/types.js';
import { ClientError } from './retry.js';

/** A list item: any JSON object with a string id. */
export interface ListRecord {
  readonly id: string;
  readonly [key: string]: unknown;
}

export type TimestampAttribute = 'created_at' | 'updated_at';

/** A timestamp as the target wrote it (reused verbatim in filters) and as an instant (compared). */
export interface Stamp {
  readonly text: string;
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
  const meta = body['meta'];
  const results = isJsonObject(meta) ? meta['results'] : undefined;
  const total = isJsonObject(results) && typeof results['total'] === 'number' ? results['total'] : undefined;
  return { data, total };
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

/** A record's timestamp: `meta.timestamps.<attr>` (accounts), `meta.<attr>` (authentication records) or `<attr>`. */
export function timestampOf(record: ListRecord, attribute: TimestampAttribute): string | undefined {
  const meta = record['meta'];
  const nested = isJsonObject(meta) && isJsonObject(meta['timestamps']) ? meta['timestamps'][attribute] : undefined;
  const value = nested ?? (isJsonObject(meta) ? meta[attribute] : undefined) ?? record[attribute];
  return typeof value === 'string' ? value : undefined;
}

export function stampOfRecord(record: ListRecord, attribute: TimestampAttribute): Stamp {
  const text = timestampOf(record, attribute);
  const ms = text === undefined ? NaN : Date.parse(text);
  if (text === undefined || Number.isNaN(ms)) throw new ClientError('CLIENT_BAD_RESPONSE', `record ${record.id} has no readable ${attribute}`);
  return { text, ms };
}

export function stampOf(text: string): Stamp {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new RangeError(`not a timestamp: '${text}'`);
  return { text, ms };
}

/** Quote a filter value that would break the grammar (`,` or parentheses); ids and ISO times pass as they are. */
export function filterValue(value: string): string {
  if (!/[,()"'\s]/.test(value)) return value;
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}
