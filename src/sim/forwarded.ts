/**
 * The origin a client used, as a reverse proxy in front of the simulator tells it (RFC 7239 `Forwarded`,
 * else `X-Forwarded-Host` and `X-Forwarded-Proto`): the simulator builds its links for that origin, as a
 * deployment behind a gateway does. Only well-formed values count (a host name or address with an optional
 * port, http or https); anything else leaves the simulator's own origin.
 */

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The first element of a `Forwarded` header as pairs (the one nearest the client), quotes removed. */
function firstForwarded(value: string): Map<string, string> {
  const element = value.split(',')[0] ?? '';
  const pairs = new Map<string, string>();
  for (const part of element.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const raw = part.slice(eq + 1).trim();
    pairs.set(part.slice(0, eq).trim().toLowerCase(), raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw);
  }
  return pairs;
}

const first = (value: string | undefined): string | undefined => value?.split(',')[0]?.trim();

/** `proto://host` from the forwarding headers, or `fallback`. */
export function forwardedOrigin(headers: Readonly<Record<string, string>>, fallback: string): string {
  const f = headers['forwarded'] === undefined ? undefined : firstForwarded(headers['forwarded']);
  const host = f?.get('host') ?? first(headers['x-forwarded-host']);
  if (host === undefined || host.length > 300 || !HOST.test(host)) return fallback;
  const proto = (f?.get('proto') ?? first(headers['x-forwarded-proto']) ?? new URL(fallback).protocol.replace(':', '')).toLowerCase();
  return proto === 'http' || proto === 'https' ? `${proto}://${host}` : fallback;
}
