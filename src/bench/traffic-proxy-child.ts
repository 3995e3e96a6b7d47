/**
 * Child process of the bench's traffic section: one proxy in front of `upstream`, alone in its process
 * so that its CPU time (every thread's) is the proxy's and nothing else's. argv: the mode, then the
 * upstream's base URL, then (for `har`) a file:
 * - `floor`: the relay capturing every exchange and parsing each answer once, judging nothing: the floor
 *   any judging proxy stands on;
 * - `judging`: startJudgingProxy, every exchange judged (in its worker thread; its backlog unbounded);
 * - `har`: the same, writing the HAR too;
 * - `default`: startJudgingProxy as `commerce-sim proxy` runs it (the backlog bounded: clients shed when behind).
 * Answers 'cpu' (µs used so far, once the judge has caught up: judging that lags counts), 'relayed',
 * 'rss' (now), 'judged' (closes the proxy: the exchanges its judge judged) and 'stop'.
 */
import { startJudgingProxy, type JudgingProxy } from '../traffic/proxy/judging-proxy.js';
import { startRelay, type Relay } from '../traffic/relay/relay.js';

const mode = process.argv[2] ?? 'floor';
const upstream = process.argv[3] ?? '';
const har = process.argv[4];

let relay: Relay | undefined;
let judging: JudgingProxy | undefined;
if (mode === 'floor') relay = await startRelay({ upstream, port: 0, onExchange: (e) => void e.exchange.json });
// The CPU figures are of every exchange judged: the backlog is unbounded there (the proxy's default would shed).
else if (mode === 'default') judging = await startJudgingProxy({ upstream, port: 0 });
else judging = await startJudgingProxy({ upstream, port: 0, maxBacklogBytes: Number.MAX_SAFE_INTEGER, ...(mode === 'har' && har !== undefined ? { har } : {}) });

const relayed = () => judging?.relayed ?? relay?.stats().relayed ?? 0;

/** Resolves once the judge has judged everything handed to it (after the turn that finished the last answers). */
const caughtUp = async (): Promise<void> => {
  await new Promise((r) => setImmediate(r));
  while ((judging?.pending() ?? 0) > 0) await new Promise((r) => setTimeout(r, 5));
};

process.send?.({ url: judging?.url ?? relay?.url ?? '' });
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
  if (m === 'cpu') {
    void caughtUp().then(() => {
      const { user, system } = process.cpuUsage();
      process.send?.(user + system);
    });
  }
  if (m === 'relayed') void caughtUp().then(() => process.send?.(relayed()));
  if (m === 'rss') process.send?.(process.memoryUsage().rss);
  // The proxy closed: the exchanges its judge judged (the rest of those relayed were shed).
  if (m === 'judged') void (judging?.close() ?? Promise.resolve(undefined)).then((r) => process.send?.(r?.entries ?? relayed()));
});
