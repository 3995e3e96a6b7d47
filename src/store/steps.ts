/**
 * Long work as steps: a generator that yields every few thousand elements, so a driver decides whether to
 * run it to the end at once (`drain`: in process, at start-up) or in slices that let other requests in
 * between (the served simulator's reseed). The work itself never looks at a clock.
 */

import { ChunkedArray } from './chunked-array.js';

export type Steps<T> = Generator<void, T, void>;

/** Run the steps to the end now. */
export function drain<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (next.done !== true) next = steps.next();
  return next.value;
}

/**
 * Records (or elements) handled between yields: well under a millisecond of work on an idle core, so a
 * slice of about 10 ms overshoots by little even when the machine is busy and every step takes longer.
 */
export const RECORDS_PER_STEP = 1024;
const STEP = RECORDS_PER_STEP;

/**
 * `items` in the order of `compare` (stable), as a new chunked array (no million-element array made in one
 * step): runs of STEP sorted natively, then merged pairwise; a pair already in order is copied, so sorted
 * input costs one pass per level.
 */
export function* sortSteps<T>(items: { readonly length: number; slice(lo: number, hi: number): T[] }, compare: (a: T, b: T) => number): Steps<ChunkedArray<T>> {
  const n = items.length;
  let src = new ChunkedArray<T>();
  for (let lo = 0; lo < n; lo += STEP) {
    const run = items.slice(lo, lo + STEP).sort(compare);
    for (let k = 0; k < run.length; k++) src.push(run[k] as T);
    yield;
  }
  // Filled in order, k from 0 up, on its first pass: each chunk is made as the pass reaches it.
  let dst = new ChunkedArray<T>();
  for (let width = STEP; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      if (mid >= hi || compare(src.at(mid - 1), src.at(mid)) <= 0) {
        for (let k = lo; k < hi; k++) {
          dst.set(k, src.at(k));
          if ((k & (STEP - 1)) === 0) yield;
        }
        continue;
      }
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        // Ties take the left run first: stable.
        if (i < mid && (j >= hi || compare(src.at(i), src.at(j)) <= 0)) dst.set(k, src.at(i++));
        else dst.set(k, src.at(j++));
        if ((k & (STEP - 1)) === 0) yield;
      }
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}
