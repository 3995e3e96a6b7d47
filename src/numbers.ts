/**
 * The one reader of number options: a command's flag as it was typed (`--port 80`) or a library's
 * option as it was passed (`{ port: 80 }`). Every refusal has one shape, `NAME takes ..., got VALUE`,
 * and is a usage error (exit 2 from the CLI).
 */
import { UsageError } from './kit-errors.js';

/** What came, as a refusal shows it: text in quotes, anything else as JSON. */
const shown = (given: unknown): string => (typeof given === 'string' ? `'${given}'` : JSON.stringify(given));

function whole(name: string, n: unknown, given: unknown, min: number, max: number): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max) throw new UsageError('CLI_USAGE', `${name} takes a whole number from ${min} to ${max}, got ${shown(given)}`);
  return n;
}

/** A typed whole number from `min` to `max`, undefined when not given, else a usage error naming the flag. */
export function wholeOption(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  return whole(name, /^-?\d+$/.test(text.trim()) ? Number(text) : Number.NaN, text, min, max);
}

/** A passed whole number from `min` to `max` (not text), undefined when not given, else a usage error naming the option. */
export function wholeValue(name: string, value: unknown, min: number, max: number): number | undefined {
  return value === undefined ? undefined : whole(name, value, value, min, max);
}

/** A typed number above 0 (`--rps 0.5`), undefined when not given, else a usage error naming the flag. */
export function positiveOption(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError('CLI_USAGE', `${name} takes a number above 0, got ${shown(text)}`);
  return n;
}
