/**
 * Instants at full precision, and the timestamp precision a deployment shows (the reading
 * `timestamps.precision`, rules/readings.ts). The store counts milliseconds; a deployment that shows
 * microseconds or nanoseconds is played by a fixed, order-keeping map from the store's milliseconds to
 * finer instants (one store millisecond is one shown microsecond, or nanosecond, counted from an
 * anchor), so records a millisecond apart in the store are a microsecond apart on the wire. Filters
 * are read back through the inverse of the same map, so a deployment's filters compare what it shows.
 */

export type Precision = 's' | 'ms' | 'us' | 'ns';

/** Where the finer scales are counted from: any fixed instant keeps the map monotone. */
const SCALE_ANCHOR_MS = Date.UTC(2025, 0, 1, 0, 0, 0, 0);

const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;
const ANCHOR_NS = BigInt(SCALE_ANCHOR_MS) * NS_PER_MS;
/** The instants a record may carry: years 0000–9999. */
const MIN_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+\- ]\d{2}(?::?\d{2})?)?)?$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Nanoseconds since the epoch of an ISO 8601 date or date-time, every fraction digit kept; undefined when
 * not a valid instant in years 0000–9999. A missing zone is UTC; a space before the offset is a `+` that
 * URL decoding turned into a space.
 */
export function parseInstantNs(text: string): bigint | undefined {
  const m = ISO.exec(text.trim());
  if (m === null) return undefined;
  const num = (group: number): number => Number(m[group] ?? '0');
  const [year, month, day, hour, minute, second] = [num(1), num(2), num(3), num(4), num(5), num(6)];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : DAYS[month - 1];
  if (days === undefined || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMs = 0;
  const zone = m[8];
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(-2));
    if (oh > 23 || (zone.length > 3 && om > 59)) return undefined;
    offsetMs = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + (zone.length > 3 ? om : 0)) * 60_000;
  }
  // setUTCFullYear, because Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const secondsMs = date.getTime() - offsetMs;
  const y = new Date(secondsMs).getUTCFullYear();
  if (y < 0 || y > 9999) return undefined;
  const fraction = BigInt(((m[7] ?? '') + '000000000').slice(0, 9));
  return BigInt(secondsMs) * NS_PER_MS + fraction;
}

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
};
const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b);

/** The instant a store millisecond `ms` is shown as, in nanoseconds. */
function shownNs(ms: number, precision: Precision): bigint {
  const t = BigInt(ms);
  switch (precision) {
    case 'ms':
      return t * NS_PER_MS;
    case 's':
      return floorDiv(t, 1000n) * NS_PER_S;
    case 'us':
      return ANCHOR_NS + (t - BigInt(SCALE_ANCHOR_MS)) * 1000n;
    case 'ns':
      return ANCHOR_NS + (t - BigInt(SCALE_ANCHOR_MS));
  }
}

/** The smallest store millisecond shown at or after `ns` (the map is monotone), clamped to the store's range. */
function firstMsAtOrAfter(ns: bigint, precision: Precision): number {
  let t: bigint;
  switch (precision) {
    case 'ms':
      t = ceilDiv(ns, NS_PER_MS);
      break;
    case 's':
      t = ceilDiv(ns, NS_PER_S) * 1000n;
      break;
    case 'us':
      t = BigInt(SCALE_ANCHOR_MS) + ceilDiv(ns - ANCHOR_NS, 1000n);
      break;
    case 'ns':
      t = BigInt(SCALE_ANCHOR_MS) + (ns - ANCHOR_NS);
      break;
  }
  if (t < BigInt(MIN_MS)) return MIN_MS;
  if (t > BigInt(MAX_MS) + 1n) return MAX_MS + 1;
  return Number(t);
}

const DIGITS: Readonly<Record<Precision, number>> = { s: 0, ms: 3, us: 6, ns: 9 };

/** `2025-01-01T00:00:00.123456Z`: an instant in nanoseconds written with the precision's fraction digits. */
function formatNs(ns: bigint, precision: Precision): string {
  const seconds = floorDiv(ns, NS_PER_S);
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  const digits = DIGITS[precision];
  if (digits === 0) return `${whole}Z`;
  const fraction = (ns - seconds * NS_PER_S).toString().padStart(9, '0').slice(0, digits);
  return `${whole}.${fraction}Z`;
}

/** How the store millisecond `ms` is shown in list records. */
export const shownInstant = (ms: number, precision: Precision): string => (precision === 'ms' ? new Date(ms).toISOString() : formatNs(shownNs(ms, precision), precision));

/** The same instant in the create response's documented format (§2.1: milliseconds and a Z), cut to the millisecond. */
export const shownInstantMs = (ms: number, precision: Precision): string => (precision === 'ms' ? new Date(ms).toISOString() : formatNs(shownNs(ms, precision), 'ms'));

/**
 * A comparison of a timestamp with an instant written at any precision, as store-millisecond bounds:
 * `ge` and `gt` as a lower bound (inclusive), `le` and `lt` as an upper one, `eq` as both. undefined
 * for text that is not an instant.
 */
export function instantBounds(op: 'eq' | 'gt' | 'ge' | 'lt' | 'le', text: string, precision: Precision): { lo?: number; hi?: number } | undefined {
  const ns = parseInstantNs(text);
  if (ns === undefined) return undefined;
  const atOrAfter = firstMsAtOrAfter(ns, precision);
  const after = firstMsAtOrAfter(ns + 1n, precision);
  switch (op) {
    case 'ge':
      return { lo: atOrAfter };
    case 'gt':
      return { lo: after };
    case 'le':
      return { hi: after - 1 };
    case 'lt':
      return { hi: atOrAfter - 1 };
    case 'eq':
      return { lo: atOrAfter, hi: after - 1 };
  }
}
