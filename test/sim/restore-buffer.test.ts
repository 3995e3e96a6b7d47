import { expect, test } from 'vitest';
import { restoreBuffer } from '../../src/sim/server.js';

const MiB = 2 ** 20;

// V8 answers external memory past its limit (64 MiB over what the last collection left) by marking the
// whole heap: a served restore's body must not count there (issue 36), while an ordinary buffer does.
test("a restore body's buffer is not counted as V8's external memory; an ordinary buffer of that size is", () => {
  const size = 96 * MiB;
  const before = process.memoryUsage();
  const body = restoreBuffer(size);
  const after = process.memoryUsage();
  expect(body.length).toBe(size);
  expect(body[size - 1]).toBe(0);
  // The memory is there (array buffers count it) ...
  expect(after.arrayBuffers - before.arrayBuffers).toBeGreaterThanOrEqual(size);
  // ... but not as external memory, which is what starts a collection.
  expect(after.external - before.external).toBeLessThan(8 * MiB);
  const control = Buffer.allocUnsafe(size);
  expect(process.memoryUsage().external - after.external).toBeGreaterThanOrEqual(size);
  expect(control.length + body.length).toBe(2 * size);
});
