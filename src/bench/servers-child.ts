/**
 * Child process of the bench: the simulator server or the baseline server (one per process, so neither's
 * heap or collector weighs on the other), on the same seeded records.
 */
import { Simulator } from '../sim/simulator.js';
import { listen } from '../sim/server.js';
import { accounts } from '../store/resources.js';
import { iso } from '../store/clock.js';
import { startBaseline, type PlainAccount } from './baseline.js';

const mode = process.argv[2] === 'baseline' ? 'baseline' : 'sim';
const count = Number(process.argv[3] ?? 100_000);

async function simulator(): Promise<Record<string, string>> {
  const sim = new Simulator({ seed: 42, accounts: count, wallClock: () => Date.now() });
  const running = await listen(sim, 0, '127.0.0.1');
  const project = sim.project('bench');
  project.list(accounts).index('id', 'asc');
  project.list(accounts).index('created_at', 'asc');
  const ids = sim.seededIds();
  return { origin: running.baseUrl, token: sim.issueToken('bench', 'read-write'), ...ids };
}

async function baseline(): Promise<Record<string, string>> {
  // The same records as plain objects; the simulator that generated them is dropped.
  const records: PlainAccount[] = new Simulator({ seed: 42, accounts: count, wallClock: () => 0 })
    .project('bench')
    .list(accounts)
    .index('id', 'asc')
    .map((r) => ({
      id: r.id,
      type: 'account',
      name: r.attrs['name'] ?? null,
      legal_name: r.attrs['legal_name'] ?? null,
      registration_id: r.attrs['registration_id'] ?? null,
      external_ref: r.attrs['external_ref'] ?? null,
      parent_id: null,
      meta: { timestamps: { created_at: iso(r.createdMs), updated_at: iso(r.updatedMs) } },
      links: { self: `http://127.0.0.1:4747/v2/accounts/${r.id}` },
    }));
  const server = await startBaseline(records);
  return { origin: server.origin, deep: records[Math.floor(records.length * 0.9)]?.id ?? '' };
}

process.send?.(mode === 'sim' ? await simulator() : await baseline());
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
  if (m === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.(user + system);
  }
});
