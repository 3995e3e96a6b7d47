import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK } from '../../src/store/chunked-array.js';
import { largestStepGrowth } from '../support/step-growth.js';
import { drain, sortSteps } from '../../src/store/steps.js';

describe('sortSteps', () => {
  it('sorts like a stable sort, whatever the length around the step size', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 20_000 }), (keys) => {
        const items = keys.map((k, i) => ({ k, i }));
        const byKey = (a: { k: number }, b: { k: number }) => a.k - b.k;
        expect(drain(sortSteps(items, byKey)).toArray()).toEqual([...items].sort(byKey));
      }),
      { numRuns: 40 },
    );
  });

  it('yields as it goes: a million elements are never one step', () => {
    const items = Array.from({ length: 1_000_000 }, (_, i) => (i * 7919) % 1_000_003);
    const steps = sortSteps(items, (a, b) => a - b);
    let yields = 0;
    let next = steps.next();
    while (next.done !== true) {
      yields++;
      next = steps.next();
    }
    expect(yields).toBeGreaterThan(1_000_000 / 4096);
    expect(next.value.toArray()).toEqual([...items].sort((a, b) => a - b));
  });

  it('makes no million-element array in one step: each step grows the large-object heap by a few chunks at most', () => {
    // A served restore slices this work; one step that allocates 8 MB at once holds the loop 22-27 ms in page faults.
    const items = Array.from({ length: 1_000_000 }, (_, i) => (i * 7919) % 1_000_003);
    expect(largestStepGrowth(sortSteps(items, (a, b) => a - b))).toBeLessThanOrEqual(3 * CHUNK * 8 + 4096);
  });
});
