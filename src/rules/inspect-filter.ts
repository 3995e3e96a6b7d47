/**
 * The oracle's own reading of `filter` and `sort` (docs/api-notes.md, "Filter and sort grammar"), apart from
 * the simulator engine: lenient, so a deployment is never failed for a filter it may accept, and
 * comparisons accept any reasonable collation (code units, case-insensitive, locale, numeric).
 */
import type { Result } from '../result.js';
import { compareInstants } from './inspect-paths.js';
import { lastFew } from './inspect-wire.js';

const FILTER_OPERATORS: readonly string[] = ['eq', 'like', 'ilike', 'in', 'gt', 'ge', 'lt', 'le', 'is_null', 'contains'];

export interface FilterClause {
  readonly op: string;
  readonly field: string;
  readonly values: readonly string[];
}

export type FilterParse = Result<readonly FilterClause[], { readonly message: string }>;

/**
 * `op(field,value,...)` clauses joined by `:`. Values may be quoted (`"..."` or `'...'`); an unquoted
 * value runs to the next `,` or `)` and may hold `:` (timestamps). Fails only on clearly broken text.
 */
export function parseFilterText(text: string): FilterParse {
  const clauses: FilterClause[] = [];
  const n = text.length;
  let i = 0;
  for (;;) {
    const open = text.indexOf('(', i);
    if (open < 0) return { ok: false, message: `no '(' after position ${i}` };
    const op = text.slice(i, open).trim().toLowerCase();
    if (!FILTER_OPERATORS.includes(op)) return { ok: false, message: `unknown operator '${op.slice(0, 40)}'` };
    const args: string[] = [];
    i = open + 1;
    for (;;) {
      while (text[i] === ' ') i++;
      const q = text[i];
      if (q === '"' || q === "'") {
        const close = text.indexOf(q, i + 1);
        if (close < 0) return { ok: false, message: 'unterminated quote' };
        args.push(text.slice(i + 1, close));
        i = close + 1;
        while (text[i] === ' ') i++;
      } else {
        let k = i;
        while (k < n && text[k] !== ',' && text[k] !== ')') k++;
        args.push(text.slice(i, k).trim());
        i = k;
      }
      if (i >= n) return { ok: false, message: `missing ')' in ${op}(...)` };
      const d = text[i];
      i++;
      if (d === ')') break;
    }
    const [field, ...values] = args;
    if (field === undefined || field === '') return { ok: false, message: `${op}(...) has no attribute` };
    const arityOk = op === 'is_null' ? values.every((v) => v === '') : values.length >= 1 && (op === 'in' || values.length === 1);
    if (!arityOk) return { ok: false, message: `${op}(${field},...) has ${values.length} value(s)` };
    clauses.push({ op, field, values: op === 'is_null' ? [] : values });
    while (text[i] === ' ') i++;
    if (i >= n) return { ok: true, value: clauses };
    if (text[i] !== ':') return { ok: false, message: `unexpected '${text[i] ?? ''}' after ${op}(...)` };
    i++;
  }
}

/** Filter texts remembered: every rule offered a read parses its filter again. */
const clausesOf = lastFew((text: string): readonly FilterClause[] => {
  const p = parseFilterText(text);
  return p.ok ? p.value : [];
}, 1_024);

export const parsedClauses = (text: string | undefined): readonly FilterClause[] => (text === undefined ? [] : clausesOf(text));

export const isTimestampField = (field: string): boolean => field.endsWith('_at');

type Compare = (a: string, b: string) => number;

const codeUnits: Compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const folded: Compare = (a, b) => codeUnits(a.toLowerCase(), b.toLowerCase());
/** Made on first use: a collator costs milliseconds to build. */
let collator: Intl.Collator | undefined;
const locale: Compare = (a, b) => (collator ??= new Intl.Collator('en', { sensitivity: 'base' })).compare(a, b);
const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;
const numeric: Compare = (a, b) => (NUMERIC.test(a) && NUMERIC.test(b) ? Math.sign(Number(a) - Number(b)) : codeUnits(a, b));
const instants: Compare = (a, b) => compareInstants(a, b) ?? codeUnits(a, b);

