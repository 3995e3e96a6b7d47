/**
 * The one JSON scanner: the characters JSON's grammar marks, and the walk over its tokens (whitespace,
 * strings with their escapes, scalars) in a text or its UTF-8 bytes, with no parse and no allocation.
 * Its users keep their own jobs: engine/json-shape.ts measures a body before it is parsed,
 * store/json-steps.ts parses a restore as steps, traffic/har/split.ts cuts a HAR's entries out of its
 * bytes as they stream in. Containers are theirs to follow (each counts them for its own end); the
 * scanner gives each bracket its name.
 *
 * Text and bytes read alike: every character the grammar marks is ASCII, and no byte of a multi-byte
 * UTF-8 character is, so an index where the scanner stops is between characters in either.
 * Every walk takes the index it starts at and the index it may not pass (a chunk's end, a limit), and
 * leaves judging (is it valid, is it too long) to its caller.
 */

/** A JSON text: a string (read as UTF-16 code units) or its UTF-8 bytes. */
export type JsonText = string | Uint8Array;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
/**
 * The characters the grammar marks, by code. A user's hot loop takes its own copies
 * (`const { QUOTE, ... } = JSON_MARKS;` at the top of its module): V8 checks an imported binding on
 * every read, which a loop over every character of a body feels (json-shape measured 15% slower).
 */
export const JSON_MARKS = { QUOTE, BACKSLASH, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY, COMMA, COLON } as const;
/** The last control character: JSON forbids U+0000 to U+001F unescaped in a string. */
const LAST_CONTROL = 0x1f;
/** The bytes that end a string's plain run: a quote, a backslash, a control character. */
const STRING_STOPS = new Uint8Array(256);
STRING_STOPS.fill(1, 0, LAST_CONTROL + 1);
STRING_STOPS[QUOTE] = 1;
STRING_STOPS[BACKSLASH] = 1;

/** JSON's own whitespace: space, tab, line feed, carriage return (no other control character). */
export const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The bytes that end a scalar (a number, `true`, `false`, `null`): a delimiter, whitespace, a quote, a bracket. */
const SCALAR_ENDS = new Uint8Array(256);
for (const c of [COMMA, CLOSE_ARRAY, CLOSE_OBJECT, COLON, 0x20, 0x0a, 0x0d, 0x09, QUOTE, OPEN_ARRAY, OPEN_OBJECT]) SCALAR_ENDS[c] = 1;

/** The code unit (or byte) at `i`; NaN past the end, as `charCodeAt` gives. */
export function codeAt(text: JsonText, i: number): number {
  if (typeof text === 'string') return text.charCodeAt(i);
  return i < text.length ? (text[i] as number) : NaN;
}

/** The first index from `from` that is not JSON whitespace, or `end`. */
export function skipSpace(text: JsonText, from: number, end: number): number {
  let i = from;
  if (typeof text === 'string') {
    while (i < end && isJsonSpace(text.charCodeAt(i))) i++;
  } else {
    while (i < end && isJsonSpace(text[i] as number)) i++;
  }
  return i;
}

/**
 * Reads a string's characters from `from` (just past its opening quote, or anywhere inside it) towards
 * `end`, a backslash taking the unit after it whatever it is: the index of the closing quote, or of the
 * first control character (forbidden there: a caller that judges stops at it, `stringClose` reads on).
 * Neither before `end`: `end`, or `end + 1` when the last unit is a backslash whose escaped unit lies past
 * `end` (a chunk cut inside an escape), or `from` when it is past `end`.
 */
export function stringEnd(text: JsonText, from: number, end: number): number {
  let i = from;
  if (typeof text === 'string') {
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c > BACKSLASH) continue; // most characters: one test
      if (c === QUOTE || c <= LAST_CONTROL) return i;
      if (c === BACKSLASH) i++;
    }
  } else {
    for (; i < end; i++) {
      const c = text[i] as number;
      if (STRING_STOPS[c] === 0) continue; // most bytes: one look-up
      if (c !== BACKSLASH) return i;
      i++;
    }
  }
  return i;
}

/** As `stringEnd`, reading past control characters: the closing quote's index, or `end` (`end + 1` in an escape) when it is not before `end`. */
export function stringClose(text: JsonText, from: number, end: number): number {
  let i = stringEnd(text, from, end);
  while (i < end && codeAt(text, i) !== QUOTE) i = stringEnd(text, i + 1, end);
  return i;
}

/**
 * The end of the scalar whose characters run from `from`: the first delimiter (`,` `:` a bracket),
 * whitespace or quote, or `end` (its grammar is the parser's to judge).
 */
export function scalarEnd(text: JsonText, from: number, end: number): number {
  let i = from;
  if (typeof text === 'string') {
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c <= CLOSE_OBJECT && SCALAR_ENDS[c] === 1) break;
    }
  } else {
    while (i < end && SCALAR_ENDS[text[i] as number] === 0) i++;
  }
  return i;
}
