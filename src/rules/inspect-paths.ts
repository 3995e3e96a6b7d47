/**
 * Paths and timestamps the oracle recognises: the password-profile resource (commerce-api.md §4.1),
 * the list endpoints the document names (paths from docs/api-notes.md, "Real paths of the list endpoints"),
 * the settings endpoint, and ISO 8601 instants.
 */
import { lastFew } from './inspect-wire.js';

export const PROFILE_TYPE = 'user_authentication_password_profile_info';
export const PROFILE_TYPE_HYPHEN = 'user-authentication-password-profile-info';

const PROFILE_PATH = /\/v2\/authentication-realms\/([^/]+)\/user-authentication-info\/([^/]+)\/user-authentication-password-profile-info(?:\/([^/]+))?\/?$/;

export interface ProfilePath {
  readonly realm: string;
  readonly uai: string;
  /** The record id of an item path; undefined on the collection path. */
  readonly id: string | undefined;
  readonly trailingSlash: boolean;
}

/** Realm, user-authentication-info and (for an item) record id of a password-profile path, decoded. */
export function profilePath(path: string): ProfilePath | undefined {
  const m = PROFILE_PATH.exec(path);
  if (m === null || m[1] === undefined || m[2] === undefined) return undefined;
  return { realm: decodeSegment(m[1]), uai: decodeSegment(m[2]), id: m[3] === undefined ? undefined : decodeSegment(m[3]), trailingSlash: path.endsWith('/') };
}

/** The password-profile-info collection path (the create path), with or without a trailing slash. */
export function isCreatePath(url: string): boolean {
  const p = profilePath(stripQuery(url));
  return p !== undefined && p.id === undefined;
}

/** An item path of the password-profile-info resource. */
export function profileItem(url: string): ProfilePath | undefined {
  const p = profilePath(stripQuery(url));
  return p?.id === undefined ? undefined : p;
}

function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut < 0 ? url : url.slice(0, cut);
}

/** A path segment percent-decoded (`+` stays: it is a space only in queries), as written when malformed. */
export function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const CATALOG_READS = ['hierarchies', 'hierarchies/{id}/children', 'hierarchies/{id}/nodes', 'hierarchies/{id}/products', 'nodes', 'nodes/{id}/relationships/products', 'products'];

/** The paths of the list endpoints commerce-api.md §4.2 names, as docs/api-notes.md gives them. */
const DOCUMENTED_LIST_PATHS: readonly string[] = [
  '/v2/accounts',
  '/v2/account-members',
  '/v2/authentication-realms/{realm}/user-authentication-info',
  '/v2/flows/{slug}/entries',
  '/v2/customers',
  '/v2/integrations/logs',
  '/v2/integrations/{id}/logs',
  '/v2/orders',
  '/v2/promotions',
  '/pcm/catalogs',
  ...CATALOG_READS.map((p) => `/catalog/${p}`),
  ...CATALOG_READS.map((p) => `/catalogs/{catalog}/releases/{release}/${p}`),
  '/pcm/products/{id}/nodes',
  '/pcm/hierarchies/{h}/nodes/{n}/products',
  '/pcm/catalogs/rules',
  '/pcm/pricebooks/{id}/modifiers',
  '/pcm/pricebooks/{id}/prices',
  '/v2/inventories',
  '/v2/files',
  '/pcm/jobs',
  '/v2/promotions/{id}/usages',
  '/v2/promotions/{id}/codes/{code}/usages',
  '/v2/rule-promotions/{id}/usages',
  '/v2/rule-promotions/{id}/codes/{code}/usages',
];

/** Paths outside /v2 are also accepted with a /v2 prefix (deployments differ). */
const LIST_PATTERNS: readonly { readonly template: string; readonly re: RegExp }[] = DOCUMENTED_LIST_PATHS.map((template) => {
  const body = template
    .split('/')
    .map((seg) => (/^\{.+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('/');
  const prefix = template.startsWith('/v2/') ? '' : '(?:/v2)?';
  return { template, re: new RegExp(`^${prefix}${body}/?$`) };
});

/** The documented list endpoint a path belongs to (its template), or undefined. */
export const documentedListPath: (path: string) => string | undefined = lastFew((path) => LIST_PATTERNS.find(({ re }) => re.test(path))?.template);

/** A documented list endpoint, or the password-profile collection (a list in the public API). */
export const isPaginatedPath = (path: string): boolean => documentedListPath(path) !== undefined || isCreatePath(path);

/** /v2/orders and /v2/files: the hard offset limit of commerce-api.md §8. */
export const isHardOffsetPath = (path: string): boolean => /^\/v2\/(orders|files)\/?$/.test(path);

export const isSettingsPath = (path: string): boolean => /^\/v2\/settings\/?$/.test(path);

export { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH, OFFSET_LIMIT } from '../limits.js';

// ---------------------------------------------------------------- timestamps

/** `YYYY-MM-DDTHH:mm:ss.sssZ`, the create response's format (commerce-api.md §2.1). */
export function isIsoMillisZ(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text) && instantOf(text) !== undefined;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|z|[+\- ]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Nanoseconds since the epoch of an ISO 8601 date or date-time, every fraction digit kept (the precision
 * of list records' timestamps is not shown: a deployment may keep microseconds, and two records a
 * microsecond apart are not at the same instant), or undefined. A missing zone is UTC (never the
 * machine's zone); a space before the offset is a `+` that URL decoding turned into a space.
 */
export const instantOf: (text: string) => bigint | undefined = lastFew(readInstant, 8_192);

/** Every record's timestamps are compared by several checks, page after page: each text is read once. */
function readInstant(text: string): bigint | undefined {
  const m = ISO.exec(text.trim());
  if (m === null) return undefined;
  const n = (i: number): number => Number(m[i] ?? '0');
  const [year, month, day, hour, minute, second] = [n(1), n(2), n(3), n(4), n(5), n(6)];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCDate() !== day) return undefined;
  date.setUTCHours(hour, minute, second, 0);
  const zone = m[8];
  let offset = 0;
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const digits = zone.slice(1).replace(':', '');
    offset = (zone.startsWith('-') ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0')) * 60_000;
  }
  return BigInt(date.getTime() - offset) * 1_000_000n + BigInt(((m[7] ?? '') + '000000000').slice(0, 9));
}

/** Order of two instants written in ISO 8601 at any precision: -1, 0, 1, or undefined when either is not one. */
export function compareInstants(a: string, b: string): number | undefined {
  const x = instantOf(a);
  const y = instantOf(b);
  if (x === undefined || y === undefined) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}
