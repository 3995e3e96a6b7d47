/** RFC 4180: quoting only where needed, doubled quotes, CRLF rows; a parser that reads back what is written. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvRow, parseCsv } from '../../src/client/csv.js';
import { accountRow, ACCOUNT_COLUMNS } from '../../src/client/export.js';

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['"', '""""'],
    ['line\nbreak', '"line\nbreak"'],
    ['cr\rhere', '"cr\rhere"'],
    ['crlf\r\n', '"crlf\r\n"'],
    [' padded ', ' padded '],
    ['Zürich Straße 北京 🚀', 'Zürich Straße 北京 🚀'],
    ['Ünïcode, with comma', '"Ünïcode, with comma"'],
  ])('%j → %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('null and undefined are empty fields', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvRow([null, 'a', undefined])).toBe(',a,\r\n');
  });
});

describe('csvRow and parseCsv', () => {
  it('rows end in CRLF', () => {
    expect(csvRow(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });

  it('reads back any rows written, whatever the characters', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'Z', ',', '"', '\r', '\n', ' ', 'é', '北', '🚀', "'"), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 6 }), (rows) => {
        expect(parseCsv(rows.map((r) => csvRow(r)).join(''))).toEqual(rows);
      }),
      { seed: 4180, numRuns: 300 },
    );
  });

  it('accepts LF line ends and a missing final line end; refuses an unclosed quote', () => {
    expect(parseCsv('a,b\nc,"d\ne"')).toEqual([
      ['a', 'b'],
      ['c', 'd\ne'],
    ]);
    expect(() => parseCsv('a,"b')).toThrow(SyntaxError);
  });
});

describe('accountRow', () => {
  it('writes name, legal name, registration id, id in that order; a missing registration id is empty', () => {
    expect(ACCOUNT_COLUMNS).toEqual(['name', 'legal_name', 'registration_id', 'id']);
    const row = accountRow({ id: 'acc-1', name: 'Acme, "The" Co', legal_name: 'Acme\nLtd', registration_id: null, type: 'account' });
    expect(row).toBe('"Acme, ""The"" Co","Acme\nLtd",,acc-1\r\n');
    expect(parseCsv(row)).toEqual([['Acme, "The" Co', 'Acme\nLtd', '', 'acc-1']]);
  });
});
