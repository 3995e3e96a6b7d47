/**
 * Child process of the bench: the simulator server and the baseline server, on the same records, so the
 * load generator in the parent does not share a core's event loop with them.
 */
import { Simulator } from '../sim/simulator.js';
import { listen } from '../sim/server.js';
import { accounts } from '../store/resources.js';
import { iso } from '../store/clock.js';
import { startBaseline, type PlainAccount } from './baseline.js';

const count = Number(process.argv[2] ?? 100_000);
const sim = new Simulator({ seed: 42, accounts: count, wallClock: () => Date.now() });
const running = await listen(sim, 0, '127.0.0.1');
const project = sim.project('bench');
const byId = project.list(accounts).index('id', 'asc');
project.list(accounts).index('created_at', 'asc');
const records: PlainAccount[] = byId.map((r) => ({
  id: r.id,
  type: 'account',
  name: r.attrs['name'] ?? null,
  legal_name: r.attrs['legal_name'] ?? null,
  registration_id: r.attrs['registration_id'] ?? null,
  external_ref: r.attrs['external_ref'] ?? null,
  parent_id: null,
  meta: { timestamps: { created_at: iso(r.createdMs), updated_at: iso(r.updatedMs) } },
  links: { self: `${running.baseUrl}/v2/accounts/${r.id}` },
}));
const baseline = await startBaseline(records);
const token = sim.issueToken('bench', 'read-write');
const ids = sim.seededIds();
const deep = byId[Math.floor(byId.length * 0.9)]?.id ?? '';
process.send?.({ sim: running.baseUrl, baseline: baseline.origin, token, deep, ...ids, passwordProfileId: ids.password_profile_id });
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
});
