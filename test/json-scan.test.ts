/**
 * The one JSON scanner (src/json-scan.ts) finds the tokens a JSON text is written with, the same in the
 * text and in its UTF-8 bytes, and a string's end the same however the text is cut into chunks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_MARKS, codeAt, scalarEnd, skipSpace, stringClose, stringEnd, type JsonText } from '../src/json-scan.js';

const { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = JSON_MARKS;
const MARKS = new Set<number>([OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT, COMMA, COLON]);
const encode = (s: string) => new TextEncoder().encode(s);
const text = (source: JsonText, start: number, end: number) => (typeof source === 'string' ? source.slice(start, end) : new TextDecoder().decode(source.subarray(start, end)));

/** The tokens the scanner reads in `source`, as text. */
function tokens(source: JsonText): string[] {
  const out: string[] = [];
  const n = source.length;
  for (let i = skipSpace(source, 0, n); i < n;) {
    const c = codeAt(source, i);
    const end = c === QUOTE ? stringClose(source, i + 1, n) + 1 : MARKS.has(c) ? i + 1 : scalarEnd(source, i + 1, n);
    out.push(text(source, i, end));
    i = skipSpace(source, end, n);
  }
  return out;
}

/** A string as JSON writes it, any character (escapes, controls as \u00XX, astral, non-ASCII raw). */
const jsonString = fc.string({ unit: 'binary', maxLength: 12 }).map((s) => JSON.stringify(s));
const scalar = fc.oneof(
  fc.constantFrom('true', 'false', 'null', '0', '-0', '1e3', '-12.5E-2'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);

/** The tokens of a JSON value. */
const valueTokens: fc.Arbitrary<string[]> = fc.letrec<{ value: string[] }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar.map((s) => [s]),
    jsonString.map((s) => [s]),
    fc.array(tie('value'), { maxLength: 4 }).map((xs) => ['[', ...xs.flatMap((x, k) => (k === 0 ? x : [',', ...x])), ']']),
    fc.array(fc.tuple(jsonString, tie('value')), { maxLength: 4 }).map((ms) => ['{', ...ms.flatMap(([key, v], k) => [...(k === 0 ? [] : [',']), key, ':', ...v]), '}']),
  ),
})).value;

/** The tokens written out with JSON whitespace (some or none) between each two. */
const spaced = valueTokens.chain((ts) =>
  fc.array(fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 2 }), { minLength: ts.length + 1, maxLength: ts.length + 1 }).map((gaps) => ({
    tokens: ts,
    text: ts.map((t, k) => `${gaps[k] ?? ''}${t}`).join('') + (gaps[ts.length] ?? ''),
  })),
);

describe('the JSON scanner', () => {
  it('reads the tokens a text is written with, in the text and in its UTF-8 bytes', () => {
    fc.assert(
      fc.property(spaced, ({ tokens: written, text: source }) => {
        expect(tokens(source)).toEqual(written);
        expect(tokens(encode(source))).toEqual(written);
      }),
    );
  });

  it("finds a string's end the same when its text comes in chunks (a cut inside an escape carried over)", () => {
    fc.assert(
      fc.property(jsonString, fc.array(fc.nat(), { maxLength: 4 }), (written, cuts) => {
        const bytes = encode(`${written},`);
        const whole = stringEnd(bytes, 1, bytes.length);
        const bounds = [...new Set(cuts.map((c) => 1 + (c % bytes.length)))].sort((a, b) => a - b);
        let i = 1;
        let found = -1;
        for (const end of [...bounds, bytes.length]) {
          if (i >= end) continue;
          const j = stringEnd(bytes, i, end);
          if (j < end) {
            found = j;
            break;
          }
          i = j; // end, or end + 1 past an escaped unit
        }
        expect(found).toBe(whole);
        expect(codeAt(bytes, whole)).toBe(QUOTE);
      }),
    );
  });

  it('stops at a control character in a string, which stringClose reads past', () => {
    const source = '"a\\\n\tb"';
    expect(stringEnd(source, 1, source.length)).toBe(4); // the escaped line feed is read over, the tab is not
    expect(stringClose(source, 1, source.length)).toBe(6);
    expect(stringEnd(encode(source), 1, source.length)).toBe(4);
  });

  it('says where a string or scalar is cut: the end, or one past it inside an escape', () => {
    expect(stringEnd('"ab', 1, 3)).toBe(3);
    expect(stringEnd('"a\\', 1, 3)).toBe(4);
    expect(scalarEnd('123', 0, 3)).toBe(3);
    expect(scalarEnd('12]', 0, 3)).toBe(2);
  });
});
