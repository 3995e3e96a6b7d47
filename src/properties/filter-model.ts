/**
 * A small reference of filtering and sorting over a complete sample of records, for the sort-filter
 * property: which records a filter surely selects (strict reading) and may select (the oracle's
 * lenient reading, any collation), and the ordered page a sort must give when it is unambiguous.
 */
import { clauseHolds, instantOf, isTimestampField, recordAttr, recordId, type FilterClause } from '../rules/inspect.js';

/** A record as the reference sees it: its id and the attribute values the filters and sorts read. */
export interface SampleRecord {
  readonly id: string;
  readonly record: unknown;
}

const codeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compare(field: string, a: string, b: string): number {
  if (isTimestampField(field)) {
    const x = instantOf(a);
    const y = instantOf(b);
    if (x !== undefined && y !== undefined) return Math.sign(x - y);
  }
  return codeUnits(a, b);
}

function wildcard(value: string, pattern: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(value);
}

/** The strict reading: exact text, code-unit order, instants for timestamps, case-sensitive `like`. */
export function strictHolds(record: unknown, clause: FilterClause): boolean {
  const value = recordAttr(record, clause.field);
  if (typeof value !== 'string') return false;
  const v = clause.values[0] ?? '';
  switch (clause.op) {
    case 'eq':
      return compare(clause.field, value, v) === 0;
    case 'in':
      return clause.values.some((x) => compare(clause.field, value, x) === 0);
    case 'gt':
      return compare(clause.field, value, v) > 0;
    case 'ge':
      return compare(clause.field, value, v) >= 0;
    case 'lt':
      return compare(clause.field, value, v) < 0;
    case 'le':
      return compare(clause.field, value, v) <= 0;
    case 'like':
      return wildcard(value, v);
    default:
      return false;
  }
}

export const selects = (record: unknown, clauses: readonly FilterClause[]): boolean => clauses.every((c) => strictHolds(record, c));
export const maySelect = (record: unknown, clauses: readonly FilterClause[]): boolean => clauses.every((c) => clauseHolds(recordAttr(record, c.field), c) !== false);

/** How many records a filter selects: at least `lo` (strict reading), at most `hi` (lenient). */
export function countRange(sample: readonly SampleRecord[], clauses: readonly FilterClause[]): { lo: number; hi: number } {
  let lo = 0;
  let hi = 0;
  for (const s of sample) {
    if (selects(s.record, clauses)) lo += 1;
    if (maySelect(s.record, clauses)) hi += 1;
  }
  return { lo, hi };
}

/** The clauses with one operator read as another (gt as ge, ge as gt): the count a server confusing them gives. */
export const bent = (clauses: readonly FilterClause[], from: string, to: 'gt' | 'ge'): FilterClause[] => clauses.map((c) => (c.op === from ? { ...c, op: to } : c));

/**
 * The ids of the page at `offset`/`limit` of the filtered set sorted by `field`, or undefined when the
 * order is not unambiguous (the filter's reading differs between collations, or two records tie).
 */
export function expectedPage(
  sample: readonly SampleRecord[],
  clauses: readonly FilterClause[],
  sort: { readonly field: string; readonly direction: 'asc' | 'desc' },
  offset: number,
  limit: number,
): string[] | undefined {
  if (sort.field !== 'id' && !isTimestampField(sort.field)) return undefined;
  const chosen = sample.filter((s) => selects(s.record, clauses));
  if (chosen.length !== sample.filter((s) => maySelect(s.record, clauses)).length) return undefined;
  const keyed: { id: string; key: string }[] = [];
  for (const s of chosen) {
    const key = sort.field === 'id' ? s.id : recordAttr(s.record, sort.field);
    if (typeof key !== 'string') return undefined;
    keyed.push({ id: s.id, key });
  }
  const sign = sort.direction === 'asc' ? 1 : -1;
  keyed.sort((a, b) => sign * compare(sort.field, a.key, b.key));
  for (let i = 1; i < keyed.length; i++) if (compare(sort.field, keyed[i - 1]?.key ?? '', keyed[i]?.key ?? '') === 0) return undefined;
  return keyed.slice(offset, offset + limit).map((k) => k.id);
}

export function sampleOf(records: readonly unknown[]): SampleRecord[] {
  const out: SampleRecord[] = [];
  for (const record of records) {
    const id = recordId(record);
    if (id !== undefined) out.push({ id, record });
  }
  return out;
}
