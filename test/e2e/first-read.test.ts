/**
 * No first read pays for the seeded data (issue 18): a served simulator of WARM_BEFORE_LISTEN seeded
 * records or more builds every seeded record and index before its port opens, and a reseed over HTTP
 * builds the new data between other requests, which see the old data until the reseed is answered. A
 * smaller one opens its port at once and builds each collection on the read that needs it (issue 35: a
 * test file's cold start), answering the same bytes (test/kit/right-after-start.test.ts: and a restore,
 * reset or snapshot coming first).
 */
import { describe, expect, it } from 'vitest';
import { listen, WARM_BEFORE_LISTEN } from '../../src/sim/server.js';
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

  it('below WARM_BEFORE_LISTEN the port opens before anything is built, and the lazily built answers are those of a warmed simulator', async () => {
    const accounts = WARM_BEFORE_LISTEN / 2;
    const lazy = new Simulator({ seed: 42, accounts, wallClock: () => 0 });
    const warmed = new Simulator({ seed: 42, accounts, wallClock: () => 0 });
    const probe = new Simulator({ seed: 42, accounts, wallClock: () => 0 });
    const whole = countSteps(warmed);
    const servers = [await listen(lazy, 0, '127.0.0.1'), await listen(warmed, 0, '127.0.0.1'), await listen(probe, 0, '127.0.0.1')];
    try {
      // Nothing was built by listen: a warm of the served probe does all of it, as of a fresh simulator; a second warm, next to nothing.
      expect(countSteps(probe)).toBe(whole);
      expect(countSteps(probe)).toBeLessThan(whole / 2);
      const reads = [
        '/v2/accounts?page[limit]=3',
        '/v2/accounts?sort=-created_at&page[limit]=5',
        '/v2/accounts?filter=gt(created_at,2020-01-01T00:00:00Z)&page[offset]=40',
        '/v2/orders?page[offset]=7',
        '/v2/files',
      ];
      for (const read of reads) {
        const [a, b] = await Promise.all(
          [lazy, warmed].map(async (sim, i) => {
            const res = await fetch(`${servers[i]?.baseUrl ?? ''}${read}`, { headers: { authorization: `Bearer ${sim.issueToken('a', 'read-write')}` } });
            expect(res.status, read).toBe(200);
            // The links name each server's own port: the same once it is taken out.
            return (await res.text()).replaceAll(servers[i]?.baseUrl ?? '', 'BASE');
          }),
        );
        expect(a, read).toBe(b);
      }
    } finally {
      for (const s of servers) await s.close();
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
