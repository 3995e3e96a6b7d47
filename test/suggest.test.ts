import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, suggest } from '../src/suggest.js';

describe('did you mean', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('requets', 'request')).toBe(1);
    expect(editDistance('expcet', 'expect')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('suggests the nearest allowed word, and nothing when none is near', () => {
    const keys = ['name', 'role', 'restores', 'rules', 'request', 'expect', 'capture', 'sequence', 'walk'];
    expect(suggest('requets', keys)).toBe('request');
    expect(suggest('Expect', keys)).toBe('expect');
    expect(suggest('retry', keys)).toBeUndefined();
    expect(suggest('x', keys)).toBeUndefined();
    expect(didYouMean('tokn_env', ['vars', 'token_env'])).toBe(" (did you mean 'token_env'?)");
    expect(didYouMean('bogus', ['vars', 'token_env'])).toBe('');
  });
});