/** The orders a deployment may use for an attribute: by instant for timestamps, any collation for text. */
export function comparatorsFor(field: string): readonly Compare[] {
  return isTimestampField(field) ? [instants] : [codeUnits, folded, locale, numeric];
}

/** Equality of two attribute values: same instant for timestamps, same text otherwise. */
export function sameValue(field: string, a: string, b: string): boolean {
  return isTimestampField(field) ? instants(a, b) === 0 : a === b;
}

/**
 * Whether `values` are in order (ascending, or descending) under at least one acceptable comparator;
 * returns the index of the first out-of-order value under the first comparator, or undefined when in order.
 */
export function firstDisorder(field: string, values: readonly string[], direction: 'asc' | 'desc'): number | undefined {
  const sign = direction === 'asc' ? 1 : -1;
  let first: number | undefined;
  for (const cmp of comparatorsFor(field)) {
    let bad: number | undefined;
    for (let i = 1; i < values.length; i++) {
      if (sign * cmp(values[i - 1] ?? '', values[i] ?? '') > 0) {
        bad = i;
        break;
      }
    }
    if (bad === undefined) return undefined;
    first ??= bad;
  }
  return first;
}

function wildcard(value: string, pattern: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return value === pattern;
  const head = parts[0] ?? '';
  const tail = parts[parts.length - 1] ?? '';
  if (value.length < head.length + tail.length || !value.startsWith(head) || !value.endsWith(tail)) return false;
  let pos = head.length;
  const end = value.length - tail.length;
  for (const mid of parts.slice(1, -1)) {
    const found = value.indexOf(mid, pos);
    if (found < 0 || found + mid.length > end) return false;
    pos = found + mid.length;
  }
  return true;
}

/**
 * Whether a record's value satisfies a clause: true, false, or undefined when it cannot be judged
 * (attribute absent or not a scalar). null satisfies only is_null.
 */
export function clauseHolds(value: string | null | undefined, clause: FilterClause): boolean | undefined {
  if (clause.op === 'is_null') return value === undefined ? undefined : value === null || value === '';
  if (value === undefined) return undefined;
  if (value === null) return false;
  const first = clause.values[0] ?? '';
  const any = (test: (cmp: Compare) => boolean): boolean => comparatorsFor(clause.field).some(test);
  switch (clause.op) {
    case 'eq':
      return any((cmp) => cmp(value, first) === 0);
    case 'in':
      return clause.values.some((v) => any((cmp) => cmp(value, v) === 0));
    case 'gt':
      return any((cmp) => cmp(value, first) > 0);
    case 'ge':
      return any((cmp) => cmp(value, first) >= 0);
    case 'lt':
      return any((cmp) => cmp(value, first) < 0);
    case 'le':
      return any((cmp) => cmp(value, first) <= 0);
    case 'like':
      // Case sensitivity of `like` differs between services: either reading is accepted.
      return wildcard(value, first) || wildcard(value.toLowerCase(), first.toLowerCase());
    case 'ilike':
      return wildcard(value.toLowerCase(), first.toLowerCase());
    case 'contains':
      return value.includes(first) || value.toLowerCase().includes(first.toLowerCase());
    default:
      return undefined;
  }
}

/** `-created_at` → { field: 'created_at', direction: 'desc' }; a `+` decoded to a space reads ascending. */
export function readSort(text: string | undefined): { readonly field: string; readonly direction: 'asc' | 'desc' } | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  const direction = t.startsWith('-') ? 'desc' : 'asc';
  const field = (direction === 'desc' ? t.slice(1) : t.replace(/^\+/, '')).trim();
  return field === '' || field.includes(',') ? undefined : { field, direction };
}
