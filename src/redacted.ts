/**
 * The placeholders secrets are replaced by in what the tool writes (reports, HAR files, recordings). A
 * check reading such a file back must not judge the value a placeholder stands for, but may judge the
 * shape a mark keeps on purpose: a password's length under each reading of "character", a credential's
 * scheme. Nothing here holds or derives a secret.
 */
import { CHARACTER_READINGS, characterCounts, countRange, type CharacterCounts } from './characters.js';

export const REDACTED = '[REDACTED]';
/** Where recordings put a password and other credentials. */
export const PASSWORD_PLACEHOLDER = '<password>';
export const CREDENTIAL_PLACEHOLDER = '<redacted>';

const MARKS: ReadonlySet<string> = new Set([REDACTED, PASSWORD_PLACEHOLDER, CREDENTIAL_PLACEHOLDER]);

/** A credential the tool wrote in place of a real one (`Bearer [REDACTED 3f9a0c12]`, `Bearer <redacted>`): whether it was valid is not known. */
const CREDENTIAL_MARK = /\[REDACTED(?: [0-9a-f]{8})?(?:, no scheme)?\]|<redacted>|<access_token>/;

export const hidesCredential = (header: string): boolean => CREDENTIAL_MARK.test(header);

/** A whole credential value replaced, scheme and all (`[REDACTED]`, `<redacted>`, another tool's `REDACTED`): its scheme is not known. */
const WHOLE_CREDENTIAL_MARK = /^(?:\[REDACTED(?: [0-9a-f]{8})?\]|<redacted>|<access_token>|redacted|\*+)$/i;

/** This tool's mark of a credential that was sent without a scheme (`Authorization: abc`): the fact kept, the value gone. */
const NO_SCHEME_MARK = /^\[REDACTED(?: [0-9a-f]{8})?, no scheme\]$/;

/** What an Authorization value, as written (perhaps redacted), shows: its scheme and whether a credential follows, or that the redaction hid them. */
export type CredentialShape = { readonly kind: 'scheme'; readonly scheme: string; readonly credential: boolean } | { readonly kind: 'no-scheme' } | { readonly kind: 'hidden' };

export function credentialShape(value: string): CredentialShape {
  const v = value.trim();
  if (NO_SCHEME_MARK.test(v)) return { kind: 'no-scheme' };
  if (WHOLE_CREDENTIAL_MARK.test(v)) return { kind: 'hidden' };
  // RFC 9110 §11.1: auth-scheme is a token, then one or more spaces and the credentials.
  const m = /^([!#$%&'*+.^`|~\w-]+)(?: +(\S.*))?$/.exec(v);
  if (m === null || m[1] === undefined) return { kind: 'no-scheme' };
  // One word alone: a scheme with no credential, or a credential with no scheme; either way no "Bearer <token>".
  if (m[2] === undefined) return /^bearer$/i.test(m[1]) ? { kind: 'scheme', scheme: m[1], credential: false } : { kind: 'no-scheme' };
  return { kind: 'scheme', scheme: m[1], credential: true };
}

/** `[REDACTED password: 7 graphemes, 7 code-points, 14 code-units]`: a password whose readings of "character" disagree, its counts kept, its text gone. */
function passwordMark(c: CharacterCounts): string {
  return `[REDACTED password: ${CHARACTER_READINGS.map((r) => `${c[r]} ${r}`).join(', ')}]`;
}

const PASSWORD_MARK = /^\[REDACTED password: (\d{1,9}) graphemes, (\d{1,9}) code-points, (\d{1,9}) code-units\]$/;

function readPasswordMark(value: string): CharacterCounts | undefined {
  const m = PASSWORD_MARK.exec(value);
  if (m === null) return undefined;
  return { graphemes: Number(m[1]), 'code-points': Number(m[2]), 'code-units': Number(m[3]) };
}

/**
 * What a redacted password becomes: as many `*` as it had characters when every reading agrees (a
 * reader counts the stars), else the mark with each reading's count. Empty stays a redaction.
 */
export function maskPassword(password: string): string {
  if (password === '') return REDACTED;
  const counts = characterCounts(password);
  const { least, most } = countRange(counts);
  return least === most ? '*'.repeat(least) : passwordMark(counts);
}

/** A password's length under each reading, from its text or from the mark it was redacted to; undefined when a redaction kept no length. */
export function passwordCounts(value: string): CharacterCounts | undefined {
  const marked = readPasswordMark(value);
  if (marked !== undefined) return marked;
  return MARKS.has(value) ? undefined : characterCounts(value);
}
