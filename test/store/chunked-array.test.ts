import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK, ChunkedArray } from '../../src/store/chunked-array.js';

// Each operation against a plain array doing the same (the reference), at lengths that cross chunk edges.
type Op = { readonly kind: 'push' | 'insert' | 'remove' | 'set'; readonly at: number; readonly value: number };

const op = fc.record({ kind: fc.constantFrom<Op['kind']>('push', 'insert', 'remove', 'set'), at: fc.nat(), value: fc.integer() });

function apply(ops: readonly Op[], start: number): { chunked: ChunkedArray<number>; plain: number[] } {
  const plain = Array.from({ length: start }, (_, i) => i);
  const chunked = ChunkedArray.of(plain);
  for (const { kind, at, value } of ops) {
    if (kind === 'push') {
      plain.push(value);
      chunked.push(value);
    } else if (kind === 'insert') {
      const pos = at % (plain.length + 1);
      plain.splice(pos, 0, value);
      chunked.insertAt(pos, value);
    } else if (plain.length > 0) {
      const pos = at % plain.length;
      if (kind === 'remove') {
        plain.splice(pos, 1);
        chunked.removeAt(pos);
      } else {
        plain[pos] = value;
        chunked.set(pos, value);
      }
    }
  }
  return { chunked, plain };
}

describe('ChunkedArray (the store index in chunks)', () => {
  it('keeps the elements a plain array keeps, through pushes, inserts, removes and writes across chunk edges', () => {
    fc.assert(
      fc.property(fc.constantFrom(0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK), fc.array(op, { maxLength: 40 }), (start, ops) => {
        const { chunked, plain } = apply(ops, start);
        expect(chunked.length).toBe(plain.length);
        expect(chunked.toArray()).toEqual(plain);
        expect([...chunked]).toEqual(plain);
        for (const i of [0, CHUNK - 1, CHUNK, plain.length - 1]) if (i >= 0 && i < plain.length) expect(chunked.at(i)).toBe(plain[i]);
      }),
      { numRuns: 60 },
    );
  });

  it('slices and finds like an array, ends clamped', () => {
    const plain = Array.from({ length: 2 * CHUNK + 5 }, (_, i) => i * 3);
    const chunked = ChunkedArray.of(plain);
    for (const [lo, hi] of [
      [0, 0],
      [CHUNK - 2, CHUNK + 2],
      [2 * CHUNK, 2 * CHUNK + 100],
      [-3, 4],
      [5, 3],
    ] as const)
      expect(chunked.slice(lo, hi)).toEqual(plain.slice(Math.max(0, lo), hi));
    expect(chunked.indexOf(3 * (CHUNK + 1))).toBe(CHUNK + 1);
    expect(chunked.indexOf(1)).toBe(-1);
  });

  it('a removal that empties the last chunk lets it go: pushing again starts a fresh one at the right place', () => {
    const chunked = ChunkedArray.of(Array.from({ length: CHUNK + 1 }, (_, i) => i));
    chunked.removeAt(0);
    expect(chunked.length).toBe(CHUNK);
    chunked.push(-1);
    expect(chunked.at(CHUNK)).toBe(-1);
    expect(chunked.at(CHUNK - 1)).toBe(CHUNK);
  });

  it('set at the length appends, as the merge passes of sortSteps write their first pass', () => {
    const chunked = new ChunkedArray<number>();
    for (let i = 0; i < CHUNK + 2; i++) chunked.set(i, i * 2);
    expect(chunked.length).toBe(CHUNK + 2);
    expect(chunked.slice(CHUNK - 1, CHUNK + 2)).toEqual([2 * (CHUNK - 1), 2 * CHUNK, 2 * (CHUNK + 1)]);
  });

  it('finds nothing without reading past its end, a whole number of chunks long', () => {
    expect(ChunkedArray.of(Array.from({ length: CHUNK }, (_, i) => i)).indexOf(-1)).toBe(-1);
    expect(new ChunkedArray<number>().indexOf(0)).toBe(-1);
  });

  it('holds no more chunks than its elements need: inserts and removes across a chunk edge make none for nothing', () => {
    // Each chunk is a 128 KB array: writes that leaked one each would hold megabytes.
    // One past two chunks: each removal empties the third chunk, each insert needs it again.
    const chunked = ChunkedArray.of(Array.from({ length: 2 * CHUNK + 1 }, (_, i) => i));
    expect(chunked.chunkCount).toBe(3);
    for (let k = 0; k < 200; k++) {
      chunked.removeAt(0);
      expect(chunked.chunkCount).toBe(2);
      chunked.insertAt(0, -k);
      expect(chunked.chunkCount).toBe(3);
    }
    // Then 200 inserts that all fit in the third chunk.
    for (let k = 0; k < 200; k++) chunked.insertAt(CHUNK, k);
    expect(chunked.chunkCount).toBe(3);
    expect(chunked.length).toBe(2 * CHUNK + 201);
    expect(chunked.at(0)).toBe(-199);
    expect(chunked.at(CHUNK)).toBe(199);
  });

  it('a small one costs what it holds, not a chunk: a thousand indexes of three records are not a thousand 128 KB arrays', () => {
    // A project's own layer indexes its few records in every field; 1,000 full chunks would be 128 MB.
    const before = process.memoryUsage().heapUsed;
    const held = Array.from({ length: 1000 }, (_, i) => ChunkedArray.of([i, i + 1, i + 2]));
    for (const c of held) c.insertAt(1, -1);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(16 * 2 ** 20);
    expect(held[999]?.toArray()).toEqual([999, -1, 1000, 1001]);
  });

  it('a later chunk an insert ran into keeps its place when it fills and others come after it', () => {
    // Its unshift pushes a hole off its end; were the hole kept, once the chunk is full and not last, the
    // element it passes on would be that hole, and its real last element lost.
    const plain = Array.from({ length: 2 * CHUNK + 1 }, (_, i) => i);
    const chunked = ChunkedArray.of(plain);
    chunked.insertAt(0, -1);
    plain.splice(0, 0, -1);
    for (let i = 0; i < CHUNK - 2; i++) {
      chunked.push(-2 - i);
      plain.push(-2 - i);
    }
    chunked.insertAt(0, -3);
    plain.splice(0, 0, -3);
    expect(chunked.length).toBe(plain.length);
    expect(chunked.slice(3 * CHUNK - 2, 3 * CHUNK + 1)).toEqual(plain.slice(3 * CHUNK - 2, 3 * CHUNK + 1));
    expect(chunked.toArray()).toEqual(plain);
  });
});
