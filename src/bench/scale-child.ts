/** Child process of the bench: start-up time, memory and keyset latency of the simulator at a given size. */
import { Simulator } from '../sim/simulator.js';
import { accounts } from '../store/resources.js';

const count = Number(process.argv[2] ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage();
const t0 = process.hrtime.bigint();
const sim = new Simulator({ seed: 42, accounts: count, wallClock: () => Date.now() });
const token = sim.issueToken('scale', 'read-write');
const ids = sim.project('scale').list(accounts).index('id', 'asc');
const startupMs = Number(process.hrtime.bigint() - t0) / 1e6;
gc?.();
const after = process.memoryUsage();

function latency(afterId: string | undefined, n: number): number {
  const filter = afterId === undefined ? '' : `&filter=gt(id,${afterId})`;
  const req = { method: 'GET', url: `/v2/accounts?sort=id&page[limit]=100${filter}`, headers: { authorization: `Bearer ${token}` }, body: '' };
  for (let i = 0; i < 200; i++) sim.handle(req);
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sim.handle(req);
  return Number(process.hrtime.bigint() - t) / 1e3 / n;
}
const first = latency(undefined, 2000);
const end = latency(ids[ids.length - 101]?.id, 2000);
process.send?.({
  count,
  startupMs,
  heapMiB: (after.heapUsed - before.heapUsed) / 2 ** 20,
  rssMiB: after.rss / 2 ** 20,
  keysetStartUs: first,
  keysetEndUs: end,
});
