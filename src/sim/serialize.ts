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

/** `{"id":..,"type":..,<attributes>,"meta":{..}` — without the closing brace, so links can follow. */
export function recordHead(record: SimRecord, resource: ResourceDef): string {
  if (record.json !== undefined) return record.json;
  let out = `{"id":${JSON.stringify(record.id)},"type":${JSON.stringify(resource.type)}`;
  for (const attr of resource.attributes) out += `,${JSON.stringify(attr)}:${JSON.stringify(record.attrs[attr] ?? null)}`;
  if (resource.name === 'accounts') out += ',"parent_id":null';
  out += `,${timestamps(record, resource.timestamps)}`;
  record.json = out;
  return out;
}

export function recordJson(record: SimRecord, resource: ResourceDef, selfUrl: string): string {
  return `${recordHead(record, resource)},"links":{"self":${JSON.stringify(selfUrl)}}}`;
}
