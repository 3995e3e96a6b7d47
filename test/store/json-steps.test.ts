/**
 * JSON parsed as steps (store/json-steps.ts) builds what JSON.parse builds, refuses what JSON.parse
 * refuses, counts the shape as engine/json-shape.ts does, and lets a watcher stop it at the first
 * element past what an array may hold, having read no further.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from '../../src/engine/json-shape.js';
import { parseJsonSteps, type JsonStepsLimits, type JsonWatch } from '../../src/store/json-steps.js';
import { drain } from '../../src/store/steps.js';

const OPEN: JsonStepsLimits = { maxDepth: 1000, maxValues: 1e9, maxStringChars: 1e9, maxNumberChars: 1e9 };

const parsed = (text: string, watch?: JsonWatch<string>, limits: JsonStepsLimits = OPEN) => drain(parseJsonSteps(text, limits, watch));
/** The same text as a served restore reads it: UTF-8 bytes, never decoded whole. */
const parsedBytes = (text: string, watch?: JsonWatch<string>, limits: JsonStepsLimits = OPEN) => drain(parseJsonSteps(new TextEncoder().encode(text), limits, watch));
/** What the server did before: the bytes decoded to one string, then parsed. */
const decoded = (text: string) => new TextDecoder().decode(new TextEncoder().encode(text));

/** JSON's four whitespace characters, a few at a time. */
const space = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 3 });

/** JSON text of any value, with whitespace between every token and strings written with escapes or not. */
const spacedJson: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('true', 'false', 'null', '0', '-0', '1e3', '-12.5E-2', '123456789012345678901234567890'),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
    fc.string({ unit: 'binary', maxLength: 8 }).map((s) => JSON.stringify(s)),
    fc.string({ unit: 'binary', maxLength: 8 }).map((s) => `"${[...s].map((ch) => `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0').slice(-4)}`).join('')}"`),
    fc.constantFrom('"__proto__"', '"a\\"b"', '"\\\\"', '"\\/"', '"\\b\\f\\n\\r\\t"'),
    fc.array(fc.tuple(space, tie('value'), space), { maxLength: 4 }).map((xs) => `[${xs.map(([a, v, b]) => `${a}${v}${b}`).join(',')}]`),
    fc
      .array(fc.tuple(space, fc.constantFrom('"a"', '"b"', '"__proto__"', '"constructor"', '"1"', '"0"', '"x\\u0041"', '""'), space, space, tie('value'), space), { maxLength: 4 })
      .map((ms) => `{${ms.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}}`),
  ),
})).value;

const same = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<string | symbol, unknown>)[k], (b as Record<string | symbol, unknown>)[k]));
};

/** A record-list watcher: `records` arrays hold at most `cap` elements of at most `values` values each. */
function recordsWatch(cap: number, values = 11): JsonWatch<string> & { closed: number[] } {
  const closed: number[] = [];
  return {
    closed,
    array: (path) =>
      path[path.length - 1] === 'records' ? { cap, elementValues: values, past: () => `past ${path.join('.')}`, heavy: (i) => `heavy ${i}`, closed: (n) => closed.push(n) } : undefined,
    object: () => undefined,
    member: () => undefined,
    outside: () => undefined,
  };
}

