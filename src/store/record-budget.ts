/**
 * The record budget of a whole simulator: one number that the seeded records (each shared base once) and
 * every project's writes come out of, so what clients can make a served simulator hold is bounded in
 * total, however many projects they spread it over. Counted in records: a seeded record is one, a written
 * record one per 256 characters of its text (at least one), so long fields cannot outgrow the heap either.
 */
import { getHeapStatistics } from 'node:v8';
import { listResources } from './resources.js';

/**
 * Heap a budgeted record may take. Measured on Node 20 (an account read in all eight sort orders, so its
 * list item JSON is cached and every index holds it): 0.93 KiB seeded, 0.91 KiB created or restored from a
 * snapshot; 2.8 KiB with four 255-character fields (weight 5 here), 5.1 KiB when those characters are not
 * Latin-1 (weight 5). Twice the typical figure leaves the rest of the heap to what is in flight: at the
 * default budget of a 4.1 GiB heap, 2.1 million written accounts read in every order hold 1.9 GiB, and
 * the costliest restore body the limits let through (447 MiB, 23 million values) took it to 3.4 GiB.
 */
export const RECORD_HEAP_BYTES = 2048;

/**
 * A project's own structures (its authentication records, a collection per list, maps), 24 KiB measured
 * with every list read once, counted as this many records: `maxProjects` of them are set aside.
 */
export const PROJECT_RECORDS = 16;

/** Characters of text (id, fields, password hash) one budgeted record stands for. */
const CHARS_PER_RECORD = 256;

/** The default budget: what the heap this process was started with holds (`--max-old-space-size`). */
export function defaultMaxRecords(heapLimitBytes: number = getHeapStatistics().heap_size_limit): number {
  return Math.floor(heapLimitBytes / RECORD_HEAP_BYTES);
}

/** What one stored record counts against the budget: one per 256 characters of its text, at least one. */
export function recordWeight(record: { readonly id: string; readonly attrs: Readonly<Record<string, string | null>>; readonly credential?: string | undefined }): number {
  let chars = record.id.length + (record.credential?.length ?? 0);
  for (const k in record.attrs) chars += record.attrs[k]?.length ?? 0;
  return Math.max(1, Math.ceil(chars / CHARS_PER_RECORD));
}

/** Seeded records of every list collection (counts by name; the rest their default). */
export function seededRecordCount(counts: Readonly<Record<string, number>>): number {
  let n = 0;
  for (const r of listResources) n += counts[r.name] ?? r.defaultCount;
  return n;
}

/** The simulator's budget and what is taken of it; projects add to `written` through their tallies. */
export class RecordBudget {
  /** Records of the current dataset's seeded bases (declared: any reader can make them all). */
  seeded = 0;
  /** Records the live projects hold beyond the seed. */
  written = 0;

  constructor(
    readonly limit: number,
    /** Set aside for the projects' own structures: maxProjects × PROJECT_RECORDS. */
    readonly reserved: number,
  ) {}

  /** What is left for writes. */
  get free(): number {
    return this.limit - this.reserved - this.seeded - this.written;
  }
}

/** What one project holds beyond the shared seed, passed on to the budget it comes out of. */
export class RecordTally {
  count = 0;

  constructor(private target?: RecordBudget) {}

  /** The budget this tally counts into, if any. */
  get budget(): RecordBudget | undefined {
    return this.target;
  }

  add(n: number): void {
    this.count += n;
    if (this.target !== undefined) this.target.written += n;
  }

  /** Count into `budget` from now on, with what is held already (a project restored off to the side, once swapped in). */
  join(budget: RecordBudget): void {
    this.target = budget;
    budget.written += this.count;
  }

  /** Give it all back: the project is forgotten or about to be replaced. */
  release(): void {
    this.add(-this.count);
  }
}
