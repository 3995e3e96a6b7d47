/**
 * No first read pays for the seeded data (issue 18): a served simulator builds every seeded record and
 * index before its port opens, and a reseed over HTTP builds the new data between other requests,
 * which see the old data until the reseed is answered.
 */
import { describe, expect, it } from 'vitest';
import { listen } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';

const countSteps = (sim: Simulator): number => {
  const steps = sim.warm();
  let n = 0;
  while (steps.next().done !== true) n++;
  return n;
};

describe('the seeded data is ready before the first read', () => {
  it('listen() builds every seeded record and index before the port opens: nothing is left to build after', async () => {
    const sim = new Simulator({ seed: 42, accounts: 50_000, wallClock: () => Date.now() });
    const server = await listen(sim, 0, '127.0.0.1');
    try {
      // A second warm finds everything built: a few steps (one per index), not thousands.
      expect(countSteps(sim)).toBeLessThan(200);
      expect(countSteps(new Simulator({ seed: 42, accounts: 50_000, wallClock: () => 0 }))).toBeGreaterThan(200);
    } finally {
      await server.close();
    }
  });

  it('a served reseed builds the new data between other requests, which see the old data until it is answered', async () => {
    const sim = new Simulator({ seed: 42, accounts: 100, wallClock: () => Date.now() });
    const token = sim.issueToken('a', 'read-write');
    const server = await listen(sim, 0, '127.0.0.1');
    const order: string[] = [];
    const total = async () => {
      const res = await fetch(`${server.baseUrl}/v2/accounts?page[limit]=1`, { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { meta: { results: { total: number } } }).meta.results.total;
    };
    try {
      const reseed = fetch(`${server.baseUrl}/__sim/seed`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sim.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ accounts: 200_000 }),
      }).then(async (res) => {
        order.push(`reseed ${res.status}`);
        return res.status;
      });
      await new Promise((r) => setTimeout(r, 20));
      const during = await total();
      order.push(`read ${during}`);
      expect(await reseed).toBe(200);
      expect(order).toEqual(['read 100', 'reseed 200']);
      expect(await total()).toBe(200_000);
      expect(countSteps(sim)).toBeLessThan(200);
    } finally {
      await server.close();
    }
  });
});
