/**
 * Query decoding (engine/query.ts): keys and values without escapes or `+` are taken as they are (the
 * common case, on every request), the rest decoded as before; either way the same pairs.
 */
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/engine/query.js';

const pairs = (raw: string) => {
  const q = parseQuery(raw);
  if (!q.ok) throw new Error('refused');
  return q.value.pairs;
};

describe('parseQuery', () => {
  it('takes plain keys and values as they are', () => {
    expect(pairs('page[limit]=25&page[offset]=100')).toEqual([
      ['page[limit]', '25'],
      ['page[offset]', '100'],
    ]);
    expect(pairs('sort=-created_at&filter=gt(id,00ab):like(name,*x*)')).toEqual([
      ['sort', '-created_at'],
      ['filter', 'gt(id,00ab):like(name,*x*)'],
    ]);
  });

  it('decodes escapes and a raw + as before', () => {
    expect(pairs('page%5Blimit%5D=5&filter=eq(name,a+b%2Bc)')).toEqual([
      ['page[limit]', '5'],
      ['filter', 'eq(name,a b+c)'],
    ]);
    expect(pairs('filter=eq(name,%C3%A9)')).toEqual([['filter', 'eq(name,é)']]);
  });

  it('decodes every plain text to itself, as decodeURIComponent does', () => {
    for (const text of ['abc', 'a[b]', '(x,y):z', '*', 'é', '\u{1F600}', '']) expect(pairs(`k=${text}`)).toEqual([['k', decodeURIComponent(text)]]);
  });

  it('still refuses malformed escapes', () => {
    expect(parseQuery('filter=%E0%A4%A').ok).toBe(false);
    expect(parseQuery('a%ZZ=1').ok).toBe(false);
  });
});
