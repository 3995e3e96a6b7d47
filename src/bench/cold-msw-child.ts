/**
 * The same cold start with msw (the baseline): import msw, `setupServer(handler).listen()`, one fetch it
 * intercepts and answers. Prints the phases in ms as one JSON line.
 */
const t0 = performance.now();
const [{ setupServer }, { http, HttpResponse }] = await Promise.all([import('msw/node'), import('msw')]);
const imported = performance.now();
const server = setupServer(http.get('http://api.test/v2/accounts', () => HttpResponse.json({ data: [{ id: '1', type: 'account' }] })));
server.listen({ onUnhandledRequest: 'error' });
const started = performance.now();
const res = await fetch('http://api.test/v2/accounts?page[limit]=2', { headers: { authorization: 'Bearer token' } });
const body = await res.text();
const answered = performance.now();
server.close();
if (res.status !== 200 || !body.startsWith('{"data":[')) throw new Error(`msw answered ${res.status}: ${body.slice(0, 200)}`);
process.stdout.write(`${JSON.stringify({ import: imported - t0, start: started - imported, first: answered - started, total: answered - t0 })}\n`);
