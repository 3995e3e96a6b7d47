/**
 * JSON text parsed as steps (steps.ts): the value `JSON.parse` would build, a few thousand values or a
 * few hundred kilobytes of text a step, so a body of hundreds of megabytes is parsed between other
 * requests instead of in one blocking call. The containers are walked here, over the tokens the JSON
 * scanner (src/json-scan.ts) finds; every scalar, and every element of a watched array whole, is
 * decoded by `JSON.parse` of its own slice of the text, so escapes, numbers and `__proto__` members
 * mean exactly what they mean to `JSON.parse`.
 *
 * The shape limits of engine/json-shape.ts are counted as the text is read (the same count), and a
 * `JsonWatch` may refuse the text at the first array that grows past what it may hold: a body that will
 * be refused is refused where that shows, not after the whole of it is parsed.
 */
import type { ShapeLimits } from '../engine/json-shape.js';
import type { Steps } from './steps.js';
import { JSON_MARKS, codeAt, isJsonSpace, scalarEnd, skipSpace, stringEnd, type JsonText } from '../json-scan.js';

const { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = JSON_MARKS;

export interface JsonStepsLimits extends ShapeLimits {
  /** Longest string, as written (quotes and escapes included). */
  readonly maxStringChars: number;
  /** Longest number, as written. */
  readonly maxNumberChars: number;
}

/** Member names and element indexes from the root to a value. */
export type JsonPath = readonly (string | number)[];

/**
 * A watched array (a list of records): how many elements it may hold, each parsed whole by one
 * `JSON.parse` of its slice and holding at most `elementValues` values.
 */
export interface ArrayWatch<P> {
  /** Elements it may hold; the next one is refused with `past()`. */
  readonly cap: number;
  /** Values one element may hold (as engine/json-shape.ts counts them, the element itself included); past it, `heavy(index)`. */
  readonly elementValues: number;
  past(): P;
  heavy(index: number): P;
  /** It closed with `length` elements. */
  closed(length: number): void;
}

/**
 * Hooks into the parse (all rare events): arrays as they open, the root object's members once read,
 * and values outside every watched array, so a watcher can refuse the text early with its own problem.
 */
export interface JsonWatch<P> {
  /** An array opens at `path`, outside any watched one: watched, refused now (a problem), or neither. */
  array(path: JsonPath): ArrayWatch<P> | { readonly refuse: P } | undefined;
  /** An object opens at `path` within two levels of the root (a project, say): a problem refuses the text now. */
  object(path: JsonPath): P | undefined;
  /** A member of the root object is read whole. */
  member(key: string, value: unknown): void;
  /** `count` values so far outside every watched array (and not the watched arrays themselves): a problem past what may be. */
  outside(count: number): P | undefined;
}

type JsonStepsProblem<P> =
  | { readonly kind: 'depth'; readonly limit: number }
  | { readonly kind: 'values'; readonly limit: number }
  | { readonly kind: 'string'; readonly limit: number }
  | { readonly kind: 'number'; readonly limit: number }
  | { readonly kind: 'syntax' }
  | { readonly kind: 'watch'; readonly problem: P };

/** The value, or why the text is refused; `examined`: characters read (a refusal reads the text up to where it shows). */
export type JsonStepsResult<P> = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: JsonStepsProblem<P>; readonly examined: number };

/** Values between steps, and characters between steps (long strings of elements count by their text): about 280 records of a snapshot, well under a millisecond. */
const STEP_VALUES = 1024;
const STEP_CHARS = 1 << 16;

class Stop {
  constructor(readonly problem: JsonStepsProblem<never> | { readonly kind: 'watch'; readonly problem: unknown }) {}
}

interface Frame {
  readonly container: Record<string, unknown> | unknown[];
  readonly isArray: boolean;
  /** The member being read (objects) or the next index (arrays). */
  key: string | number;
}

/** Set a member as JSON.parse does: an own data property, `__proto__` included. */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/**
 * A slice of the text as a string. UTF-8 bytes are read as the scanner reads them (json-scan.ts): slices
 * cut only between characters and are decoded one at a time (a body of hundreds of megabytes never
 * becomes one string).
 */
function slicer(source: JsonText): (start: number, end: number) => string {
  if (typeof source === 'string') return (start, end) => source.slice(start, end);
  // A byte order mark stays a character (as in the string a body decodes to): JSON.parse refuses it where it refuses \uFEFF.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return (start, end) => decoder.decode(source.subarray(start, end));
}

