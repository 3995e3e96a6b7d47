/**
 * Child process of the bench's hardening section: a served simulator, alone in its process so that its
 * RSS is what a served simulator costs. Arguments: the seeded accounts, then (optionally) more simulator
 * options as JSON (`{"maxRecords": 200000}`). Answers 'rss' (after a full collection), 'cpu', 'requests'
 * (requests read so far, on every connection), 'lag'
 * (the longest event-loop delay since the last 'lag', in ms), 'close' (shuts down as serve does: the ms it took),
 * 'watch' and 'turns' (the event loop's long turns in between, turn-watch.ts).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Simulator, type SimulatorOptions } from '../sim/simulator.js';
import { listen } from '../sim/server.js';
import { TurnWatch } from './turn-watch.js';

const count = Number(process.argv[2] ?? 1_000_000);
const extra = JSON.parse(process.argv[3] ?? '{}') as Partial<SimulatorOptions>;
const sim = new Simulator({ seed: 42, accounts: count, wallClock: () => Date.now(), tokenKey: 'bench-token-key-0123456789', maxProjects: 1000, ...extra });
const running = await listen(sim, 0, '127.0.0.1');
// Requests node has read (parsed) on every connection: a flooder's that were never answered count too.
let requestsRead = 0;
running.server.prependListener('request', () => requestsRead++);
const gc = (globalThis as { gc?: () => void }).gc;
// The longest the event loop was held since the last 'lag' question: what one request can make every other client wait.
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const watch = new TurnWatch();

process.send?.({ origin: running.baseUrl, token: sim.issueToken('bench', 'read-write'), adminToken: sim.adminToken });
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
  if (m === 'rss') {
    gc?.();
    process.send?.(process.memoryUsage().rss);
  }
  if (m === 'lag') {
    // A timer's turn first: a delay is recorded when the held-up timer finally runs.
    setTimeout(() => {
      process.send?.(delay.max / 1e6);
      delay.reset();
    }, 20);
  }
  if (m === 'close') {
    // What serve does on SIGINT/SIGTERM: answers in ms how long close() took, then exits.
    const started = performance.now();
    void running.close().then(() => {
      process.send?.(performance.now() - started);
      setTimeout(() => process.exit(0), 10);
    });
  }
  if (m === 'watch') {
    watch.start();
    process.send?.(0);
  }
  if (m === 'turns') process.send?.(watch.stop());
  if (m === 'requests') process.send?.(requestsRead);
  if (m === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.(user + system);
  }
});