describe('the same values as JSON.parse', () => {
  it('any JSON text, spaced and escaped any way: the same value, key order and own __proto__ members included', () => {
    fc.assert(
      fc.property(space, spacedJson, space, (a, v, b) => {
        const text = `${a}${v}${b}`;
        const got = parsed(text);
        expect(got.ok).toBe(true);
        expect(same(got.ok ? got.value : undefined, JSON.parse(text))).toBe(true);
        const bytes = parsedBytes(text);
        expect(bytes.ok).toBe(true);
        expect(same(bytes.ok ? bytes.value : undefined, JSON.parse(decoded(text)))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('inside watched arrays too (elements parsed whole)', () => {
    fc.assert(
      fc.property(fc.array(spacedJson, { maxLength: 6 }), space, (elements, s) => {
        const text = `{"records":${s}[${s}${elements.join(`${s},${s}`)}${s}]${s},"after":[${elements.join(',')}]}`;
        const got = parsed(text, recordsWatch(100, 1e9));
        expect(got.ok).toBe(true);
        expect(same(got.ok ? got.value : undefined, JSON.parse(text))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses (as syntax) exactly the texts JSON.parse refuses: valid text with one character removed, added or changed', () => {
    const edits = fc.tuple(spacedJson, fc.nat(), fc.constantFrom('remove', 'insert', 'replace'), fc.constantFrom(...'{}[]:,"\\ -+.0123456789eEtrufalsn\u0001\u00a0x'));
    const check = (text: string, watch?: JsonWatch<string>) => {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      const got = parsed(text, watch);
      expect(got.ok ? 'ok' : got.problem.kind).toBe(valid ? 'ok' : 'syntax');
      let validDecoded = true;
      try {
        JSON.parse(decoded(text));
      } catch {
        validDecoded = false;
      }
      const bytes = parsedBytes(text, watch);
      expect(bytes.ok ? 'ok' : bytes.problem.kind).toBe(validDecoded ? 'ok' : 'syntax');
    };
    fc.assert(
      fc.property(edits, ([v, at, how, ch]) => {
        const k = v.length === 0 ? 0 : at % (v.length + 1);
        const text = how === 'remove' ? v.slice(0, k) + v.slice(k + 1) : how === 'insert' ? v.slice(0, k) + ch + v.slice(k) : v.slice(0, k) + ch + v.slice(k + 1);
        check(text);
        check(`{"records":[${text}]}`, recordsWatch(100, 1e9));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the shape, counted as it is read', () => {
  it('refused exactly when engine/json-shape.ts refuses, naming a limit the text passes', () => {
    fc.assert(
      fc.property(spacedJson, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 30 }), (text, maxDepth, maxValues) => {
        const expected = jsonShapeProblem(text, { maxDepth, maxValues });
        const got = parsed(text, undefined, { ...OPEN, maxDepth, maxValues });
        expect(got.ok).toBe(expected === undefined);
        // Where both limits are passed at one element, either may be named first (json-shape counts an element at its comma).
        if (!got.ok) expect(jsonShapeProblem(text, got.problem.kind === 'depth' ? { maxDepth, maxValues: Infinity } : { maxDepth: Infinity, maxValues })).toEqual(got.problem);
      }),
      { numRuns: 2000 },
    );
  });

  it('strings and numbers longer than the limits are refused as such', () => {
    const limits = { ...OPEN, maxStringChars: 10, maxNumberChars: 5 };
    expect(parsed('["12345678"]', undefined, limits).ok).toBe(true);
    expect(parsed('["123456789"]', undefined, limits)).toMatchObject({ ok: false, problem: { kind: 'string', limit: 10 } });
    expect(parsed('[12345]', undefined, limits).ok).toBe(true);
    expect(parsed('[123456]', undefined, limits)).toMatchObject({ ok: false, problem: { kind: 'number', limit: 5 } });
    expect(parsed('{"records":[123456]}', recordsWatch(5), limits)).toMatchObject({ ok: false, problem: { kind: 'number' } });
  });
});

describe('a watcher stops the parse where the text passes its limit', () => {
  it('at the first element past the cap, having read the text only that far', () => {
    const element = '"abcdefghijklmnopq"';
    const text = `{"records":[${Array.from({ length: 100_000 }, () => element).join(',')}]}`;
    const got = parsed(text, recordsWatch(1000));
    expect(got).toMatchObject({ ok: false, problem: { kind: 'watch', problem: 'past records' } });
    expect(got.ok ? 0 : got.examined).toBeLessThanOrEqual(12 + 1001 * (element.length + 1));
  });

  it('at the first element holding more values than an element may', () => {
    const got = parsed(`{"records":[{"a":1},{"a":1,"b":2,"c":[1,2,3,4,5,6,7,8,9]},{}]}`, recordsWatch(10, 6));
    expect(got).toMatchObject({ ok: false, problem: { kind: 'watch', problem: 'heavy 1' } });
    const ok = recordsWatch(10, 6);
    expect(parsed('{"records":[{"a":1,"b":2},[]],"more":{"records":[]}}', ok).ok).toBe(true);
    expect(ok.closed).toEqual([2, 0]);
  });

  it('yields every few thousand values, so a driver can run it in slices', () => {
    const text = JSON.stringify({ records: Array.from({ length: 50_000 }, (_, i) => ({ id: String(i) })), more: Array.from({ length: 50_000 }, (_, i) => i) });
    const steps = parseJsonSteps(text, OPEN, recordsWatch(1e9));
    let yields = 0;
    let next = steps.next();
    while (next.done !== true) {
      yields++;
      next = steps.next();
    }
    expect(next.value.ok).toBe(true);
    expect(yields).toBeGreaterThanOrEqual(20);
    expect(yields).toBeLessThan(100);
  });
});

/**
 * The values of a parsed value, counted as engine/json-shape.ts defines them and written out here from
 * JSON.parse's value: a container one, a member or element one more (a member holding a container counts
 * twice); a root scalar none.
 */
function valuesOf(v: unknown, root = true): number {
  const own = root ? 0 : 1;
  if (typeof v !== 'object' || v === null) return own;
  const children = Array.isArray(v) ? v : Object.values(v);
  return own + 1 + children.reduce((n: number, c) => n + valuesOf(c, false), 0);
}

/**
 * `{"records":[…],"more":[…]}` of thousands of elements each, in a few kinds (scalars, small objects,
 * nested arrays, a long string every 50th), spaced one of three ways: twelve to a hundred thousand values and
 * about a megabyte of text, so a parse crosses several steps of values and of characters. Drawn as its
 * parameters (what a failure prints) and written out by `largeText`.
 */
const largeJson = fc.record({
  records: fc.integer({ min: 9_000, max: 14_000 }),
  more: fc.integer({ min: 3_000, max: 9_000 }),
  kinds: fc.array(fc.constantFrom('number', 'string', 'object', 'array', 'literal'), { minLength: 1, maxLength: 4 }),
  space: fc.constantFrom('', ' ', '\n  '),
});

function largeText({ records, more, kinds, space: s }: { records: number; more: number; kinds: string[]; space: string }): { text: string; records: number } {
  const element = (k: number): string => {
    if (k % 50 === 49) return JSON.stringify(`${k} ${'long text '.repeat(300)}`);
    switch (kinds[k % kinds.length]) {
      case 'number':
        return String(k * 7 - 3.5);
      case 'string':
        return JSON.stringify(`s\u00e9${k}`);
      case 'object':
        return `{${s}"id":${s}"${k}",${s}"n":${s}${k},${s}"tags":${s}[${s}"a",${s}null${s}]${s}}`;
      case 'array':
        return `[${s}${k},${s}[${s}true${s}],${s}{}${s}]`;
      default:
        return ['true', 'false', 'null'][k % 3] as string;
    }
  };
  const list = (count: number, from: number) => `[${s}${Array.from({ length: count }, (_, k) => element(from + k)).join(`,${s}`)}${s}]`;
  return { text: `{${s}"records":${s}${list(records, 0)},${s}"more":${s}${list(more, records)}${s}}`, records };
}

/** The parse run step by step: its result and the steps it took. */
function stepped(text: string, limits: JsonStepsLimits, watch?: JsonWatch<string>) {
  const steps = parseJsonSteps(text, limits, watch);
  let yields = 0;
  let next = steps.next();
  while (next.done !== true) {
    yields++;
    next = steps.next();
  }
  return { result: next.value, yields };
}

describe('limits count over the whole text, however many steps it takes', () => {
  it('a body of exactly maxValues values is the value JSON.parse builds; one value more is refused, as text and as bytes', () => {
    fc.assert(
      fc.property(largeJson, (drawn) => {
        const { text } = largeText(drawn);
        const expected = JSON.parse(text) as unknown;
        const values = valuesOf(expected);
        const at = stepped(text, { ...OPEN, maxValues: values });
        // Several steps of values and of characters.
        expect(at.yields).toBeGreaterThanOrEqual(3);
        expect(at.result.ok).toBe(true);
        expect(same(at.result.ok ? at.result.value : undefined, expected)).toBe(true);
        expect(stepped(text, { ...OPEN, maxValues: values - 1 }).result).toMatchObject({ ok: false, problem: { kind: 'values', limit: values - 1 } });
        const bytes = new TextEncoder().encode(text);
        expect(drain(parseJsonSteps(bytes, { ...OPEN, maxValues: values }, undefined)).ok).toBe(true);
        expect(drain(parseJsonSteps(bytes, { ...OPEN, maxValues: values - 1 }, undefined))).toMatchObject({ ok: false, problem: { kind: 'values', limit: values - 1 } });
      }),
      { numRuns: 5 },
    );
  });

  it('20,000 values against a limit of 10,000: refused (the issue’s case), with 20,000 passing', () => {
    // A root array of 19,999 numbers: the array one, each element one.
    const text = `[${Array.from({ length: 19_999 }, (_, k) => k).join(',')}]`;
    expect(valuesOf(JSON.parse(text))).toBe(20_000);
    expect(parsed(text, undefined, { ...OPEN, maxValues: 10_000 })).toMatchObject({ ok: false, problem: { kind: 'values', limit: 10_000 } });
    expect(parsed(text, undefined, { ...OPEN, maxValues: 19_999 })).toMatchObject({ ok: false, problem: { kind: 'values', limit: 19_999 } });
    expect(parsed(text, undefined, { ...OPEN, maxValues: 20_000 }).ok).toBe(true);
  });

  it('a watched array of exactly its cap elements closes with them all; one element more is refused past the cap', () => {
    fc.assert(
      fc.property(largeJson, (drawn) => {
        const { text, records } = largeText(drawn);
        const expected = JSON.parse(text) as unknown;
        const atCap = recordsWatch(records, 1e9);
        const whole = stepped(text, OPEN, atCap);
        expect(whole.yields).toBeGreaterThanOrEqual(3);
        expect(whole.result.ok).toBe(true);
        expect(same(whole.result.ok ? whole.result.value : undefined, expected)).toBe(true);
        expect(atCap.closed).toEqual([records]);
        expect(parsed(text, recordsWatch(records - 1, 1e9))).toMatchObject({ ok: false, problem: { kind: 'watch', problem: 'past records' } });
      }),
      { numRuns: 5 },
    );
  });

  it('the values outside watched arrays are counted over the whole text: the watcher sees their number exactly, and may refuse at one more', () => {
    /** Counts it is shown; refuses past `most`. */
    const outsideWatch = (most: number): JsonWatch<string> & { seen: number[] } => {
      const seen: number[] = [];
      return { ...recordsWatch(1e9, 1e9), seen, outside: (count) => (seen.push(count), count > most ? `outside ${count}` : undefined) };
    };
    fc.assert(
      fc.property(largeJson, (drawn) => {
        const { text } = largeText(drawn);
        const value = JSON.parse(text) as { records: unknown[] };
        // Everything but the watched array: its member and container, and each element with what it holds.
        const outside = valuesOf(value) - 2 - value.records.reduce((n: number, e) => n + valuesOf(e, false), 0);
        const open = outsideWatch(Infinity);
        expect(parsed(text, open).ok).toBe(true);
        expect(Math.max(...open.seen)).toBe(outside);
        expect(parsed(text, outsideWatch(outside)).ok).toBe(true);
        expect(parsed(text, outsideWatch(outside - 1))).toMatchObject({ ok: false, problem: { kind: 'watch', problem: `outside ${outside}` } });
      }),
      { numRuns: 5 },
    );
  });
});