/**
 * Parse `source` (text, or its UTF-8 bytes) as JSON, as steps; with `watch`, its hooks may refuse it early. Malformed text is a
 * `syntax` problem wherever JSON.parse would throw, and only there.
 */
export function* parseJsonSteps<P>(source: JsonText, limits: JsonStepsLimits, watch?: JsonWatch<P>): Steps<JsonStepsResult<P>> {
  const n = source.length;
  const slice = slicer(source);
  const code = (i: number): number => codeAt(source, i);
  let i = 0;
  let values = 0;
  let outside = 0;
  let sinceStep = 0;
  let stepAt = 0;
  const stack: Frame[] = [];
  /** The watched array being read, its depth in the stack and its count. */
  let watched: ArrayWatch<P> | undefined;
  let watchedDepth = -1;
  let watchedCount = 0;

  const stop = (problem: JsonStepsProblem<P>): never => {
    throw new Stop(problem as JsonStepsProblem<never>);
  };
  const spaces = () => {
    i = skipSpace(source, i, n);
  };
  const count = (more: number) => {
    values += more;
    if (values > limits.maxValues) stop({ kind: 'values', limit: limits.maxValues });
  };
  const outsideCount = (more: number) => {
    outside += more;
    const problem = watch?.outside(outside);
    if (problem !== undefined) stop({ kind: 'watch', problem });
  };
  /** The end of the string opening at `start` (the index after its closing quote). */
  const stringAt = (start: number): number => {
    const last = Math.min(n, start + limits.maxStringChars);
    const j = stringEnd(source, start + 1, last);
    if (j < last) {
      if (code(j) !== QUOTE) return stop({ kind: 'syntax' }); // a control character
      return j + 1;
    }
    if (last === n) return stop({ kind: 'syntax' });
    return stop({ kind: 'string', limit: limits.maxStringChars });
  };
  const parseSlice = (start: number, end: number): unknown => {
    try {
      return JSON.parse(slice(start, end)) as unknown;
    } catch {
      return stop({ kind: 'syntax' });
    }
  };
  /** A scalar at i (not a container): its value, i moved past it. */
  const scalar = (): unknown => {
    const start = i;
    if (code(i) === QUOTE) {
      i = stringAt(i);
      // Even a plain string is copied out of the text (by JSON.parse): a slice would keep the whole body alive.
      return parseSlice(start, i);
    }
    const last = Math.min(n, start + limits.maxNumberChars + 1);
    i = scalarEnd(source, i, last);
    if (i === start) return stop({ kind: 'syntax' });
    if (i - start > limits.maxNumberChars) return stop({ kind: 'number', limit: limits.maxNumberChars });
    return parseSlice(start, i);
  };
  /** Values the last skipValue counted. */
  let skipped = 0;
  /**
   * The end of the value starting at i, without building it, counting its values and depth as
   * engine/json-shape.ts does (the value itself one, a container one more, and each member or element
   * inside): undefined past `most` values or `chars` characters.
   */
  const skipValue = (depth: number, most: number, chars: number): number | undefined => {
    let j = i;
    const c0 = code(j);
    skipped = 1;
    if (c0 === QUOTE) return stringAt(j);
    if (c0 !== OPEN_OBJECT && c0 !== OPEN_ARRAY) {
      j = scalarEnd(source, j, Math.min(n, i + limits.maxNumberChars + 1));
      if (j - i > limits.maxNumberChars) stop({ kind: 'number', limit: limits.maxNumberChars });
      return j;
    }
    let level = 0;
    let empty = false;
    const last = Math.min(n, i + chars);
    for (; j < last; j++) {
      const c = code(j);
      if (isJsonSpace(c)) continue;
      if (empty && c !== CLOSE_OBJECT && c !== CLOSE_ARRAY) {
        skipped++;
        empty = false;
      }
      if (c === QUOTE) j = stringAt(j) - 1;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        level++;
        if (depth + level > limits.maxDepth) stop({ kind: 'depth', limit: limits.maxDepth });
        skipped++;
        empty = true;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        level--;
        empty = false;
        if (level === 0) return j + 1;
      } else if (c === COMMA) skipped++;
      else if (c !== COLON) j = scalarEnd(source, j + 1, last) - 1; // a scalar: nothing more to count until its end
      if (skipped > most) return undefined;
    }
    // Unterminated (the parse of the slice says so), or longer than an element may be.
    return last === n ? n : undefined;
  };

  try {
    spaces();
    let value: unknown;
    for (;;) {
      // ---- A value starts at i: its key or index is the top frame's.
      if (++sinceStep >= STEP_VALUES || i - stepAt >= STEP_CHARS) {
        sinceStep = 0;
        stepAt = i;
        yield;
      }
      const c = code(i);
      if (watched !== undefined && stack.length === watchedDepth) {
        // An element of a watched array, read whole: skipped to its end, counted, then parsed at once.
        if (watchedCount >= watched.cap) stop({ kind: 'watch', problem: watched.past() });
        const most = watched.elementValues;
        const start = i;
        const end = skipValue(stack.length, most, most * (limits.maxStringChars + 16));
        if (end === undefined) stop({ kind: 'watch', problem: watched.heavy(watchedCount) });
        count(skipped);
        i = end as number;
        value = parseSlice(start, i);
        watchedCount++;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (stack.length + 1 > limits.maxDepth) stop({ kind: 'depth', limit: limits.maxDepth });
        count(stack.length === 0 ? 1 : 2);
        const isArray = c === OPEN_ARRAY;
        let charged = true;
        if (isArray && watched === undefined && watch !== undefined) {
          const path: (string | number)[] = [];
          for (const f of stack) path.push(f.key);
          const said = watch.array(path);
          if (said !== undefined && 'refuse' in said) stop({ kind: 'watch', problem: said.refuse });
          if (said !== undefined && !('refuse' in said)) {
            watched = said;
            watchedDepth = stack.length + 1;
            watchedCount = 0;
            charged = false;
          }
        }
        if (!isArray && watch !== undefined && watched === undefined && stack.length <= 2) {
          const problem = watch.object(stack.map((f) => f.key));
          if (problem !== undefined) stop({ kind: 'watch', problem });
        }
        if (charged && watched === undefined) outsideCount(stack.length === 0 ? 1 : 2);
        const frame: Frame = { container: isArray ? [] : {}, isArray, key: 0 };
        stack.push(frame);
        i++;
        spaces();
        const d = code(i);
        if (d === (isArray ? CLOSE_ARRAY : CLOSE_OBJECT)) {
          i++;
          stack.pop();
          value = frame.container;
          if (watched !== undefined && watchedDepth === stack.length + 1) {
            watched.closed(0);
            watched = undefined;
            watchedDepth = -1;
          }
        } else {
          if (!isArray) readKey(frame);
          continue;
        }
      } else {
        value = scalar();
        if (stack.length > 0) {
          count(1);
          if (watched === undefined) outsideCount(1);
        }
      }
      // ---- A value ended at i: it goes into its container, then a comma or the container's end.
      for (;;) {
        const frame = stack[stack.length - 1];
        if (frame === undefined) {
          spaces();
          if (i !== n) stop({ kind: 'syntax' });
          return { ok: true, value };
        }
        if (frame.isArray) (frame.container as unknown[]).push(value);
        else {
          setMember(frame.container as Record<string, unknown>, frame.key as string, value);
          if (stack.length === 1) watch?.member(frame.key as string, value);
        }
        spaces();
        const d = code(i);
        if (d === COMMA) {
          i++;
          spaces();
          if (frame.isArray) frame.key = (frame.key as number) + 1;
          else readKey(frame);
          break;
        }
        if (d !== (frame.isArray ? CLOSE_ARRAY : CLOSE_OBJECT)) stop({ kind: 'syntax' });
        i++;
        stack.pop();
        value = frame.container;
        if (watched !== undefined && watchedDepth === stack.length + 1) {
          watched.closed(watchedCount);
          watched = undefined;
          watchedDepth = -1;
        }
      }
    }
  } catch (e) {
    if (e instanceof Stop) return { ok: false, problem: e.problem as JsonStepsProblem<P>, examined: i };
    throw e;
  }

  /** A member's name and its colon, at i (after `{` or a comma): i is left at its value. */
  function readKey(frame: Frame): void {
    if (code(i) !== QUOTE) stop({ kind: 'syntax' });
    const start = i;
    i = stringAt(i);
    const raw = slice(start + 1, i - 1);
    frame.key = raw.includes('\\') ? (parseSlice(start, i) as string) : raw;
    spaces();
    if (code(i) !== COLON) stop({ kind: 'syntax' });
    i++;
    spaces();
  }
}
