/**
 * Colour for the terminal: on a TTY unless NO_COLOR is set (https://no-color.org), always when
 * FORCE_COLOR is set to anything but 0 (CI logs that render ANSI), never on a dumb terminal.
 */
import type { CliIo } from './io.js';

export interface Style {
  readonly pass: (text: string) => string;
  readonly fail: (text: string) => string;
  readonly warn: (text: string) => string;
  readonly dim: (text: string) => string;
}

const paint = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string) => text;

export function colourWanted(stream: { isTTY?: boolean }, env: CliIo['env']): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

export function styleFor(stream: { isTTY?: boolean }, env: CliIo['env']): Style {
  if (!colourWanted(stream, env)) return { pass: plain, fail: plain, warn: plain, dim: plain };
  return { pass: paint(32, 39), fail: paint(31, 39), warn: paint(33, 39), dim: paint(2, 22) };
}

/** `--reporter`: the summary alone, or with GitHub annotations (also chosen by GITHUB_ACTIONS=true). */
export type Reporter = 'summary' | 'github';
export const REPORTERS: readonly Reporter[] = ['summary', 'github'];

export function reporterFor(value: string | undefined, env: CliIo['env']): Reporter | undefined {
  if (value === undefined) return env['GITHUB_ACTIONS'] === 'true' ? 'github' : 'summary';
  return REPORTERS.find((r) => r === value);
}
