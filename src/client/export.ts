/**
 * The full export of commerce-api.md §4.3: all accounts sorted by id to CSV (name, legal name,
 * registration id, id) with page[limit]=100, sort=id and filter=gt(id,<last_id>) on /v2/accounts.
 * Streams page by page into a sink, so memory stays flat however many accounts there are.
 */
import { MAX_PAGE_LENGTH } from '../limits.js';
import { recordAttr } from '../rules/inspect.js';
import type { Target } from '../port.js';
import { csvRow } from './csv.js';
import { iterate, type IterationStats, type ListRecord } from './keyset.js';
import type { RetryOptions } from './retry.js';

export const ACCOUNTS_PATH = '/v2/accounts';
export const ACCOUNT_COLUMNS = ['name', 'legal_name', 'registration_id', 'id'] as const;

/** Where the CSV goes: a file stream, stdout, a string buffer. May return a promise for back-pressure. */
export interface CsvSink {
  write(chunk: string): void | Promise<void>;
}

export interface ExportProgress {
  /** Accounts written so far. */
  readonly records: number;
  readonly pages: number;
  /** Accounts the export expects in all (meta.results.total of the first page plus `records` before it), when known. */
  readonly expected: number | undefined;
  readonly lastId: string | undefined;
}

export interface ExportOptions extends RetryOptions {
  /** Resume after this id (the last one of an earlier, interrupted export). */
  readonly after?: string;
  /** page[limit] (default 100, as §4.3 says). */
  readonly pageSize?: number;
  /** Write the header row (default: when not resuming). */
  readonly header?: boolean;
  /** Only accounts at least this old against `now` (eventual consistency); default: all that are listed. */
  readonly bufferMs?: number;
  readonly onProgress?: (progress: ExportProgress) => void;
}

export interface ExportResult {
  readonly records: number;
  /** Where to resume (`after`) if the export is run again for later records. */
  readonly lastId: string | undefined;
  readonly bytes: number;
  readonly stats: Readonly<IterationStats>;
}

/** The CSV row of an account; each column wherever the target keeps it (beside id, or under `attributes`). */
export function accountRow(record: ListRecord): string {
  return csvRow(ACCOUNT_COLUMNS.map((column) => text(recordAttr(record, column))));
}

export async function exportAccounts(target: Target, sink: CsvSink, options: ExportOptions = {}): Promise<ExportResult> {
  let expected: number | undefined;
  let pages = 0;
  let pending = '';
  let records = 0;
  let bytes = 0;
  let lastId = options.after;
  const flush = async () => {
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    bytes += Buffer.byteLength(chunk);
    await sink.write(chunk);
  };
  const reader = iterate(target, ACCOUNTS_PATH, {
    ...options,
    attribute: 'id',
    pageSize: options.pageSize ?? MAX_PAGE_LENGTH,
    onPage: (page) => {
      pages += 1;
      // The first page's total counts what is left after `after`: the whole export expected.
      if (expected === undefined && page.total !== undefined) expected = page.total;
    },
  });
  if (options.header ?? options.after === undefined) pending += csvRow(ACCOUNT_COLUMNS);
  let pageMark = 0;
  try {
    for await (const record of reader) {
      if (pages !== pageMark) {
        // A new page: write what the previous one gave (one write per page), then report.
        pageMark = pages;
        await flush();
        options.onProgress?.({ records, pages, expected, lastId });
      }
      pending += accountRow(record);
      records += 1;
      lastId = record.id;
    }
  } finally {
    // Also on failure: every row read reaches the sink, so `lastId` is where a rerun resumes (--after).
    await flush();
    options.onProgress?.({ records, pages, expected, lastId });
  }
  return { records, lastId, bytes, stats: reader.stats };
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
