/**
 * Validation of password-profile-info writes (commerce-api.md §2.1, §8; docs/api-notes.md "Errors",
 * "The password profile record"). Pure: returns the accepted fields or the list of API errors.
 */
import type { Result } from '../result.js';
import { exceeds, MAX_PASSWORD_LENGTH, MAX_TEXT_LENGTH } from './field-limits.js';
import { deviates, type Deviations } from './deviations.js';
import { apiError, type ApiError } from './api-errors.js';
import { isJsonObject } from './json.js';

/** §2.1: the underscore form is the value on the wire; the hyphen form (the field description's) is accepted. */
export const PROFILE_INFO_TYPE = 'user_authentication_password_profile_info';
export const PROFILE_INFO_TYPE_HYPHEN = 'user-authentication-password-profile-info';
import { MIN_PASSWORD_LENGTH } from '../limits.js';

export { MIN_PASSWORD_LENGTH } from '../limits.js';

export interface ProfileInfoFields {
  readonly username: string;
  readonly password: string;
  readonly password_profile_id: string;
}

/** What a deployment does where §2.1 and §7 are silent (rules/readings.ts). */
export interface CreateReadings {
  /** What a character of "Minimum 8 characters" is. */
  readonly characters: 'code-points' | 'code-units' | 'graphemes';
  readonly hyphenType: 'accept' | 'refuse';
  /** The status of a create refused as invalid. */
  readonly status: 400 | 422;
  /** Whether a username may be held twice under one user-authentication-info (`usernames`). */
  readonly usernames: 'repeat' | 'conflict' | 'invalid';
  /** Whether a create must say a JSON media type (`create.media-type`). */
  readonly mediaType: 'lenient' | 'strict';
}

const PUBLIC_CREATE_READINGS: CreateReadings = { characters: 'code-points', hyphenType: 'accept', status: 400, usernames: 'repeat', mediaType: 'lenient' };

/** A username already held under the user-authentication-info, refused as the reading says (undefined: accepted). */
export function duplicateUsername(readings: CreateReadings, username: string): ApiError | undefined {
  if (readings.usernames === 'repeat') return undefined;
  const detail = `Username '${username.slice(0, 100)}' is already in use`;
  return readings.usernames === 'conflict' ? apiError('conflict', detail, 'username') : apiError('unprocessable', detail, 'username');
}

export type Validation<T> = Result<T, { readonly errors: readonly ApiError[] }>;

const FIELDS = ['password_profile_id', 'username', 'password'] as const;
type Field = (typeof FIELDS)[number];
const LABEL: Readonly<Record<Field | 'type', string>> = { type: 'Type', password_profile_id: 'PasswordProfileID', username: 'Username', password: 'Password' };

const failed = (field: Field | 'type', tag: string): ApiError => apiError('bad-request', `Validation failed: field '${LABEL[field]}' on the '${tag}' tag.`, `data.${field}`);

/** Made on first use: a segmenter costs milliseconds to build, and most runs never count graphemes. */
let graphemes: Intl.Segmenter | undefined;

/** Characters as the reading counts them: code points by default, so an emoji counts once. */
function length(text: string, characters: CreateReadings['characters']): number {
  switch (characters) {
    case 'code-points':
      return [...text].length;
    case 'code-units':
      return text.length;
    case 'graphemes': {
      let n = 0;
      for (const _segment of (graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text)) n += 1;
      return n;
    }
  }
}

/** The errors with the reading's status (422 for a deployment that says Unprocessable Content). */
const withStatus = (errors: readonly ApiError[], readings: CreateReadings): readonly ApiError[] =>
  readings.status === 400 ? errors : errors.map((e) => (e.status === 400 ? { ...apiError('unprocessable', e.detail, e.source) } : e));

function minLength(deviations: Deviations): number {
  return deviates(deviations, 'create.password.min-length') ? 6 : MIN_PASSWORD_LENGTH;
}

function readData(body: unknown, readings: CreateReadings): Validation<Record<string, unknown>> {
  if (!isJsonObject(body) || !isJsonObject(body['data'])) return { ok: false, errors: [apiError('bad-request', "The request body must be a JSON object with a 'data' object", 'data')] };
  const data = body['data'];
  const type = data['type'];
  if (type === undefined) return { ok: false, errors: [failed('type', 'required')] };
  if (type !== PROFILE_INFO_TYPE && (type !== PROFILE_INFO_TYPE_HYPHEN || readings.hyphenType === 'refuse')) return { ok: false, errors: [failed('type', 'eq')] };
  return { ok: true, value: data };
}

/** The simulator's maxima (field-limits.ts): the document sets none, so a value past them is ours to refuse. */
function tooLong(out: Partial<Record<Field, string>>): ApiError[] {
  const problems: ApiError[] = [];
  for (const field of FIELDS) {
    const value = out[field];
    const max = field === 'password' ? MAX_PASSWORD_LENGTH : MAX_TEXT_LENGTH;
    if (value !== undefined && exceeds(value, max)) problems.push(apiError('bad-request', `Validation failed: field '${LABEL[field]}' on the 'max' tag (at most ${max} characters).`, `data.${field}`));
  }
  return problems;
}

export function validateCreate(body: unknown, deviations: Deviations, readings: CreateReadings = PUBLIC_CREATE_READINGS): Validation<ProfileInfoFields> {
  const checked = checkCreate(body, deviations, readings);
  return checked.ok ? checked : { ok: false, errors: withStatus(checked.errors, readings) };
}

function checkCreate(body: unknown, deviations: Deviations, readings: CreateReadings): Validation<ProfileInfoFields> {
  const data = readData(body, readings);
  if (!data.ok) return data;
  const errors: ApiError[] = [];
  const out: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) {
    const value = data.value[field];
    if (value === undefined || value === null) {
      if (!(field === 'password_profile_id' && deviates(deviations, 'create.required-fields'))) errors.push(failed(field, 'required'));
    } else if (typeof value !== 'string') errors.push(failed(field, 'string'));
    else if (value.length === 0) errors.push(failed(field, 'required'));
    else out[field] = value;
  }
  if (out.password !== undefined && length(out.password, readings.characters) < minLength(deviations)) errors.push(failed('password', 'min'));
  errors.push(...tooLong(out));
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: { username: out.username ?? '', password: out.password ?? '', password_profile_id: out.password_profile_id ?? '' } };
}

export type ProfileInfoChanges = Partial<ProfileInfoFields>;

/** PUT: type required, other fields optional but typed; a new password meets the same minimum. */
export function validateUpdate(body: unknown, deviations: Deviations, readings: CreateReadings = PUBLIC_CREATE_READINGS): Validation<ProfileInfoChanges> {
  const data = readData(body, readings);
  if (!data.ok) return data;
  const errors: ApiError[] = [];
  const out: { -readonly [K in Field]?: string } = {};
  for (const field of FIELDS) {
    const value = data.value[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length === 0) errors.push(failed(field, 'string'));
    else out[field] = value;
  }
  if (out.password !== undefined && length(out.password, readings.characters) < minLength(deviations)) errors.push(failed('password', 'min'));
  errors.push(...tooLong(out));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: out };
}
