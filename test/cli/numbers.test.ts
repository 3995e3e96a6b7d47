import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/kit-errors.js';
import { positiveOption, wholeOption, wholeValue } from '../../src/numbers.js';

describe('the one reader of number options', () => {
  it('takes whole numbers within bounds, typed or passed', () => {
    expect(wholeOption('--concurrency', '4', 1, 8)).toBe(4);
    expect(wholeOption('--concurrency', undefined, 1, 8)).toBeUndefined();
    expect(wholeValue('port', 80, 0, 65_535)).toBe(80);
    expect(wholeValue('port', undefined, 0, 65_535)).toBeUndefined();
  });

  it('refuses anything else in one shape, naming the option, its bounds and what came', () => {
    expect(() => wholeOption('--concurrency', '9', 1, 8)).toThrow("--concurrency takes a whole number from 1 to 8, got '9'");
    expect(() => wholeOption('--budget', '1.5', 1, 10)).toThrow(UsageError);
    expect(() => wholeOption('--seed', 'x', 0, 10)).toThrow("--seed takes a whole number from 0 to 10, got 'x'");
    expect(() => wholeValue('port', 5.5, 0, 65_535)).toThrow('port takes a whole number from 0 to 65535, got 5.5');
    expect(() => wholeValue('port', '80', 0, 65_535)).toThrow("port takes a whole number from 0 to 65535, got '80'");
    expect(() => wholeValue('timeoutMs', null, 1, 10)).toThrow('timeoutMs takes a whole number from 1 to 10, got null');
  });

  it('takes positive numbers', () => {
    expect(positiveOption('--rps', '0.5')).toBe(0.5);
    expect(positiveOption('--rps', undefined)).toBeUndefined();
    expect(() => positiveOption('--rps', '0')).toThrow("--rps takes a number above 0, got '0'");
    expect(() => positiveOption('--rps', ' ')).toThrow(UsageError);
  });
});
