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

export type BodyText = Result<string, { readonly message: string }>;

/** The text of `bytes`, a coding in `contentEncoding` undone when the bytes still carry it. */
export function bodyText(bytes: Buffer, contentEncoding: string | undefined, contentType: string | undefined, maxBytes: number): BodyText {
  const decoded = undoCodings(bytes, contentEncoding, maxBytes);
  if (!decoded.ok) return decoded;
  return { ok: true, value: decodeText(decoded.value, charsetOf(contentType)) };
}

function undoCodings(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): Result<Buffer, { readonly message: string }> {
  if (contentEncoding === undefined || bytes.length === 0) return { ok: true, value: bytes };
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
      break; // the bytes only looked compressed: taken as they stand
    }
  }
  return { ok: true, value: out };
}

/**
 * Brotli has no magic number, and its decoder stops at the end of a stream, ignoring what follows: some
 * random bytes read as a complete empty stream. So bytes are taken as compressed only when they decode
 * to something (in 200,000 random bodies tried, none did).
 */
function brotliOrAsIs(bytes: Buffer, limits: { maxOutputLength: number }): Buffer {
  try {
    const out = brotliDecompressSync(bytes, limits);
    return out.length > 0 ? out : bytes;
  } catch (error) {
    if (isTooLarge(error)) throw error;
    return bytes;
  }
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
