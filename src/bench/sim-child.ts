/** Child process of the bench: one simulator over HTTP with the given number of accounts, for the kit to load. */
import { DEFAULT_CLIENT_ID, Simulator } from '../sim/simulator.js';
import { listen } from '../sim/server.js';

const accounts = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
const sim = new Simulator({ seed: 42, ...(accounts === undefined ? {} : { accounts }), wallClock: () => Date.now() });
const running = await listen(sim, 0, '127.0.0.1');
const token = sim.issueToken(DEFAULT_CLIENT_ID, 'read-write');
process.send?.({ baseUrl: running.baseUrl, token, vars: { ...sim.seededIds(), admin_token: sim.adminToken, client_id: DEFAULT_CLIENT_ID } });
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
});
