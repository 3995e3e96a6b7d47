/**
 * Child process of the bench: the simulator's own work per request (Simulator.handle, no socket) next to
 * the baseline's own work (JSON.stringify of the same records), in one quiet process.
 */
import { Simulator } from '../sim/simulator.js';
import { accounts } from '../store/resources.js';

const sim = new Simulator({ seed: 42, accounts: 100_000, wallClock: () => 0 });
const token = sim.issueToken('bench', 'read-write');
const byId = sim.project('bench').list(accounts).index('id', 'asc');
const deep = byId[90_000]?.id ?? '';
const headers = { authorization: `Bearer ${token}` };

function perCall(fn: () => unknown, n = 20_000): number {
  for (let i = 0; i < n / 10; i++) fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t) / 1e3 / n;
}

const plain = (from: number, to: number) => byId.slice(from, to).map((r) => JSON.parse(sim.handle({ method: 'GET', url: `/v2/accounts/${r.id}`, headers, body: '' }).body).data as unknown);
const cases = [
  { name: 'page of 25 at offset 100', url: '/v2/accounts?page[limit]=25&page[offset]=100', records: plain(100, 125) },
  { name: 'page of 100', url: '/v2/accounts?page[limit]=100&page[offset]=500', records: plain(500, 600) },
  { name: 'keyset page deep in the set (sort=id, gt(id,X), 100)', url: `/v2/accounts?sort=id&filter=gt(id,${deep})&page[limit]=100`, records: plain(90_001, 90_101) },
];
const rows = cases.map((c) => {
  const req = { method: 'GET', url: c.url, headers, body: '' };
  return {
    name: c.name,
    handle: perCall(() => sim.handle(req)),
    stringify: perCall(() => JSON.stringify({ data: c.records, meta: { page: { limit: c.records.length, offset: 0 }, results: { total: 100_000 } } })),
  };
});
process.send?.(rows);
