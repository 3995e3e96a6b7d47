/**
 * Lenient query decoding (docs/api-notes.md, "Filter and sort grammar"): brackets raw or percent-encoded,
 * a raw `+` is a space. Keeps the pairs in order so links can carry the caller's parameters back.
 */
import { apiError, ok, refuse, type Decision } from './api-errors.js';

export interface QueryParams {
  readonly pairs: readonly (readonly [string, string])[];
  /** The single value of a parameter; a parameter given twice with different values is refused. */
  one(name: string): Decision<string | undefined>;
}

export function parseQuery(raw: string): Decision<QueryParams> {
  const pairs: (readonly [string, string])[] = [];
  if (raw.length > 0) {
    for (const part of raw.split('&')) {
      if (part.length === 0) continue;
      const eq = part.indexOf('=');
      const key = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? '' : part.slice(eq + 1);
      const k = decode(key);
      const v = decode(value);
      if (k === undefined || v === undefined) return refuse(apiError('bad-request', 'Malformed query string: invalid percent-encoding', 'query'));
      pairs.push([k, v]);
    }
  }
  return ok({
    pairs,
    one(name) {
      let found: string | undefined;
      for (const [k, v] of pairs) {
        if (k !== name) continue;
        if (found !== undefined && found !== v) return refuse(apiError('bad-request', `Query parameter ${name} is given more than once with different values`, name));
        found = v;
      }
      return ok(found);
    },
  });
}

function decode(text: string): string | undefined {
  // Most keys and values hold neither escapes nor a `+`: they decode to themselves (this runs on every request).
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Encode a query value for a link, keeping the characters of the filter grammar readable. */
export function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%2A/gi, '*');
}
