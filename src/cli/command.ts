/**
 * The plumbing every command shares: strict option parsing (its errors become usage errors),
 * `-h/--help`, and for the commands that report their own failures, the message and exit 2.
 */
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { KitError } from '../kit-errors.js';
import { failureAnnotation, failureSummary, reporterArgument, type Failure } from './failure.js';
import { EXIT_OK, EXIT_USAGE, UsageError, type CliIo, type Command } from './io.js';
import { parseErrorMessage, type OptionTable } from './parse-errors.js';
import { reporterFor } from './style.js';

export type { OptionTable } from './parse-errors.js';
type Strict<O extends OptionTable> = { args: string[]; options: O; strict: true; allowPositionals: boolean };
/** The values of an option table as node:util types them: a string, boolean or array per option, each optional. */
export type Values<O extends OptionTable> = ReturnType<typeof parseArgs<Strict<O>>>['values'];

export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

export function parseOptions<O extends OptionTable>(argv: readonly string[], options: O, allowPositionals = false): { values: Values<O>; positionals: readonly string[] } {
  try {
    return parseArgs<Strict<O>>({ args: [...argv], options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError('CLI_USAGE', parseErrorMessage(error, argv, options));
  }
}

/**
 * Every usage error, of every command: one line naming the bad option or value, and where the options
 * are. Exit 2. A message of several lines (a parser's, a file's) is folded onto the one line.
 */
export function usageErrorText(name: string | undefined, message: string): string {
  const command = name === undefined ? 'commerce-sim' : `commerce-sim ${name}`;
  return `${command}: ${message.replace(/\s*\n\s*/g, ' ')} (see ${command} --help)\n`;
}

/** A command with what it accepts and its help, so tests can hold every command to its own help text. */
export type DefinedCommand = Command & { readonly usage: string; readonly options: OptionTable };

export interface CommandSpec<O extends OptionTable> {
  readonly name: string;
  readonly usage: string;
  readonly options: O;
  readonly allowPositionals?: boolean;
  /** A command's own wording for some of its errors (by code); undefined keeps `message (code)`. */
  readonly describe?: (error: KitError) => string | undefined;
  /** Positionals last: most commands take none. Heavy modules are imported inside, so a usage error stays fast. */
  readonly main: (values: Values<O>, io: CliIo, positionals: readonly string[]) => Promise<number>;
}

/**
 * A command from its spec: strict options, `-h/--help`, and the one error printer of the tool. A usage
 * error prints one line and where the options are; any other KitError prints `message (code)`; both exit
 * 2 through `failed`. Anything else is a bug and reaches main.ts.
 */
export function defineCommand<O extends OptionTable>(spec: CommandSpec<O>): DefinedCommand {
  const command: Command = async (argv, io) => {
    try {
      const parsed = parseOptions(argv, { ...spec.options, ...HELP_OPTION }, spec.allowPositionals);
      if ('help' in parsed.values && parsed.values.help === true) {
        io.stdout.write(`${spec.usage}\n`);
        return EXIT_OK;
      }
      return await spec.main(parsed.values, io, parsed.positionals);
    } catch (error) {
      const text = errorText(spec.name, error, spec.describe);
      if (text === undefined) throw error;
      return failed(io, argv, { command: spec.name, text: text.trimEnd(), code: error instanceof KitError ? error.code : undefined });
    }
  };
  return Object.assign(command, { usage: spec.usage, options: { ...spec.options, ...HELP_OPTION } });
}

/** How the tool prints an error it threw on purpose, or undefined for anything else (a bug). */
export function errorText(name: string | undefined, error: unknown, describe?: (error: KitError) => string | undefined): string | undefined {
  if (error instanceof UsageError) return usageErrorText(name, error.message);
  if (!(error instanceof KitError)) return undefined;
  return `${name === undefined ? 'commerce-sim' : `commerce-sim ${name}`}: ${describe?.(error) ?? `${error.message} (${error.code})`}\n`;
}

/**
 * How every exit-2 failure ends: its text on stderr; under GitHub Actions (or `--reporter github`) also a
 * `::error` workflow command, and with `$GITHUB_STEP_SUMMARY` set a job-summary section saying what went
 * wrong and what to do. The `::error` goes to stderr too (the runner reads workflow commands on both), so
 * stdout stays what the command promised (`--json`).
 */
export async function failed(io: CliIo, argv: readonly string[], failure: Failure): Promise<number> {
  io.stderr.write(`${failure.text}\n`);
  if (reporterFor(reporterArgument(argv), io.env) === 'github') io.stderr.write(`${failureAnnotation(failure)}\n`);
  const summary = io.env['GITHUB_STEP_SUMMARY'];
  if (summary !== undefined && summary !== '') {
    // The failure is the news: a summary file that cannot be written is said, never put in its place.
    await appendFile(resolve(io.cwd, summary), failureSummary(failure), 'utf8').catch((error: unknown) => {
      io.stderr.write(`commerce-sim: cannot append to $GITHUB_STEP_SUMMARY: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  }
  return EXIT_USAGE;
}
