/**
 * Records as JSON. The body of each record (all but links, which depend on the request path) is
 * serialised once and cached on the record; a page joins the cached fragments. How a record looks where
 * the document is silent (timestamp precision and place, id form: rules/readings.ts) is its shape.
 */
import type { IdCodec } from '../engine/ids.js';
import { SAME_IDS } from '../engine/ids.js';
import { shownInstant, type Precision } from '../engine/instants.js';
import type { SimRecord } from '../store/collection.js';
import type { ResourceDef } from '../store/resources.js';

/** Where list records carry their timestamps. */
type Placement = 'meta.timestamps' | 'meta' | 'top' | 'attributes';

export interface RecordShape {
  /** '' for the public API's shape; otherwise different for every shape (part of the cache key). */
  readonly key: string;
  readonly precision: Precision;
  /** Where the timestamps go; a resource whose own place is `meta` (authentication records) keeps it. */
  readonly placement: Placement;
  readonly ids: IdCodec;
  /** Whether list items carry links.self. */
  readonly links: boolean;
}

export const PUBLIC_SHAPE: RecordShape = { key: '', precision: 'ms', placement: 'meta.timestamps', ids: SAME_IDS, links: true };

function timestamps(record: SimRecord, placement: ResourceDef['timestamps']): string {
  const t = `"created_at":"${new Date(record.createdMs).toISOString()}","updated_at":"${new Date(record.updatedMs).toISOString()}"`;
  return placement === 'meta' ? `"meta":{${t}}` : `"meta":{"timestamps":{${t}}}`;
}

/** `{"id":..,"type":..,<attributes>,"meta":{..}` — without the closing brace, so links can follow. Not cached: list items are (listItemJson). */
function recordHead(record: SimRecord, resource: ResourceDef, shape: RecordShape = PUBLIC_SHAPE): string {
  if (shape.key !== '') return shapedHead(record, resource, shape);
  let out = `{"id":${JSON.stringify(record.id)},"type":${JSON.stringify(resource.type)}`;
  for (const attr of resource.attributes) out += `,${JSON.stringify(attr)}:${JSON.stringify(record.attrs[attr] ?? null)}`;
  if (resource.name === 'accounts') out += ',"parent_id":null';
  out += `,${timestamps(record, resource.timestamps)}`;
  return out;
}

/** The same record in another shape (readings other than the public API's). */
function shapedHead(record: SimRecord, resource: ResourceDef, shape: RecordShape): string {
  const t = `"created_at":"${shownInstant(record.createdMs, shape.precision)}","updated_at":"${shownInstant(record.updatedMs, shape.precision)}"`;
  const placement: Placement = resource.timestamps === 'meta' ? 'meta' : shape.placement;
  let attrs = '';
  for (const attr of resource.attributes) attrs += `,${JSON.stringify(attr)}:${JSON.stringify(record.attrs[attr] ?? null)}`;
  if (resource.name === 'accounts') attrs += ',"parent_id":null';
  const head = `{"id":${JSON.stringify(shape.ids.shown(record.id))},"type":${JSON.stringify(resource.type)}`;
  switch (placement) {
    case 'meta.timestamps':
      return `${head}${attrs},"meta":{"timestamps":{${t}}}`;
    case 'meta':
      return `${head}${attrs},"meta":{${t}}`;
    case 'top':
      return `${head}${attrs},${t}`;
    case 'attributes':
      return `${head},"attributes":{${attrs.slice(1)}${attrs === '' ? '' : ','}${t}}`;
  }
}

/**
 * A list item, cached whole together with the self-link prefix it was built with, as text (in process)
 * or as UTF-8 bytes (over HTTP): a page of a collection read through the same path joins or copies
 * ready items. Each form is cached only once something asks for it.
 */
export function listItemJson(record: SimRecord, resource: ResourceDef, selfPrefix: string, shape: RecordShape = PUBLIC_SHAPE): string {
  const key = itemKey(selfPrefix, shape);
  if (record.itemPrefix !== key) forget(record, key);
  return (record.itemText ??= flat(recordJson(record, resource, selfPrefix + shape.ids.shown(record.id), shape)));
}

export function listItemBytes(record: SimRecord, resource: ResourceDef, selfPrefix: string, shape: RecordShape = PUBLIC_SHAPE): Buffer {
  const key = itemKey(selfPrefix, shape);
  if (record.itemPrefix !== key) forget(record, key);
  return (record.itemBytes ??= Buffer.from(record.itemText ?? recordJson(record, resource, selfPrefix + shape.ids.shown(record.id), shape), 'utf8'));
}

const itemKey = (selfPrefix: string, shape: RecordShape): string => (shape.key === '' ? selfPrefix : `${selfPrefix}\u0000${shape.key}`);

function forget(record: SimRecord, key: string): void {
  record.itemText = undefined;
  record.itemBytes = undefined;
  record.itemPrefix = key;
}

/**
 * The same text as one flat string. A string built by concatenation is a tree of fragments, and a page's
 * join would walk every cached item's tree on every read (two thirds of a list read's time). Round-tripping
 * through UTF-8 is exact here: the JSON text holds no lone surrogates (JSON.stringify escapes them).
 */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

export function recordJson(record: SimRecord, resource: ResourceDef, selfUrl: string, shape: RecordShape = PUBLIC_SHAPE): string {
  return shape.links ? `${recordHead(record, resource, shape)},"links":{"self":${JSON.stringify(selfUrl)}}}` : `${recordHead(record, resource, shape)}}`;
}
