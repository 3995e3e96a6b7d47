/** What a command may touch of the process: passed in, so commands can be tested without spawning. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** Exit codes of every command: 0 every documented rule holds; 1 a documented rule fails; 2 usage or target error. */
export const EXIT_OK = 0;
export const EXIT_RULE_FAILED = 1;
export const EXIT_USAGE = 2;

export type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

export { UsageError } from '../kit-errors.js';

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
