/**
 * node:util's parseArgs errors as one line naming the bad option or value. Its own messages span several
 * lines and speak of positionals and `--` to people who only mistyped a flag; the error codes are stable,
 * the wording is not, so only the quoted option name is taken from the message.
 */
import type { ParseArgsConfig } from 'node:util';

/** A command's option table, as node:util's parseArgs takes it (command.ts re-exports it). */
export type OptionTable = NonNullable<ParseArgsConfig['options']>;

/** The first quoted name in a parseArgs message, long form preferred (`'-j, --json'` → `--json`). */
function quotedOption(message: string): string | undefined {
  const quoted = /'([^']*)'/.exec(message)?.[1];
  if (quoted === undefined) return undefined;
  const names = quoted.replace(/ <value>$/, '').split(', ');
  return names[names.length - 1];
}

/** The argument after `flag` on the command line (the value parseArgs refused to take), if any. */
function argumentAfter(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at === -1 ? undefined : argv[at + 1];
}

/** One line for a parseArgs error; the first line of the message for anything it does not know. */
export function parseErrorMessage(error: unknown, argv: readonly string[], options: OptionTable): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  const name = quotedOption(message);
  const firstLine = message.split('\n')[0] ?? message;
  if (name === undefined) return firstLine;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${name}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      // The whole argument, which may itself hold quotes or commas.
      const argument = /^Unexpected argument '([\s\S]*)'\. /.exec(message)?.[1] ?? name;
      return `unexpected argument '${argument}' (this command takes options only)`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const long = name.replace(/^--/, '');
      if (options[long]?.type === 'boolean') return `${name} takes no value`;
      const next = argumentAfter(argv, name);
      // `--runs -1`: parseArgs will not take a value that looks like an option; say how to pass it.
      if (next !== undefined && next.startsWith('-')) return `${name} needs a value, and '${next}' looks like an option (write ${name}=${next} to pass it as the value)`;
      return `${name} needs a value`;
    }
    default:
      return firstLine;
  }
}
