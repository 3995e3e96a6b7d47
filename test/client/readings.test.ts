/**
 * The reference client reads any conforming deployment: against the simulator playing seeded
 * combinations of the document's readings (numeric or prefixed ids, timestamps in microseconds or
 * nanoseconds or seconds, anywhere in the record, page and results anywhere), the CSV export and the
 * timestamp walks deliver every account exactly once.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportAccounts, iterate, parseCsv } from '../../src/client/index.js';
import { readingsArbitrary } from '../../src/kit/readings-proof.js';
import { describeReadings, type Readings } from '../../src/rules/readings.js';
import { createSimTarget } from '../../src/adapters/simulator.js';
import type { Target } from '../../src/port.js';

/** Every account id as the target shows them, read with a plain offset walk (sorted by id). */
async function allIds(target: Target): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await target.send({ method: 'GET', url: `/v2/accounts?sort=id&page[limit]=100&page[offset]=${offset}` });
    const data = (JSON.parse(res.body) as { data: { id: string }[] }).data;
    ids.push(...data.map((r) => r.id));
    if (data.length < 100) return ids;
  }
}

describe('the reference client on deployments that read the document differently', () => {
  it('exports and walks every account exactly once under any combination of readings', async () => {
    await fc.assert(
      fc.asyncProperty(
        readingsArbitrary,
        fc.constantFrom<'created_at' | 'updated_at'>('created_at', 'updated_at'),
        fc.integer({ min: 1, max: 100 }),
        async (readings: Readings, attribute, pageSize) => {
          const target = await createSimTarget({ readings, accounts: 230, dataset: 'shared-timestamps', wallClock: () => Date.UTC(2025, 0, 1) });
          const expected = (await allIds(target)).sort();
          const lines: string[] = [];
          await exportAccounts(target, { write: (chunk: string) => void lines.push(chunk) }, { pageSize });
          const exported = parseCsv(lines.join(''))
            .slice(1)
            .map((row) => row[3] ?? '');
          expect([...exported].sort(), describeReadings(readings)).toEqual(expected);
          const walked: string[] = [];
          for await (const record of iterate(target, '/v2/accounts', { attribute, pageSize })) walked.push(record.id);
          expect([...walked].sort(), `${attribute} walk, ${describeReadings(readings)}`).toEqual(expected);
        },
      ),
      { seed: 20261125, numRuns: 12 },
    );
  }, 60_000);
});
