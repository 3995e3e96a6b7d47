import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { usernames } from '../../src/properties/usernames.js';

describe('usernames', () => {
  it('never gives the same username twice in a run, whatever is drawn (shrinking re-draws the same ones)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('a', 'a@x.example', 'a~1', 'a+1@x.example'), fc.string()), { maxLength: 40 }), fc.constantFrom('', 'n1.'), (drawn, nonce) => {
        const names = usernames(nonce);
        const sent = drawn.map((d) => names.fresh(d));
        expect(new Set(sent).size).toBe(sent.length);
      }),
    );
  });

  it('against the simulator sends a username as drawn the first time; a repeat is tagged, an e-mail before its @', () => {
    const names = usernames('');
    expect(names.fresh('kit@example.com')).toBe('kit@example.com');
    expect(names.fresh('kit@example.com')).toBe('kit+1@example.com');
    expect(names.fresh('kit')).toBe('kit');
    expect(names.fresh('kit')).toBe('kit~2');
  });

  it('against a URL tags every username with the run nonce: records outlive the run there', () => {
    const names = usernames('lz1.');
    expect(names.fresh('kit@example.com')).toBe('kit+lz1.1@example.com');
    expect(names.fresh('other')).toBe('other~lz1.2');
  });

  it('never holds the password it is sent with (an echo would read as a leak)', () => {
    const names = usernames('');
    names.fresh('p');
    expect(names.fresh('p', '1')).not.toContain('1');
  });
});
