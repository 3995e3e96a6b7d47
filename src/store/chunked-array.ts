/**
 * A long array kept in chunks of CHUNK elements, for the store's indexes. Why not one array: a million
 * references are 8 MB written at once when the array is made, and on this project's machines the page
 * faults of that much fresh memory take 22-27 ms in one piece (more under load), a turn a sliced restore
 * cannot split. A chunk is 128 KB, made in the step that first writes into it; only the first grows as it
 * is filled, so a small index (a project's own records, a collection of a hundred) costs what it holds, not a
 * chunk, and a large one carries no growth's slack past its first chunk.
 */

const BITS = 14;
/** Elements per full chunk: 2^14 references, 128 KB, just over V8's largest regular object (its own pages). */
export const CHUNK = 1 << BITS;
const MASK = CHUNK - 1;

/**
 * Every chunk but the last holds exactly CHUNK elements; the last holds the rest (1 to CHUNK), none when
 * empty. The first chunk's length is what it holds; a later chunk is made CHUNK long, its unfilled end holes
 * (a removal may leave it shorter; positions, not lengths, say what it holds).
 */
export class ChunkedArray<T> {
  private readonly chunks: T[][] = [];
  private size = 0;

  /** The elements of `items`, copied (a small array, or one made where no turn is watched). */
  static of<T>(items: readonly T[]): ChunkedArray<T> {
    const out = new ChunkedArray<T>();
    for (let i = 0; i < items.length; i++) out.push(items[i] as T);
    return out;
  }

  get length(): number {
    return this.size;
  }

  /** Chunks held: what it costs in memory is about this many 128 KB arrays (the last one as full as it is). */
  get chunkCount(): number {
    return this.chunks.length;
  }

  /** The element at `i`, for 0 <= i < length (unchecked, like an array's index: the hot path of every read). */
  at(i: number): T {
    return (this.chunks[i >>> BITS] as T[])[i & MASK] as T;
  }

  /** Write at `i` < length, or append at `i` = length. */
  set(i: number, value: T): void {
    if (i === this.size) this.push(value);
    else (this.chunks[i >>> BITS] as T[])[i & MASK] = value;
  }

  push(value: T): void {
    if ((this.size & MASK) === 0) this.chunks.push(this.newChunk());
    (this.chunks[this.size >>> BITS] as T[])[this.size & MASK] = value;
    this.size++;
  }

  /** The first chunk grows with what it holds; a later one is made whole, once (no slack, one allocation). */
  private newChunk(): T[] {
    return this.size === 0 ? [] : new Array<T>(CHUNK);
  }

  /** The elements of [lo, hi) as a plain array (a page). */
  slice(lo = 0, hi = this.size): T[] {
    const from = Math.max(0, lo);
    const to = Math.min(this.size, hi);
    const out: T[] = [];
    for (let i = from; i < to; i++) out.push(this.at(i));
    return out;
  }

  /** Every element as a plain array. */
  toArray(): T[] {
    return this.slice();
  }

  /**
   * Insert at `pos` (0 <= pos <= length), moving the rest one place on, as `splice(pos, 0, value)`: a
   * native splice in the chunk it lands in, then each later chunk passes its last element to the next.
   */
  insertAt(pos: number, value: T): void {
    if ((this.size & MASK) === 0) this.chunks.push(this.newChunk());
    const last = this.size >>> BITS;
    let c = pos >>> BITS;
    let chunk = this.chunks[c] as T[];
    chunk.splice(pos & MASK, 0, value);
    while (c < last) {
      const carry = chunk.pop() as T;
      chunk = this.chunks[++c] as T[];
      chunk.unshift(carry);
    }
    // A later chunk back to CHUNK: what fell off its end was a hole.
    if (chunk.length > CHUNK) chunk.length = CHUNK;
    this.size++;
  }

  /** Remove the element at `pos` (0 <= pos < length), as `splice(pos, 1)`: the same in reverse. */
  removeAt(pos: number): void {
    const last = (this.size - 1) >>> BITS;
    let c = pos >>> BITS;
    let chunk = this.chunks[c] as T[];
    chunk.splice(pos & MASK, 1);
    while (c < last) {
      const next = this.chunks[++c] as T[];
      chunk.push(next.shift() as T);
      chunk = next;
    }
    this.size--;
    // A chunk left empty is let go.
    if ((this.size & MASK) === 0) this.chunks.length = this.size >>> BITS;
  }
  /** The first position holding `value`, or -1. */
  indexOf(value: T): number {
    for (let i = 0; i < this.size; i++) if (this.at(i) === value) return i;
    return -1;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.size; i++) yield this.at(i);
  }
}
