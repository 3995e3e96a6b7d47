import v8 from 'node:v8';

/** The largest growth of V8's large-object spaces over one step of `steps`, in bytes. */
export function largestStepGrowth(steps: Generator<void, unknown, void>): number {
  const largeObjectBytes = () => v8.getHeapSpaceStatistics().reduce((sum, s) => (s.space_name.includes('large_object') ? sum + s.space_used_size : sum), 0);
  let largest = 0;
  let before = largeObjectBytes();
  for (let next = steps.next(); ; next = steps.next()) {
    const now = largeObjectBytes();
    largest = Math.max(largest, now - before);
    before = now;
    if (next.done === true) return largest;
  }
}
