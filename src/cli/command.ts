/**
 * The plumbing every command shares: strict option parsing (its errors become usage errors),
 * `-h/--help`, and for the commands that report their own failures, the message and exit 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT_OK, EXIT_USAGE, UsageError, type CliIo, type Command } from './io.js';

export type OptionTable = NonNullable<ParseArgsConfig['options']>;
type Strict<O extends OptionTable> = { args: string[]; options: O; strict: true; allowPositionals: boolean };
/** The values of an option table as node:util types them: a string, boolean or array per option, each optional. */
export type Values<O extends OptionTable> = ReturnType<typeof parseArgs<Strict<O>>>['values'];

export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

export function parseOptions<O extends OptionTable>(argv: readonly string[], options: O, allowPositionals = false): { values: Values<O>; positionals: readonly string[] } {
  try {
    return parseArgs<Strict<O>>({ args: [...argv], options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** An error class with a stable `code` (TargetError, ScenarioError, ...). */
export type CodedError = abstract new (...args: never[]) => Error & { readonly code: string };

/** Every usage error, of every command: one line, then where the options are. Exit 2. */
export function usageErrorText(name: string | undefined, message: string): string {
  const command = name === undefined ? 'commerce-sim' : `commerce-sim ${name}`;
  return `${command}: ${message}\nsee \`${command} --help\`\n`;
}

export interface Failures {
  /** Printed as `message (code)`, exit 2; anything else is a bug and is thrown. */
  readonly errors: readonly CodedError[];
  /** A command's own wording for some of them; undefined keeps the default. */
  readonly describe?: (error: Error & { readonly code: string }) => string | undefined;
}

export interface CommandSpec<O extends OptionTable> {
  readonly name: string;
  readonly usage: string;
  readonly options: O;
  readonly allowPositionals?: boolean;
  /** Without it every error reaches main.ts, which prints it as one line (and callers in tests see the throw). */
  readonly failures?: Failures;
  /** Positionals last: most commands take none. */
  readonly main: (values: Values<O>, io: CliIo, positionals: readonly string[]) => Promise<number>;
}

export function defineCommand<O extends OptionTable>(spec: CommandSpec<O>): Command {
  const command: Command = async (argv, io) => {
    const parsed = parseOptions(argv, { ...spec.options, ...HELP_OPTION }, spec.allowPositionals);
    if ('help' in parsed.values && parsed.values.help === true) {
      io.stdout.write(`${spec.usage}\n`);
      return EXIT_OK;
    }
    return spec.main(parsed.values, io, parsed.positionals);
  };
  const { failures } = spec;
  return failures === undefined ? command : guard(spec.name, spec.usage, failures, command);
}

/** Runs a command, printing usage and known errors as `commerce-sim <name>: ...` with exit 2. */
export function guard(name: string, usage: string, failures: Failures, command: Command): Command {
  return async (argv, io) => {
    try {
      return await command(argv, io);
    } catch (error) {
      const prefix = `commerce-sim ${name}: `;
      if (error instanceof UsageError) {
        io.stderr.write(usageErrorText(name, error.message));
        return EXIT_USAGE;
      }
      for (const known of failures.errors) {
        if (!(error instanceof known)) continue;
        io.stderr.write(`${prefix}${failures.describe?.(error) ?? `${error.message} (${error.code})`}\n`);
        return EXIT_USAGE;
      }
      throw error;
    }
  };
}
