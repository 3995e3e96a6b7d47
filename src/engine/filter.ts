/**
 * The `filter` query parameter (API-NOTES.md, "Filter and sort grammar"): `op(field,value)` clauses
 * joined by `:` (AND). A hand-written scanner, not a regex, so any input is parsed in linear time.
 */
import { apiError, ok, refuse, type Decision } from './errors.js';

export type FilterOp = 'eq' | 'like' | 'ilike' | 'in' | 'gt' | 'ge' | 'lt' | 'le' | 'is_null' | 'contains';
export const FILTER_OPS: readonly FilterOp[] = ['eq', 'like', 'ilike', 'in', 'gt', 'ge', 'lt', 'le', 'is_null', 'contains'];

export type FieldKind = 'string' | 'timestamp';
export interface FieldSpec {
  readonly kind: FieldKind;
  readonly ops: readonly FilterOp[];
}
/** Per-resource table of filterable fields. */
export type FilterSpec = Readonly<Record<string, FieldSpec>>;
/** One parsed clause. For timestamp fields compared by instant, `values` are already canonical (normaliseValue). */
export interface FilterClause {
  readonly op: FilterOp;
  readonly field: string;
  readonly values: readonly string[];
}

export const MAX_FILTERS = 10;
export const MAX_FILTER_BYTES = 8192;
export const PARSE_ERROR_DETAIL = 'Could not parse the supplied filter';

/** A value accessor: the record's value for a field (string, or null/undefined when absent). */
export type FieldGetter<R> = (record: R, field: string) => string | null | undefined;

const OP_SET: ReadonlySet<string> = new Set(FILTER_OPS);
const isOp = (s: string): s is FilterOp => OP_SET.has(s);
/** Operators whose values are instants on a timestamp field; like/ilike/contains take patterns instead. */
const INSTANT_OPS: ReadonlySet<FilterOp> = new Set<FilterOp>(['eq', 'in', 'gt', 'ge', 'lt', 'le']);

const badRequest = (detail: string): Decision<never> => refuse(apiError('bad-request', detail));

export function parseFilter(text: string, spec: FilterSpec): Decision<readonly FilterClause[]> {
  if (utf8Length(text) > MAX_FILTER_BYTES) {
    return badRequest(`Filter is too long: at most ${MAX_FILTER_BYTES} bytes are allowed`);
  }
  const raw = scan(text);
  if (raw === undefined) return badRequest(PARSE_ERROR_DETAIL);
  if (raw.length > MAX_FILTERS) return badRequest(`Too many filters: at most ${MAX_FILTERS} are allowed`);
  const clauses: FilterClause[] = [];
  for (const { op, field, values } of raw) {
    // hasOwn, so that names such as `constructor` or `__proto__` are never found on the prototype.
    const fieldSpec = Object.hasOwn(spec, field) ? spec[field] : undefined;
    if (fieldSpec === undefined) return badRequest(`Unknown or unsupported filter attribute: ${field}`);
    if (!fieldSpec.ops.includes(op)) return badRequest(`Operator '${op}' is not supported for attribute '${field}'`);
    if (fieldSpec.kind === 'timestamp' && INSTANT_OPS.has(op)) {
      const canonical: string[] = [];
      for (const v of values) {
        const n = normaliseValue('timestamp', v);
        if (n === undefined) return badRequest(`Invalid date value for attribute '${field}'`);
        canonical.push(n);
      }
      clauses.push({ op, field, values: canonical });
    } else {
      clauses.push({ op, field, values });
    }
  }
  return ok(clauses);
}

