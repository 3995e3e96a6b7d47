/**
 * How long a written value may be. The API document states only the password's minimum (8, §2.1); the
 * public documentation gives no maxima, so these are the simulator's own documented defaults (README,
 * "Limits"): long enough for any real value, short enough that no write can grow a page or a record
 * without bound. Counted in characters (code points), as the minimum is.
 */
export const MAX_TEXT_LENGTH = 255;
export const MAX_PASSWORD_LENGTH = 1024;
/** A client id names a project and keys every token of it. */
export const MAX_CLIENT_ID_LENGTH = 255;
export const MAX_SECRET_LENGTH = 1024;

/** Characters (code points), stopping early: a megabyte of text is never walked whole. */
export function exceeds(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let n = 0;
  for (const _ of text) if (++n > max) return true;
  return false;
}
