import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from '../../src/engine/json-shape.js';

const OPEN = { maxDepth: 1_000_000, maxValues: Number.MAX_SAFE_INTEGER };

/** Depth and values of a parsed value, counted as the scanner counts them. */
function shapeOf(v: unknown): { depth: number; values: number } {
  if (typeof v !== 'object' || v === null) return { depth: 0, values: 0 };
  const kids = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
  let depth = 0;
  let values = 1 + kids.length;
  for (const k of kids) {
    const s = shapeOf(k);
    depth = Math.max(depth, s.depth);
    values += s.values;
  }
  return { depth: depth + 1, values };
}

describe('jsonShapeProblem', () => {
  it('measures any JSON value as a parse would build it: refused exactly past its depth and its values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const { depth, values } = shapeOf(value);
        expect(jsonShapeProblem(text, OPEN)).toBeUndefined();
        expect(jsonShapeProblem(text, { maxDepth: depth, maxValues: values })).toBeUndefined();
        if (depth > 0) expect(jsonShapeProblem(text, { maxDepth: depth - 1, maxValues: values })).toEqual({ kind: 'depth', limit: depth - 1 });
        if (values > 0) expect(jsonShapeProblem(text, { maxDepth: depth, maxValues: values - 1 })).toEqual({ kind: 'values', limit: values - 1 });
      }),
    );
  });

  it('reads brackets, commas and escaped quotes inside strings as text', () => {
    expect(jsonShapeProblem(JSON.stringify({ a: '[[[{,,,}]]] \\" \\\\" ,' }), { maxDepth: 1, maxValues: 2 })).toBeUndefined();
  });

  it('stops at the first limit passed, before reading the rest', () => {
    expect(jsonShapeProblem('['.repeat(400_000), { maxDepth: 64, maxValues: 10_000 })).toEqual({ kind: 'depth', limit: 64 });
    expect(jsonShapeProblem(`{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":1`).join(',')}}`, { maxDepth: 64, maxValues: 10_000 })).toEqual({ kind: 'values', limit: 10_000 });
  });
});
