/**
 * Child process of the bench's traffic section: one proxy in front of `upstream`, alone in its process
 * so that its CPU time is the proxy's and nothing else's. argv: `bare` (startBareRelay: the undici
 * pass-through, the baseline) or `judging` (startJudgingProxy: the relay, every exchange judged), then
 * the upstream's base URL. Answers 'cpu' (µs used so far), 'relayed' (exchanges relayed, and for the
 * judging proxy judged), 'rss' (after a full collection) and 'stop'.
 */
import { startBareRelay } from '../traffic/relay/relay.js';
import { startJudgingProxy } from '../traffic/proxy/judging-proxy.js';

const mode = process.argv[2] === 'judging' ? 'judging' : 'bare';
const upstream = process.argv[3] ?? '';

const proxy = mode === 'judging' ? await startJudgingProxy({ upstream, port: 0 }) : await startBareRelay({ upstream, port: 0 });
const relayed = () => ('relayed' in proxy ? proxy.relayed : proxy.stats().relayed);
const gc = (globalThis as { gc?: () => void }).gc;

process.send?.({ url: proxy.url });
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
  if (m === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.(user + system);
  }
  // After the turn that finished the last answers: the judge sees each exchange in a setImmediate.
  if (m === 'relayed') setImmediate(() => process.send?.(relayed()));
  if (m === 'rss') {
    gc?.();
    process.send?.(process.memoryUsage().rss);
  }
});
