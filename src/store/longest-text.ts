/**
 * The longest value of each field asked about so far, by one collection layer's records: what a pattern
 * search may have to read per record (the work budget weighs a filter by it, engine/read-cost.ts). Raised on
 * writes, never lowered on deletes (an upper bound is enough).
 */
import type { SimRecord } from './sim-record.js';
import { drain, RECORDS_PER_STEP, type Steps } from './steps.js';

export class LongestText {
  private readonly longest = new Map<string, number>();

  /** `records`: the layer's records now, walked when a field is first asked about. */
  constructor(private readonly records: () => Iterable<SimRecord>) {}

  /** Characters of the longest value of `field` (measured once per field, then kept up to date). */
  of(field: string): number {
    const known = this.longest.get(field);
    if (known !== undefined) return known;
    drain(this.measureSteps([field]));
    return this.longest.get(field) as number;
  }

  /** Measure (and keep) each of `fields` not measured yet, in one pass over the records, as steps. */
  *measureSteps(fields: readonly string[]): Steps<void> {
    const unmeasured = fields.filter((field) => !this.longest.has(field));
    if (unmeasured.length === 0) return;
    const longest = unmeasured.map(() => 0);
    let i = 0;
    for (const r of this.records()) {
      for (let f = 0; f < unmeasured.length; f++) longest[f] = Math.max(longest[f] as number, textLength(r, unmeasured[f] as string));
      if ((++i & (RECORDS_PER_STEP - 1)) === 0) yield;
    }
    for (let f = 0; f < unmeasured.length; f++) this.longest.set(unmeasured[f] as string, longest[f] as number);
  }

  /** A record written to the layer: the fields measured so far are raised to its values' lengths. */
  note(record: SimRecord): void {
    for (const [field, n] of this.longest) {
      const length = textLength(record, field);
      if (length > n) this.longest.set(field, length);
    }
  }
}

function textLength(record: SimRecord, field: string): number {
  const v = field === 'id' ? record.id : record.attrs[field];
  return typeof v === 'string' ? v.length : 0;
}
