/**
 * Validation of password-profile-info writes (commerce-api.md §2.1, §8; API-NOTES.md "Errors",
 * "The password profile record"). Pure: returns the accepted fields or the list of API errors.
 */
import { exceeds, MAX_PASSWORD_LENGTH, MAX_TEXT_LENGTH } from './field-limits.js';
import { deviates, type Deviations } from './deviations.js';
import { apiError, type ApiError } from './errors.js';
import { isJsonObject } from './json.js';

/** §2.1: the underscore form is the value on the wire; the hyphen form (the field description's) is accepted. */
export const PROFILE_INFO_TYPE = 'user_authentication_password_profile_info';
export const PROFILE_INFO_TYPE_HYPHEN = 'user-authentication-password-profile-info';
/** §2.1, §8. */
export const MIN_PASSWORD_LENGTH = 8;

export interface ProfileInfoFields {
  readonly username: string;
  readonly password: string;
  readonly password_profile_id: string;
}

export type Validation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: readonly ApiError[] };

const FIELDS = ['password_profile_id', 'username', 'password'] as const;
type Field = (typeof FIELDS)[number];
const LABEL: Readonly<Record<Field | 'type', string>> = { type: 'Type', password_profile_id: 'PasswordProfileID', username: 'Username', password: 'Password' };

const failed = (field: Field | 'type', tag: string): ApiError => apiError('bad-request', `Validation failed: field '${LABEL[field]}' on the '${tag}' tag.`, `data.${field}`);

function minLength(deviations: Deviations): number {
  return deviates(deviations, 'create.password.min-length') ? 6 : MIN_PASSWORD_LENGTH;
}

/** Characters, not UTF-16 units, so an emoji counts once. */
const length = (text: string): number => [...text].length;

function readData(body: unknown): Validation<Record<string, unknown>> {
  if (!isJsonObject(body) || !isJsonObject(body['data'])) return { ok: false, errors: [apiError('bad-request', "The request body must be a JSON object with a 'data' object", 'data')] };
  const data = body['data'];
  const type = data['type'];
  if (type === undefined) return { ok: false, errors: [failed('type', 'required')] };
  if (type !== PROFILE_INFO_TYPE && type !== PROFILE_INFO_TYPE_HYPHEN) return { ok: false, errors: [failed('type', 'eq')] };
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

export function validateCreate(body: unknown, deviations: Deviations): Validation<ProfileInfoFields> {
  const data = readData(body);
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
  if (out.password !== undefined && length(out.password) < minLength(deviations)) errors.push(failed('password', 'min'));
  errors.push(...tooLong(out));
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: { username: out.username ?? '', password: out.password ?? '', password_profile_id: out.password_profile_id ?? '' } };
}

export type ProfileInfoChanges = Partial<ProfileInfoFields>;

/** PUT: type required, other fields optional but typed; a new password meets the same minimum. */
export function validateUpdate(body: unknown, deviations: Deviations): Validation<ProfileInfoChanges> {
  const data = readData(body);
  if (!data.ok) return data;
  const errors: ApiError[] = [];
  const out: { -readonly [K in Field]?: string } = {};
  for (const field of FIELDS) {
    const value = data.value[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length === 0) errors.push(failed(field, 'string'));
    else out[field] = value;
  }
  if (out.password !== undefined && length(out.password) < minLength(deviations)) errors.push(failed('password', 'min'));
  errors.push(...tooLong(out));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: out };
}
