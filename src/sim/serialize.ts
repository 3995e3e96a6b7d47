/**
 * Records as JSON. The body of each record (all but links, which depend on the request path) is
 * serialised once and cached on the record; a page joins the cached fragments.
 */
import { iso } from '../store/clock.js';
import type { SimRecord } from '../store/collection.js';
import type { ResourceDef } from '../store/resources.js';

function timestamps(record: SimRecord, placement: ResourceDef['timestamps']): string {
  const t = `"created_at":"${iso(record.createdMs)}","updated_at":"${iso(record.updatedMs)}"`;
  return placement === 'meta' ? `"meta":{${t}}` : `"meta":{"timestamps":{${t}}}`;
}

/** `{"id":..,"type":..,<attributes>,"meta":{..}` — without the closing brace, so links can follow. Not cached: list items are (listItemJson). */
export function recordHead(record: SimRecord, resource: ResourceDef): string {
  let out = `{"id":${JSON.stringify(record.id)},"type":${JSON.stringify(resource.type)}`;
  for (const attr of resource.attributes) out += `,${JSON.stringify(attr)}:${JSON.stringify(record.attrs[attr] ?? null)}`;
  if (resource.name === 'accounts') out += ',"parent_id":null';
  out += `,${timestamps(record, resource.timestamps)}`;
  return out;
}

/**
 * A list item, cached whole together with the self-link prefix it was built with: a page of a
 * collection read through the same path joins ready strings.
 */
export function listItemJson(record: SimRecord, resource: ResourceDef, selfPrefix: string): string {
  if (record.item !== undefined && record.itemPrefix === selfPrefix) return record.item;
  const item = flat(recordJson(record, resource, selfPrefix + record.id));
  record.item = item;
  record.itemPrefix = selfPrefix;
  return item;
}

/**
 * The same text as one flat string. A string built by concatenation is a tree of fragments, and a page's
 * join would walk every cached item's tree on every read (two thirds of a list read's time). Round-tripping
 * through UTF-8 is exact here: the JSON text holds no lone surrogates (JSON.stringify escapes them).
 */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

export function recordJson(record: SimRecord, resource: ResourceDef, selfUrl: string): string {
  return `${recordHead(record, resource)},"links":{"self":${JSON.stringify(selfUrl)}}}`;
}
