#!/usr/bin/env node
/** The `commerce-sim` command: dispatches to one module per sub-command, loaded lazily so start-up stays fast. */
import { processIo, EXIT_USAGE } from './io.js';
import { errorText, failed, usageErrorText } from './command.js';
import { KitError } from '../kit-errors.js';
import { commands } from './registry.js';
import { exitQuietlyOnBrokenPipe } from './broken-pipe.js';

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return ['usage: commerce-sim <command> [options]', '', 'commands:', ...lines, '', 'Run `commerce-sim <command> --help` for its options, `commerce-sim --version` for the version.'].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const io = processIo();
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    const { packageVersion } = await import('./run-meta.js');
    io.stdout.write(`commerce-sim ${await packageVersion()}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage() + '\n');
    return name === undefined ? EXIT_USAGE : 0;
  }
  const entry = commands[name];
  if (entry === undefined) return failed(io, rest, { command: undefined, text: usageErrorText(undefined, `unknown command '${name}'`).trimEnd(), code: 'CLI_USAGE' });
  if (name === 'serve' && !rest.includes('--help') && !rest.includes('-h')) {
    // The served simulator's heap is chosen when its process starts: a child started with it serves (./serve-child.ts).
    const heap = await import('./serve-child.js');
    if (heap.needsServedHeap() && process.argv[1] !== undefined) return await heap.serveInChild(process.argv[1], rest);
  }
  try {
    const command = await entry.load();
    return await command(rest, io);
  } catch (error) {
    const text = errorText(name, error);
    if (text === undefined) {
      // A bug: said as plainly as the tool's own errors, and as visibly under GitHub Actions.
      const err = error instanceof Error ? error : new Error(String(error));
      const code = 'code' in err && typeof err.code === 'string' ? err.code : undefined;
      return failed(io, rest, { command: name, text: `commerce-sim: ${err.message}${code === undefined ? '' : ` (${code})`}`, code: undefined });
    }
    return failed(io, rest, { command: name, text: text.trimEnd(), code: error instanceof KitError ? error.code : undefined });
  }
}

// Once for every command: nothing after a closed pipe (`| head`) is worth running for, nor printing.
exitQuietlyOnBrokenPipe(process.stdout, (code) => process.exit(code));

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const err = error instanceof Error ? error : new Error(String(error));
    process.stderr.write(`commerce-sim: ${err.message}\n`);
    process.exitCode = EXIT_USAGE;
  },
);
