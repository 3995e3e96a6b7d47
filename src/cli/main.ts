#!/usr/bin/env node
/** The `commerce-sim` command: dispatches to one module per sub-command, loaded lazily so start-up stays fast. */
import { processIo, EXIT_USAGE, type Command } from './io.js';
import { errorText, usageErrorText } from './command.js';

const commands: Readonly<Record<string, { summary: string; load: () => Promise<Command> }>> = {
  serve: { summary: 'run the simulator over HTTP', load: async () => (await import('./serve.js')).serve },
  run: { summary: 'run YAML scenarios against sim or a base URL', load: async () => (await import('./run.js')).run },
  props: { summary: 'run the property suites against sim or a base URL', load: async () => (await import('./props.js')).props },
  fixtures: { summary: 'write byte-stable fixtures', load: async () => (await import('./fixtures.js')).fixtures },
  record: { summary: 'record read-only exchanges from a live deployment', load: async () => (await import('./record.js')).record },
  diff: { summary: 'compare two targets or recordings rule by rule', load: async () => (await import('./diff.js')).diff },
  export: { summary: 'export accounts to CSV with the keyset pattern', load: async () => (await import('./export.js')).exportCommand },
  mutation: { summary: 'prove the suite catches every deviation of the simulator', load: async () => (await import('./mutation.js')).mutation },
  rules: { summary: 'print the rule catalogue', load: async () => (await import('./rules.js')).rules },
  readings: { summary: 'print the points the document leaves open and their conforming answers', load: async () => (await import('./readings.js')).readings },
  openapi: { summary: 'print an OpenAPI 3.1 document of the simulated surface', load: async () => (await import('./openapi.js')).openapi },
  report: { summary: 'merge the reports of sharded runs into one (report merge DIR...)', load: async () => (await import('./report.js')).report },
};

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
  if (entry === undefined) {
    io.stderr.write(usageErrorText(undefined, `unknown command '${name}'`));
    return EXIT_USAGE;
  }
  try {
    const command = await entry.load();
    return await command(rest, io);
  } catch (error) {
    const text = errorText(name, error);
    if (text === undefined) throw error;
    io.stderr.write(text);
    return EXIT_USAGE;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const err = error instanceof Error ? error : new Error(String(error));
    const code = 'code' in err && typeof err.code === 'string' ? err.code : undefined;
    process.stderr.write(`commerce-sim: ${err.message}${code === undefined ? '' : ` (${code})`}\n`);
    process.exitCode = EXIT_USAGE;
  },
);
