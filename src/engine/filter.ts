/**
 * The `filter` query parameter (docs/api-notes.md, "Filter and sort grammar"): `op(field,value)` clauses
 * joined by `:` (AND). A hand-written scanner, not a regex, so any input is parsed in linear time.
 */
import { apiError, ok, refuse, type Decision } from './api-errors.js';
import { instantBounds, parseInstantNs, type Precision } from './instants.js';

export type FilterOp = 'eq' | 'like' | 'ilike' | 'in' | 'gt' | 'ge' | 'lt' | 'le' | 'is_null' | 'contains';
export const FILTER_OPS: readonly FilterOp[] = ['eq', 'like', 'ilike', 'in', 'gt', 'ge', 'lt', 'le', 'is_null', 'contains'];

export type FieldKind = 'string' | 'timestamp';
interface FieldSpec {
  readonly kind: FieldKind;
  readonly ops: readonly FilterOp[];
}
/** Per-resource table of filterable fields. */
export type FilterSpec = Readonly<Record<string, FieldSpec>>;
/** One parsed clause. For timestamp fields compared by instant, the store reads `storeClauses` of it. */
export interface FilterClause {
  readonly op: FilterOp;
  readonly field: string;
  readonly values: readonly string[];
}

export const MAX_FILTERS = 10;
export const MAX_FILTER_BYTES = 8192;
const PARSE_ERROR_DETAIL = 'Could not parse the supplied filter';

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
    if (fieldSpec.kind === 'timestamp' && INSTANT_OPS.has(op) && values.some((v) => parseInstantNs(v) === undefined)) {
      return badRequest(`Invalid date value for attribute '${field}'`);
    }
    clauses.push({ op, field, values });
  }
  return ok(clauses);
}

/**
 * The clauses as the store reads them: every comparison of a timestamp with an instant written at any
 * precision becomes bounds on the store's milliseconds, read through the precision the deployment
 * shows (engine/instants.ts), so `ge(created_at,….777055Z)` compares at the microsecond. Values are
 * canonical ISO text of whole store milliseconds.
 */
export function storeClauses(clauses: readonly FilterClause[], spec: FilterSpec, precision: Precision): readonly FilterClause[] {
  if (!clauses.some((c) => isInstantClause(c, spec))) return clauses;
  const out: FilterClause[] = [];
  for (const c of clauses) {
    if (!isInstantClause(c, spec)) {
      out.push(c);
      continue;
    }
    if (c.op === 'in') {
      // Each value shown by some store millisecond: the first of them (a value no millisecond shows matches nothing).
      const values: string[] = [];
      for (const v of c.values) {
        const b = instantBounds('eq', v, precision);
        if (b?.lo !== undefined && b.hi !== undefined && b.lo <= b.hi) values.push(msText(b.lo));
      }
      out.push({ op: 'in', field: c.field, values });
      continue;
    }
    const b = instantBounds(c.op as 'eq' | 'gt' | 'ge' | 'lt' | 'le', c.values[0] ?? '', precision);
    if (b?.lo !== undefined) out.push({ op: 'ge', field: c.field, values: [msText(b.lo)] });
    if (b?.hi !== undefined) out.push({ op: 'le', field: c.field, values: [msText(b.hi)] });
  }
  return out;
}

const isInstantClause = (c: FilterClause, spec: FilterSpec): boolean => INSTANT_OPS.has(c.op) && Object.hasOwn(spec, c.field) && spec[c.field]?.kind === 'timestamp';

/** A store millisecond as canonical text; past the years the store holds, clamped (nothing lies there). */
const msText = (ms: number): string => new Date(Math.min(Math.max(ms, MIN_MS), MAX_MS)).toISOString();
const MIN_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');

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
    case 'in': {
      // One hash lookup per record, not one comparison per value: 4,000 values cost what one does.
      const key = kind === 'timestamp' ? instantKey : (text: string) => text;
      const keys = new Set(clause.values.map(key));
      return present((a) => keys.has(key(a)));
    }
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

/** A `like` pattern cut at its `*`s: the text before the first, after the last, and the non-empty parts between. */
export interface PatternParts {
  readonly head: string;
  readonly tail: string;
  /** Searched for in order; undefined when the pattern has no `*` (it must equal the value). */
  readonly middles: readonly string[] | undefined;
}

export function patternParts(pattern: string): PatternParts {
  const parts = pattern.split('*');
  if (parts.length === 1) return { head: pattern, tail: '', middles: undefined };
  // An empty part (`**`) matches anywhere and moves nothing: dropping it changes no match, only the work.
  return { head: parts[0] ?? '', tail: parts[parts.length - 1] ?? '', middles: parts.slice(1, -1).filter((m) => m !== '') };
}

/** `*` matches any run of characters; the pattern covers the whole value. Greedy leftmost search, no backtracking. */
function wildcard(pattern: string): (value: string) => boolean {
  const { head, tail, middles } = patternParts(pattern);
  if (middles === undefined) return (value) => value === pattern;
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

/** Milliseconds since the epoch (the fraction past them cut), or undefined when the text is not an instant. */
export function parseInstant(text: string): number | undefined {
  const ns = parseInstantNs(text);
  return ns === undefined ? undefined : Number(ns / 1_000_000n) - (ns < 0n && ns % 1_000_000n !== 0n ? 1 : 0);
}

/** What a timestamp is equal by: its instant, or its text when it is not one (as compareValues orders them). */
const instantKey = (text: string): string | number => parseInstant(text) ?? text;

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
