/**
 * One cold start of a test file that uses the simulator, in a fresh process: import the package's main
 * entry as a user's test does (by name: the bundle `exports` points to),
 * `startSimulator()`, one list read answered over loopback. Prints the phases in ms as one JSON line.
 */
import type * as Main from '../index.js';

// By name, through the package's own `exports` (a self-reference), not by path to a compiled file.
const MAIN = 'commerce-sim';
const t0 = performance.now();
const { startSimulator } = (await import(MAIN)) as typeof Main;
const imported = performance.now();
const sim = await startSimulator();
const started = performance.now();
const res = await fetch(`${sim.baseUrl}/v2/accounts?page[limit]=2`, { headers: { authorization: `Bearer ${sim.token}` } });
const body = await res.text();
const answered = performance.now();
await sim.close();
if (res.status !== 200 || !body.startsWith('{"data":[')) throw new Error(`the simulator answered ${res.status}: ${body.slice(0, 200)}`);
process.stdout.write(`${JSON.stringify({ import: imported - t0, start: started - imported, first: answered - started, total: answered - t0 })}\n`);
