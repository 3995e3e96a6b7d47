/**
 * A small reference of filtering and sorting over a complete sample of records, for the sort-filter
 * property: which records a filter surely selects (strict reading) and may select (the oracle's
 * lenient reading, any collation), and the ordered page a sort must give when it is unambiguous.
 */
import { clauseHolds, comparatorsFor, compareInstants, isTimestampField, recordAttr, recordId, type FilterClause } from '../rules/inspect.js';

/** A record as the reference sees it: its id and the attribute values the filters and sorts read. */
export interface SampleRecord {
  readonly id: string;
  readonly record: unknown;
}

const codeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compare(field: string, a: string, b: string): number {
  if (isTimestampField(field)) {
    const c = compareInstants(a, b);
    if (c !== undefined) return c;
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

/**
 * The strict reading: the clause holds under every collation a deployment may use (comparatorsFor:
 * instants for timestamps; code units, case-folded, locale or numeric order for text), exact text,
 * case-sensitive `like`. A record selected strictly is selected by any conforming deployment.
 */
function strictHolds(record: unknown, clause: FilterClause): boolean {
  const value = recordAttr(record, clause.field);
  if (typeof value !== 'string') return false;
  const v = clause.values[0] ?? '';
  const every = (test: (c: number) => boolean, against = v): boolean => comparatorsFor(clause.field).every((cmp) => test(cmp(value, against)));
  switch (clause.op) {
    case 'eq':
      return compare(clause.field, value, v) === 0;
    case 'in':
      return clause.values.some((x) => compare(clause.field, value, x) === 0);
    case 'gt':
      return every((c) => c > 0);
    case 'ge':
      return every((c) => c >= 0);
    case 'lt':
      return every((c) => c < 0);
    case 'le':
      return every((c) => c <= 0);
    case 'like':
      return wildcard(value, v);
    default:
      return false;
  }
}

const selects = (record: unknown, clauses: readonly FilterClause[]): boolean => clauses.every((c) => strictHolds(record, c));
const maySelect = (record: unknown, clauses: readonly FilterClause[]): boolean => clauses.every((c) => clauseHolds(recordAttr(record, c.field), c) !== false);

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
  // Unambiguous only when no two records tie and every collation a deployment may use gives this order
  // (numeric ids ordered as numbers are not in code-unit order).
  for (let i = 1; i < keyed.length; i++) {
    const a = keyed[i - 1]?.key ?? '';
    const b = keyed[i]?.key ?? '';
    if (comparatorsFor(sort.field).some((cmp) => sign * cmp(a, b) >= 0)) return undefined;
  }
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
