/**
 * The judge's memory budget (src/traffic/judge/budget.ts) counts an exchange held by several holders once
 * (issue 34: a list read is in its walk's chunk and its session's, and counted twice the chunks flushed at a
 * quarter of their size), while each holder's share still counts it. Sizes come from the estimate's own
 * terms (512 + URL + request body + 4 × answer), worked out here by hand.
 */
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { HeldBudget } from '../../src/traffic/judge/budget.js';

const entry = (url: string, body: string): TrafficEntry => ({
  exchange: toExchange({ method: 'GET', url }, { status: 200, headers: {}, body }),
  origin: 'https://api.example.test',
  source: url,
});
// 512 + 12 + 0 + 4 × 100 = 924 bytes each.
const a = entry('/v2/accounts', 'a'.repeat(100));
const b = entry('/v2/accounts', 'b'.repeat(100));
const SIZE = 924;

describe('HeldBudget', () => {
  it('counts an exchange held by two holders once, and each holder its share', () => {
    const budget = new HeldBudget<string>(1e9, () => false);
    budget.add('walk', a);
    budget.add('session', a);
    expect(budget.bytes).toBe(SIZE);
    expect([budget.holds('walk'), budget.holds('session')]).toEqual([SIZE, SIZE]);
    budget.release('walk', [a]);
    expect([budget.bytes, budget.holds('walk'), budget.holds('session')]).toEqual([SIZE, 0, SIZE]);
    budget.release('session', [a]);
    expect(budget.bytes).toBe(0);
  });

  it('keeps what a holder still holds: its share is what it kept, the total what anyone holds', () => {
    const budget = new HeldBudget<string>(1e9, () => false);
    budget.add('walk', a);
    budget.add('walk', b);
    budget.add('session', a);
    expect(budget.bytes).toBe(2 * SIZE);
    budget.release('walk', [a], [b]);
    expect([budget.bytes, budget.holds('walk'), budget.holds('session')]).toEqual([2 * SIZE, SIZE, SIZE]);
  });

  it('asks the largest holder to free once the total passes the budget, not when shares alone would', () => {
    const asked: string[] = [];
    const lists = new Map<string, TrafficEntry[]>();
    const budget: HeldBudget<string> = new HeldBudget<string>(2 * SIZE, (largest) => {
      const h = String(largest);
      asked.push(h);
      budget.release(h, lists.get(h) ?? []);
      lists.set(h, []);
      return true;
    });
    const hold = (h: string, e: TrafficEntry) => {
      lists.set(h, [...(lists.get(h) ?? []), e]);
      budget.add(h, e);
    };
    hold('walk', a);
    hold('session', a);
    hold('walk', b);
    hold('session', b);
    // Shares 2 × SIZE each, 4 × SIZE together, but two exchanges held: 2 × SIZE, within the budget.
    expect([asked, budget.bytes]).toEqual([[], 2 * SIZE]);
    // A third exchange passes it: the largest holder (the walk, 3 × SIZE) is judged and let go.
    hold('walk', entry('/v2/orders', 'c'.repeat(100)));
    expect(asked).toEqual(['walk']);
    // What the session still holds stays counted.
    expect(budget.bytes).toBe(2 * SIZE);
  });

  it("counts the request body in an exchange's size", () => {
    const budget = new HeldBudget<string>(1e9, () => false);
    const withBody: TrafficEntry = {
      exchange: toExchange({ method: 'POST', url: '/v2/accounts', body: 'x'.repeat(50) }, { status: 201, headers: {}, body: 'a'.repeat(100) }),
      origin: 'https://api.example.test',
      source: 'create',
    };
    budget.add('session', withBody);
    expect(budget.bytes).toBe(SIZE + 50);
  });

  it('lets go of nothing for a holder that holds nothing, or of an exchange no one holds', () => {
    const budget = new HeldBudget<string>(1e9, () => false);
    budget.add('walk', a);
    budget.release('nobody', [a]);
    expect([budget.bytes, budget.holds('walk')]).toEqual([SIZE, SIZE]);
    budget.release('walk', [b], [a]);
    expect([budget.bytes, budget.holds('walk')]).toEqual([SIZE, SIZE]);
    budget.release('walk', [a]);
    expect(budget.bytes).toBe(0);
  });

  it('keeps asking until the total fits, and stops when nothing more can be freed', () => {
    const asked: string[] = [];
    const budget: HeldBudget<string> = new HeldBudget<string>(SIZE, (largest) => {
      asked.push(String(largest));
      // The first answer frees nothing yet (a walk whose chunk was judged holds its last page): the loop asks again.
      if (asked.length > 1) budget.release(String(largest), [a, b]);
      return true;
    });
    budget.add('walk', a);
    budget.add('walk', b);
    expect([asked, budget.bytes]).toEqual([['walk', 'walk'], 0]);
    // A free that can let go of nothing says so: the budget stops asking (no endless loop) and stays over.
    const stuck = new HeldBudget<string>(SIZE, () => false);
    stuck.add('walk', a);
    stuck.add('walk', b);
    expect(stuck.bytes).toBe(2 * SIZE);
  });

  it('does not free again from inside a free (a walk ended while freeing holds its last page anew)', () => {
    let calls = 0;
    let inside = 0;
    let deepest = 0;
    const budget: HeldBudget<string> = new HeldBudget<string>(SIZE, (largest) => {
      calls++;
      inside++;
      deepest = Math.max(deepest, inside);
      // Holding more while freeing passes the budget again: the outer loop, not a nested one, deals with it.
      if (calls === 1) budget.add('other', entry('/v2/files', 'f'.repeat(100)));
      budget.release(String(largest), [a, b]);
      inside--;
      return calls < 5;
    });
    budget.add('walk', a);
    budget.add('walk', b);
    expect(deepest).toBe(1);
  });
});
