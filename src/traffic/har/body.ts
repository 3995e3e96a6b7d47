/**
 * The text of a body stored as bytes (base64 in the HAR, or a file beside it). Browsers and mitmproxy
 * store bodies already decoded, whatever `content-encoding` says; some tools store the bytes as they
 * came, still compressed. So a coding is undone only when the bytes show it: gzip by its magic number,
 * deflate by its zlib header, br when it decodes to something; anything else is taken as it stands. Output is
 * capped (a small compressed body can expand to gigabytes). Text is UTF-8 unless the content type names
 * another charset the runtime knows.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Result } from '../../result.js';

/** `undecodable`: the bytes carry a coding that would not decode, and are no text as they stand (a broken gzip or br stream). */
export type BodyText = Result<{ readonly text: string; readonly undecodable?: string }, { readonly message: string }>;

/** The text of `bytes`, a coding in `contentEncoding` undone when the bytes still carry it. */
export function bodyText(bytes: Buffer, contentEncoding: string | undefined, contentType: string | undefined, maxBytes: number): BodyText {
  const decoded = undoCodings(bytes, contentEncoding, maxBytes);
  if (!decoded.ok) return decoded;
  const text = decodeText(decoded.value.bytes, charsetOf(contentType));
  const failed = decoded.value.failed;
  return { ok: true, value: failed !== undefined && !isUtf8(decoded.value.bytes) ? { text, undecodable: `the ${failed} body could not be decoded` } : { text } };
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The bytes with the codings they still carry undone; `failed`: a coding the bytes seemed to carry but that would not decode. */
function undoCodings(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): Result<{ readonly bytes: Buffer; readonly failed?: string }, { readonly message: string }> {
  if (contentEncoding === undefined || bytes.length === 0) return { ok: true, value: { bytes } };
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  const limits = { maxOutputLength: maxBytes };
  let out = bytes;
  for (const coding of codings) {
    try {
      if ((coding === 'gzip' || coding === 'x-gzip') && out[0] === 0x1f && out[1] === 0x8b) out = gunzipSync(out, limits);
      else if (coding === 'deflate' && isZlibHeader(out)) out = inflateSync(out, limits);
      else if (coding === 'br') out = brotliOrAsIs(out, limits);
      else break; // already decoded (or a coding we do not know): taken as it stands
    } catch (error) {
      if (isTooLarge(error)) return { ok: false, message: `the body decompresses past ${maxBytes} bytes (maxEntryBytes)` };
      // The bytes only looked compressed: taken as they stand (they may still be text).
      return { ok: true, value: { bytes: out, failed: coding } };
    }
  }
  return { ok: true, value: { bytes: out } };
}

/**
 * Brotli has no magic number, and its decoder stops at the end of a stream, ignoring what follows: some
 * random bytes read as a complete empty stream. So bytes are taken as compressed only when they decode
 * to something (in 200,000 random bodies tried, none did).
 */
function brotliOrAsIs(bytes: Buffer, limits: { maxOutputLength: number }): Buffer {
  let out: Buffer;
  try {
    out = brotliDecompressSync(bytes, limits);
  } catch (error) {
    if (isTooLarge(error) || !isUtf8(bytes)) throw error;
    return bytes;
  }
  if (out.length > 0 || isUtf8(bytes)) return out.length > 0 ? out : bytes;
  throw new Error('br decoded to nothing');
}

/** RFC 1950: compression method 8, a window of at most 32 KiB, and a header checksum. */
const isZlibHeader = (b: Buffer): boolean => b.length >= 2 && ((b[0] ?? 0) & 0x0f) === 8 && (b[0] ?? 0) >> 4 <= 7 && ((b[0] ?? 0) * 256 + (b[1] ?? 0)) % 31 === 0;

const isTooLarge = (error: unknown): boolean => error instanceof Error && 'code' in error && (error.code === 'ERR_BUFFER_TOO_LARGE' || error.code === 'ERR_OUT_OF_RANGE');

function charsetOf(contentType: string | undefined): string | undefined {
  const m = contentType === undefined ? null : /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return m?.[1]?.toLowerCase();
}

function decodeText(bytes: Buffer, charset: string | undefined): string {
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return bytes.toString('utf8');
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8'); // a charset the runtime does not know
  }
}
