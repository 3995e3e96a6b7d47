/**
 * Every command's bad option or value is one line naming it, then where the options are, exit 2; and
 * every option a command accepts is in its --help. The commands come from the CLI's own registry, so a
 * new command is held to both without editing this file.
 */
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/registry.js';
import { captureIo } from '../support/cli-io.js';

const names = Object.keys(commands);

async function call(name: string, argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const entry = commands[name];
  if (entry === undefined) throw new Error(`no command ${name}`);
  const command = await entry.load();
  const c = captureIo();
  const code = await command(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

async function optionsOf(name: string) {
  const entry = commands[name];
  if (entry === undefined) throw new Error(`no command ${name}`);
  return Object.entries((await entry.load()).options);
}

/** One line: `commerce-sim NAME: <message> (see commerce-sim NAME --help)`. */
const oneLine = (name: string, message: string) => `commerce-sim ${name}: ${message} (see commerce-sim ${name} --help)\n`;

describe('usage errors', () => {
  it('the registry lists every command', () => {
    expect(names).toEqual(expect.arrayContaining(['serve', 'run', 'props', 'openapi']));
  });

  it.each(names)('%s: an unknown option is one line naming it, exit 2', async (name) => {
    const r = await call(name, ['--bogus']);
    expect(r).toEqual({ code: 2, out: '', err: oneLine(name, 'unknown option --bogus') });
  });

  it.each(names)('%s: a value option without its value is one line naming it, exit 2', async (name) => {
    for (const [option, spec] of await optionsOf(name)) {
      if (spec.type !== 'string') continue;
      expect(await call(name, [`--${option}`])).toEqual({ code: 2, out: '', err: oneLine(name, `--${option} needs a value`) });
      const r = await call(name, [`--${option}`, '-1']);
      expect(r.code).toBe(2);
      expect(r.err).toBe(oneLine(name, `--${option} needs a value, and '-1' looks like an option (write --${option}=-1 to pass it as the value)`));
    }
  });

  it.each(names)('%s: a switch given a value is one line naming it, exit 2', async (name) => {
    for (const [option, spec] of await optionsOf(name)) {
      if (spec.type !== 'boolean') continue;
      expect(await call(name, [`--${option}=yes`])).toEqual({ code: 2, out: '', err: oneLine(name, `--${option} takes no value`) });
    }
  });

  it('props --runs -1 and run --bogus, the reported cases', async () => {
    expect((await call('props', ['--runs', '-1'])).err).toBe(oneLine('props', "--runs needs a value, and '-1' looks like an option (write --runs=-1 to pass it as the value)"));
    expect((await call('props', ['--runs=-1'])).err).toMatch(/^commerce-sim props: --runs takes a whole number from 1 to [\d,]+ .*\(see commerce-sim props --help\)\n$/);
    expect((await call('run', ['--bogus'])).err).toBe('commerce-sim run: unknown option --bogus (see commerce-sim run --help)\n');
  });

  it('a stray argument to a command that takes none is one line', async () => {
    expect((await call('rules', ['stray'])).err).toBe(oneLine('rules', "unexpected argument 'stray' (this command takes options only)"));
    expect((await call('rules', ["it's, here"])).err).toBe(oneLine('rules', "unexpected argument 'it's, here' (this command takes options only)"));
  });
});

describe('--help', () => {
  it.each(names)('%s: every option it accepts is in its help', async (name) => {
    const help = (await call(name, ['--help'])).out;
    const missing = (await optionsOf(name)).map(([option]) => `--${option}`).filter((flag) => !new RegExp(`${flag}(?![\\w-])`).test(help));
    expect(missing).toEqual([]);
  });
});
