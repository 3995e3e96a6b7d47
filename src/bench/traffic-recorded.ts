/**
 * HAR files of the simulator's own traffic, for the bench's check figures: a keyset walk by id over
 * pages of 100 to the end of 10,000 accounts, and the shipped suite's traffic (every scenario, recorded
 * as test/traffic/check-cli.test.ts records it). Each is recorded once in process (observedTarget) and
 * written as many times as asked by the proxy's HAR writer: the judge sees the same walks again, the
 * way a long capture of one client repeats itself.
 */
import { createSimTarget } from '../adapters/simulator.js';
import { isListRecord } from '../client/records.js';
import { isJsonObject } from '../engine/json.js';
import { loadSuite } from '../kit/mutation.js';
import { ruleById } from '../rules/catalogue.js';
import { runScenarios } from '../scenarios/runner.js';
import type { TrafficEntry } from '../traffic/entry.js';
import { openHarWriter } from '../traffic/har/write.js';
import { observedTarget } from '../traffic/observed-target.js';

export const WALK_ACCOUNTS = 10_000;

/** `entries` written over and over until at least `atLeast` are in `file`; returns how many were written. */
async function writeRepeated(file: string, entries: readonly TrafficEntry[], atLeast: number): Promise<number> {
  const har = await openHarWriter(file, { creator: { name: 'commerce-sim bench', version: '1' } });
  while (har.count < atLeast) for (const e of entries) await har.write(e);
  await har.close();
  return har.count;
}

/** A keyset walk by id (`sort=id`, `gt(id,last)`, pages of 100) to its empty last page, `walks` times. */
export async function writeKeysetHar(file: string, walks: number): Promise<number> {
  const entries: TrafficEntry[] = [];
  const target = observedTarget(await createSimTarget({ accounts: WALK_ACCOUNTS }), (e) => entries.push(e));
  let last: string | undefined;
  for (;;) {
    const filter = last === undefined ? '' : `&filter=gt(id,${last})`;
    const body: unknown = JSON.parse((await target.send({ method: 'GET', url: `/v2/accounts?sort=id&page[limit]=100${filter}` })).body);
    const data = isJsonObject(body) && Array.isArray(body['data']) ? body['data'].filter(isListRecord) : [];
    if (data.length === 0) break;
    last = data[data.length - 1]?.id;
  }
  return writeRepeated(file, entries, walks * entries.length);
}

/** The shipped suite's traffic against the in-process simulator, repeated to at least `atLeast` entries. */
export async function writeSuiteHar(file: string, atLeast: number): Promise<{ written: number; perSuite: number }> {
  const entries: TrafficEntry[] = [];
  const sim = await createSimTarget();
  await runScenarios(await loadSuite(), { target: observedTarget(sim, (e) => entries.push(e)), ruleById, concurrency: 1 });
  return { written: await writeRepeated(file, entries, atLeast), perSuite: entries.length };
}