interface RawClause {
  readonly op: FilterOp;
  readonly field: string;
  readonly values: readonly string[];
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

function skipSpace(text: string, i: number): number {
  while (isSpace(text[i])) i++;
  return i;
}

/** Scans the whole text into clauses, or undefined when it is not well formed (including wrong arity). */
function scan(text: string): RawClause[] | undefined {
  const out: RawClause[] = [];
  const n = text.length;
  let i = 0;
  for (;;) {
    let j = i;
    while (j < n && text[j] !== '(') {
      if (text[j] === ':' || text[j] === ')') return undefined;
      j++;
    }
    if (j >= n) return undefined;
    const op = text.slice(i, j).trim();
    if (!isOp(op)) return undefined;
    const args: string[] = [];
    i = j + 1;
    for (;;) {
      i = skipSpace(text, i);
      const q = text[i];
      if (q === '"' || q === "'") {
        // Inside quotes everything is literal up to the same quote; there is no escape.
        const close = text.indexOf(q, i + 1);
        if (close < 0) return undefined;
        args.push(text.slice(i + 1, close));
        i = skipSpace(text, close + 1);
      } else {
        // Unquoted: up to `,` or `)`. A colon is literal here (timestamps), an opening parenthesis is not.
        let k = i;
        while (k < n && text[k] !== ',' && text[k] !== ')') {
          if (text[k] === '(') return undefined;
          k++;
        }
        const value = text.slice(i, k).trim();
        if (value === '') return undefined;
        args.push(value);
        i = k;
      }
      const d = text[i];
      i++;
      if (d === ')') break;
      if (d !== ',') return undefined;
    }
    const [field, ...values] = args;
    if (field === undefined || field === '' || !arityFits(op, values.length)) return undefined;
    out.push({ op, field, values });
    i = skipSpace(text, i);
    if (i >= n) return out;
    if (text[i] !== ':') return undefined;
    i++;
  }
}

function arityFits(op: FilterOp, count: number): boolean {
  if (op === 'is_null') return count === 0;
  if (op === 'in') return count >= 1;
  return count === 1;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

export function matchesAll<R>(record: R, clauses: readonly FilterClause[], spec: FilterSpec, get: FieldGetter<R>): boolean {
  return clauses.every((clause) => compileClause(clause, spec)(get(record, clause.field)));
}

/** A value test for one clause, with its pattern and values prepared once: a scan calls it per record. */
export type ValueTest = (actual: string | null | undefined) => boolean;

export function compileClause(clause: FilterClause, spec: FilterSpec): ValueTest {
  const fieldSpec = Object.hasOwn(spec, clause.field) ? spec[clause.field] : undefined;
  if (fieldSpec === undefined) return () => false;
  if (clause.op === 'is_null') return (actual) => actual === null || actual === undefined || actual === '';
  const kind = fieldSpec.kind;
  const first = clause.values[0] ?? '';
  const cmp = (actual: string, v: string) => compareValues(kind, actual, v);
  const present =
    (test: (actual: string) => boolean): ValueTest =>
    (actual) =>
      actual !== null && actual !== undefined && test(actual);
  switch (clause.op) {
    case 'eq':
      return present((a) => cmp(a, first) === 0);
    case 'in':
      return present((a) => clause.values.some((v) => cmp(a, v) === 0));
    case 'gt':
      return present((a) => cmp(a, first) > 0);
    case 'ge':
      return present((a) => cmp(a, first) >= 0);
    case 'lt':
      return present((a) => cmp(a, first) < 0);
    case 'le':
      return present((a) => cmp(a, first) <= 0);
    case 'like': {
      const match = wildcard(first);
      return present(match);
    }
    case 'ilike': {
      const match = wildcard(first.toLowerCase());
      return present((a) => match(a.toLowerCase()));
    }
    case 'contains':
      return present((a) => a.includes(first));
  }
}

/** `*` matches any run of characters; the pattern covers the whole value. Greedy leftmost search, no backtracking. */
function wildcard(pattern: string): (value: string) => boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return (value) => value === pattern;
  const head = parts[0] ?? '';
  const tail = parts[parts.length - 1] ?? '';
  const middles = parts.slice(1, -1);
  return (value) => {
    if (value.length < head.length + tail.length || !value.startsWith(head) || !value.endsWith(tail)) return false;
    let pos = head.length;
    const end = value.length - tail.length;
    for (const middle of middles) {
      const at = value.indexOf(middle, pos);
      if (at < 0 || at + middle.length > end) return false;
      pos = at + middle.length;
    }
    return true;
  };
}

/**
 * ISO-8601 date, optionally with time, fraction and zone. A space before the offset is read as `+`,
 * because the caller URL-decoded a raw `+` to a space. A missing zone means UTC, so results never
 * depend on the machine's time zone (unlike Date.parse).
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+\- ]\d{2}(?::?\d{2})?)?)?$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Milliseconds since the epoch, or undefined when the text is not a valid date in years 0000–9999. */
function parseInstant(text: string): number | undefined {
  const m = ISO.exec(text.trim());
  if (m === null) return undefined;
  const num = (group: number): number => Number(m[group] ?? '0');
  const [year, month, day, hour, minute, second] = [num(1), num(2), num(3), num(4), num(5), num(6)];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : DAYS[month - 1];
  if (days === undefined || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Number(((m[7] ?? '') + '000').slice(0, 3));
  let offset = 0;
  const zone = m[8];
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(-2));
    if (oh > 23 || (zone.length > 3 && om > 59)) return undefined;
    offset = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + (zone.length > 3 ? om : 0)) * 60_000;
  }
  // setUTCFullYear, because Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const instant = date.getTime() - offset;
  const y = new Date(instant).getUTCFullYear();
  return y >= 0 && y <= 9999 ? instant : undefined;
}

export function compareValues(kind: FieldKind, a: string, b: string): number {
  if (kind === 'timestamp') {
    const x = parseInstant(a);
    const y = parseInstant(b);
    // Valid instants before unparseable text, so that the order stays total on bad stored data.
    if (x !== undefined && y !== undefined) return Math.sign(x - y);
    if (x !== undefined) return -1;
    if (y !== undefined) return 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

export function normaliseValue(kind: FieldKind, value: string): string | undefined {
  if (kind === 'string') return value;
  const instant = parseInstant(value);
  return instant === undefined ? undefined : new Date(instant).toISOString();
}
