/**
 * Child process of the bench's hardening section: a served simulator, alone in its process so that its
 * RSS is what a served simulator costs. Arguments: the seeded accounts, then (optionally) more simulator
 * options as JSON (`{"maxRecords": 200000}`). Answers 'rss' (after a full collection) and 'cpu'.
 */
import { Simulator, type SimulatorOptions } from '../sim/simulator.js';
import { listen } from '../sim/server.js';

const count = Number(process.argv[2] ?? 1_000_000);
const extra = JSON.parse(process.argv[3] ?? '{}') as Partial<SimulatorOptions>;
const sim = new Simulator({ seed: 42, accounts: count, wallClock: () => Date.now(), tokenKey: 'bench-token-key-0123456789', maxProjects: 1000, ...extra });
const running = await listen(sim, 0, '127.0.0.1');
const gc = (globalThis as { gc?: () => void }).gc;

process.send?.({ origin: running.baseUrl, token: sim.issueToken('bench', 'read-write'), adminToken: sim.adminToken });
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
  if (m === 'rss') {
    gc?.();
    process.send?.(process.memoryUsage().rss);
  }
  if (m === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.(user + system);
  }
});
