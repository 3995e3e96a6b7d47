/**
 * Every error the tool throws on purpose is a KitError with a stable `code` (a table of them is in
 * docs/errors.md, checked by a test). Catch one class, switch on the code; the message is for people.
 */
export const ERROR_CODES = {
  CLI_USAGE: 'a command line the command cannot run (unknown option, bad value); exit 2',
  SIM_INVALID_OPTION: 'startSimulator() was given an option it cannot use (the option named)',
  SIM_PORT_IN_USE: 'the port to listen on (serve --port, startSimulator({ port })) is taken by another server',
  SIM_ADMIN_FAILED: "an admin operation of startSimulator()'s handle (reset, snapshot, restore) was refused",
  TARGET_UNREACHABLE: 'the base URL does not answer (DNS, refused, reset)',
  TARGET_TIMEOUT: 'the target did not answer in time',
  TARGET_AUTH_FAILED: 'the credentials were refused (preflight read answered 401/403)',
  TARGET_NOT_API: 'the base URL answers, but not like the API (preflight)',
  TARGET_BUDGET_EXHAUSTED: 'the request budget (--budget) ran out',
  TARGET_BAD_URL: 'the target is neither `sim` nor an http(s) URL',
  SCENARIO_INVALID: 'a scenario file does not validate (file, line and YAML path given)',
  SCENARIO_NOT_FOUND: 'a scenario path does not exist',
  DATASET_UNKNOWN: 'a dataset name that is neither a named profile nor a file',
  DATASET_INVALID: 'a dataset file that does not validate (the bad member named)',
  DATASET_UNREADABLE: 'a dataset file that cannot be read',
  FIXTURE_SECRET_LEAK: 'a generated fixture would contain a secret',
  FIXTURE_NO_PROGRESS: 'fixture generation could not move forward',
  RECORDING_NOT_FOUND: 'a recording directory that does not exist',
  RECORDING_INVALID: 'a recording that does not validate',
  REPORT_BAD_RUN_ID: 'a run id that cannot name a report directory',
  REPORT_UNREADABLE: '`report merge` was given a directory without a readable report.json of this tool',
  REPORT_MERGE_MISMATCH: '`report merge` was given reports that are not shards of one run (target, options or cases differ or overlap)',
  PROPS_ADMIN_FAILED: 'a property needs the admin API, and it failed or is missing',
  PROPS_SETUP: 'a property cannot run against this target (reported as a skip)',
  PROPS_NOT_RUN: '`props`: a property broke while running (not a rule failure: it judged nothing); exit 2',
  CLIENT_BUDGET_EXHAUSTED: 'the reference client ran out of requests; resume from the last position',
  CLIENT_RETRIES_EXHAUSTED: 'the reference client got 429/5xx (or no answer) after every retry',
  CLIENT_RETRY_AFTER_TOO_LONG: 'the target asked the reference client to wait longer than maxRetryAfterMs',
  CLIENT_HTTP_STATUS: 'an answer the reference client does not retry (4xx other than 429)',
  CLIENT_BAD_RESPONSE: 'a 200 whose body is not a list of records',
  CLIENT_NO_PROGRESS: 'the target answered the same page again (it ignores the keyset filter)',
  TRAFFIC_BAD_INPUT: 'a traffic file (HAR or recording) that cannot be read or is malformed (the file and entry named)',
  TRAFFIC_NOTHING_JUDGED: '`check` or `proxy` judged no documented rule (an empty HAR, an upstream that never answered): no pass; exit 2',
} as const;

export type KitErrorCode = keyof typeof ERROR_CODES;

/** What every error of the tool may carry besides its code and message. */
export interface KitErrorOptions {
  readonly cause?: unknown;
}

/** The root every error of the tool is an instance of: `catch`, test `instanceof KitError`, switch on `code`. */
export abstract class KitError extends Error {
  abstract readonly code: KitErrorCode;
}

/**
 * The one way an error of the tool is built: a class names the codes it may carry (one, or a family:
 * TARGET_*, DATASET_*, ...) and its `name`; every throw gives the code, the message and maybe a cause,
 * `new TargetError('TARGET_TIMEOUT', message, { cause })`, so `grep` for a code finds where it is thrown.
 * A class with more to carry (a status, the problems found) takes it in the options and keeps it.
 */
export abstract class CodedKitError<C extends KitErrorCode> extends KitError {
  constructor(
    readonly code: C,
    message: string,
    options?: KitErrorOptions,
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

export const isKitError = (value: unknown): value is KitError => value instanceof KitError;

/** A usage error (a bad option or value): one line plus where to look, exit 2. Thrown below the CLI too (option checks of targets). */
export class UsageError extends CodedKitError<'CLI_USAGE'> {
  override readonly name = 'UsageError';
}
