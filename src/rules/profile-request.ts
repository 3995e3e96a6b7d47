/**
 * What the oracle knows about a request to the password-profile resource (commerce-api.md §2.1, §4.1):
 * which exchanges are creates, whether the body is valid, and whether the parent ids are known ones.
 */
import { passwordCounts } from '../redacted.js';
import { characterCounts, countRange } from '../characters.js';
import type { Exchange } from '../port.js';
import {
  asString,
  at,
  findKey,
  is2xx,
  isAsideStatus,
  isCreatePath,
  isObject,
  methodIs,
  pathOf,
  PROFILE_TYPE,
  PROFILE_TYPE_HYPHEN,
  profilePath,
  requestJson,
  sentWithoutAuth,
  varString,
  type JsonObject,
} from './inspect.js';
import type { CheckContext } from './rule.js';

export { MIN_PASSWORD_LENGTH } from '../limits.js';
import { isJsonMediaType } from '../media-types.js';
import { MIN_PASSWORD_LENGTH } from '../limits.js';

/**
 * How many characters a text has, at least and at most: "Minimum 8 characters" does not say what a
 * character is (rules/readings.ts `password.characters`), and user-perceived characters (graphemes),
 * code points and UTF-16 code units give different counts for the same text.
 */
export function charCounts(s: string): { readonly least: number; readonly most: number } {
  return countRange(characterCounts(s));
}

/**
 * A request password's count range, read from its text or from the mark a redaction left (the proxy's
 * HAR keeps the counts, never the text); undefined when the redaction kept no length.
 */
function passwordRange(value: string): { readonly least: number; readonly most: number } | undefined {
  const counts = passwordCounts(value);
  return counts === undefined ? undefined : countRange(counts);
}

/** The character count when every reading of "character" agrees on it, else undefined (not judged). */
export function charCount(s: string): number | undefined {
  const range = passwordRange(s);
  return range !== undefined && range.least === range.most ? range.least : undefined;
}

/** POSTs to the create path (trailing slash or not), in order. */
export function createPosts(ctx: CheckContext): Exchange[] {
  return ctx.exchanges.filter((ex) => methodIs(ex, 'POST') && isCreatePath(pathOf(ex.request.url)));
}

/** Create POSTs sent with credentials that answered something other than 401/403/429. */
export function judgeableCreates(ctx: CheckContext): Exchange[] {
  return createPosts(ctx).filter((ex) => !sentWithoutAuth(ex) && !isAsideStatus(ex.response.status));
}

export const createsAnswered2xx = (ctx: CheckContext): Exchange[] => createPosts(ctx).filter((ex) => is2xx(ex.response.status));

export type BodyClass = { readonly kind: 'valid'; readonly data: JsonObject } | { readonly kind: 'invalid'; readonly reason: string } | { readonly kind: 'unclear' } | { readonly kind: 'malformed' };

/**
 * A create body: `valid` (the four fields as non-empty strings, either type spelling, a password of
 * at least 8 characters), `invalid` (no `data`, a field missing or not a string, another type, a short
 * password), `malformed` (not JSON), or `unclear` (empty body, empty strings: not judged).
 */
export function classifyCreateBody(ex: Exchange): BodyClass {
  const text = ex.request.body ?? '';
  if (text.trim() === '') return { kind: 'unclear' };
  // Sent without saying JSON: whether the body is read anyway or refused (415) is not shown (readings.ts `create.media-type`).
  const media = requestContentType(ex);
  if ((media !== undefined && !isJsonMediaType(media)) || (media === undefined && ex.response.status === 415)) return { kind: 'unclear' };
  const json = requestJson(ex);
  if (json === undefined) return { kind: 'malformed' };
  const data = at(json, 'data');
  if (!isObject(data)) return { kind: 'invalid', reason: 'no data object' };
  let unclear = false;
  for (const field of ['type', 'password_profile_id', 'username', 'password']) {
    const v = data[field];
    if (v === undefined || v === null) return { kind: 'invalid', reason: `data.${field} missing` };
    if (typeof v !== 'string') return { kind: 'invalid', reason: `data.${field} not a string` };
    if (v === '') unclear = true;
  }
  const type = asString(data['type']);
  if (type !== undefined && type !== '' && type !== PROFILE_TYPE && type !== PROFILE_TYPE_HYPHEN) return { kind: 'invalid', reason: 'another type' };
  const password = asString(data['password']) ?? '';
  if (password !== '') {
    // Read back from a HAR or a recording: a mark that kept the counts is judged on them; one that kept none is not judged.
    const range = passwordRange(password);
    if (range === undefined) return { kind: 'unclear' };
    const { least, most } = range;
    if (most < MIN_PASSWORD_LENGTH) return { kind: 'invalid', reason: 'password shorter than 8 characters' };
    // Short under one reading of "character" and long enough under another: either answer conforms.
    if (least < MIN_PASSWORD_LENGTH) return { kind: 'unclear' };
  }
  return unclear ? { kind: 'unclear' } : { kind: 'valid', data };
}

/** The request's Content-Type, or undefined without one. */
function requestContentType(ex: Exchange): string | undefined {
  for (const [name, value] of Object.entries(ex.request.headers ?? {})) if (name.toLowerCase() === 'content-type') return value;
  return undefined;
}

/** The request's `data.password` when it is a string. */
export const requestPassword = (ex: Exchange): string | undefined => asString(at(requestJson(ex), 'data', 'password'));

/**
 * Whether the path's realm and user-authentication-info are the ones the scenario knows exist
 * (`realm_id`, `user_authentication_info_id` in vars): `known`, `unknown`, or `unspecified` without vars.
 */
export function parentOf(ex: Exchange, vars: Readonly<Record<string, unknown>>): 'known' | 'unknown' | 'unspecified' {
  const p = profilePath(pathOf(ex.request.url));
  const realm = varString(vars, 'realm_id');
  const uai = varString(vars, 'user_authentication_info_id');
  if (p === undefined || realm === undefined || uai === undefined) return 'unspecified';
  return p.realm === realm && p.uai === uai ? 'known' : 'unknown';
}

/**
 * Whether a status can be judged against "a valid create with a known parent succeeds": not when the
 * parent is unknown, nor a 404 when the parent is unspecified, nor a 409 (a username already taken).
 */
export function expectsSuccess(ex: Exchange, vars: Readonly<Record<string, unknown>>): boolean {
  const parent = parentOf(ex, vars);
  if (parent === 'unknown') return false;
  if (parent === 'unspecified' && ex.response.status === 404) return false;
  return ex.response.status !== 409;
}

/** Where the response gives the password away: a `password` member, or the value itself in the body. */
export function passwordLeak(ex: Exchange): string | undefined {
  const key = findKey(ex.json, 'password');
  if (key !== undefined) return `${key} present`;
  const pw = requestPassword(ex);
  if (pw !== undefined && charCounts(pw).least >= MIN_PASSWORD_LENGTH) {
    const escaped = JSON.stringify(pw).slice(1, -1);
    if (ex.response.body.includes(pw) || ex.response.body.includes(escaped)) return 'the request password appears in the body';
  }
  return undefined;
}
