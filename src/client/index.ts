/**
 * The reference client for commerce-api.md §4.3 (`commerce-sim/client`): keyset iteration over any
 * list endpoint, an incremental updated_at sync, and the accounts CSV export. It talks to any Target
 * (the in-process simulator, or a base URL through src/target/http.ts).
 */
export { iterate, isListRecord, timestampOf, filterValue, MAX_PAGE_SIZE } from './keyset.js';
export type { IterateOptions, IterationStats, KeysetAttribute, KeysetReader, ListRecord, PageEvent, Position, TimestampAttribute, TimestampPosition } from './keyset.js';
export { syncSince, readCheckpoint, DELETES_NOTE } from './sync.js';
export type { SyncCheckpoint, SyncOptions, SyncResult } from './sync.js';
export { exportAccounts, accountRow, ACCOUNTS_PATH, ACCOUNT_COLUMNS } from './export.js';
export type { CsvSink, ExportOptions, ExportProgress, ExportResult } from './export.js';
export { csvField, csvRow, parseCsv } from './csv.js';
export { ClientError, createRequester, DEFAULT_CLIENT_BUDGET, DEFAULT_RETRIES } from './retry.js';
export type { ClientErrorCode, ClientErrorOptions, Requester, RequestStats, RetryOptions, Sleep } from './retry.js';
