/**
 * A served list page is built as bytes in parts (sim/body-parts.ts), copied into a reused buffer: the
 * same bytes as the in-process text, and the records as they were when the page was read, not when it
 * was written to the socket.
 */
import { describe, expect, it } from 'vitest';
import { listen } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';

const PAGES = ['/v2/accounts?page[limit]=100&page[offset]=7', '/v2/accounts?sort=-updated_at&page[limit]=3', '/v2/orders?page[limit]=0', '/v2/accounts?filter=eq(name,nobody)'];

describe('served list pages', () => {
  it('are byte for byte the in-process answers, page after page on one connection', async () => {
    const served = new Simulator({ seed: 9, accounts: 400, wallClock: () => 0 });
    const local = new Simulator({ seed: 9, accounts: 400, wallClock: () => 0 });
    const token = served.issueToken('a', 'read-write');
    expect(local.issueToken('a', 'read-write')).toBe(token);
    const server = await listen(served, 0, '127.0.0.1');
    local.baseUrl = served.baseUrl;
    try {
      for (let round = 0; round < 3; round++)
        for (const path of PAGES) {
          const res = await fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
          const expected = local.handle({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` }, body: '' });
          expect(res.status).toBe(expected.status);
          expect(await res.text()).toBe(expected.body);
        }
    } finally {
      await server.close();
    }
  });

  it('show the records as they were when read, though injected latency sends them after a later write', async () => {
    const sim = new Simulator({ seed: 9, accounts: 20, wallClock: () => 0 });
    const token = sim.issueToken('a', 'read-write');
    const admin = { authorization: `Bearer ${sim.adminToken}` };
    expect(sim.handle({ method: 'PUT', url: '/__sim/adversity?client_id=a', headers: admin, body: JSON.stringify({ latency_ms: 300, fault_path: '/v2/accounts' }) }).status).toBe(200);
    const server = await listen(sim, 0, '127.0.0.1');
    try {
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const before = sim.handle({ method: 'GET', url: '/v2/accounts?sort=id&page[limit]=1', headers: auth, body: '' });
      const id = (JSON.parse(before.body) as { data: { id: string; name: string }[] }).data[0]?.id ?? '';
      const slow = fetch(`${server.baseUrl}/v2/accounts?page[limit]=25&sort=id`, { headers: auth }).then((r) => r.text());
      await new Promise((r) => setTimeout(r, 50));
      const renamed = await fetch(`${server.baseUrl}/v2/accounts/${id}`, { method: 'PUT', headers: auth, body: JSON.stringify({ data: { type: 'account', name: 'Renamed meanwhile' } }) });
      expect(renamed.status).toBe(200);
      const page = await slow;
      expect(page).toContain(`"id":"${id}"`);
      expect(page).not.toContain('Renamed meanwhile');
    } finally {
      await server.close();
    }
  });
});
