/**
 * HAR header lists and the exchange's header records, both ways. Names are lower-cased; a name given
 * more than once is joined as the live HTTP adapter joins it (`, `), except `cookie`, whose parts join
 * with `; ` as HTTP/2 cookie crumbs do. HTTP/2 pseudo-headers (`:authority`, ...) are not headers of the
 * exchange: `:authority` stands in for a missing `host`, the others are dropped.
 */
import type { Result } from '../../result.js';
import { isObject } from '../../rules/inspect-json.js';

export interface HarHeader {
  readonly name: string;
  readonly value: string;
}

/** A HAR `headers` array as a record; `where` (`request.headers`) names the member in a failure. */
export function headerRecord(list: unknown, where: string): Result<Record<string, string>, { readonly message: string }> {
  if (list === undefined) return { ok: true, value: {} };
  if (!Array.isArray(list)) return { ok: false, message: `${where} is not a list` };
  const out: Record<string, string> = {};
  let authority: string | undefined;
  for (const [i, item] of list.entries()) {
    const name = isObject(item) ? item['name'] : undefined;
    const value = isObject(item) ? item['value'] : undefined;
    if (typeof name !== 'string' || typeof value !== 'string') return { ok: false, message: `${where}[${i}] needs a name and a value` };
    const lower = name.toLowerCase();
    if (lower.startsWith(':')) {
      if (lower === ':authority') authority = value;
      continue;
    }
    const before = Object.hasOwn(out, lower) ? out[lower] : undefined;
    out[lower] = before === undefined ? value : `${before}${lower === 'cookie' ? '; ' : ', '}${value}`;
  }
  if (authority !== undefined && !Object.hasOwn(out, 'host')) out['host'] = authority;
  return { ok: true, value: out };
}

/** A header record as a HAR list, in the record's order. */
export function headerList(headers: Readonly<Record<string, string>>): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** A header's value by any spelling of its name. */
export function headerValue(headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}
