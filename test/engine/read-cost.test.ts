import { describe, expect, it } from 'vitest';
import type { FilterClause } from '../../src/engine/filter.js';
import { clauseCost, lookupCost, sortCost, testCost, visitCost } from '../../src/engine/read-cost.js';

const like = (pattern: string, op: 'like' | 'ilike' = 'like'): FilterClause => ({ op, field: 'name', values: [pattern] });
const short = () => 20;

describe('what a record costs under a filter (units of --max-scan)', () => {
  it('one record in created_at order with one simple pattern over short values is one unit, so --max-scan keeps its meaning for the common read', () => {
    expect(visitCost('created_at', 'asc', true) + testCost([like('*1*')], short, false)).toBe(1);
    expect(visitCost('created_at', 'asc', false)).toBeLessThan(visitCost('created_at', 'asc', true));
  });

  it('records reached out of the order they were created in cost more: id and name order miss the cache on each', () => {
    expect(visitCost('updated_at', 'asc', true)).toBeGreaterThan(visitCost('created_at', 'asc', true));
    expect(visitCost('id', 'asc', true)).toBeGreaterThan(10 * visitCost('created_at', 'asc', true));
    expect(visitCost('name', 'desc', false)).toBe(visitCost('id', 'asc', false));
  });

  it('each part of a pattern costs a search, up to what a value of the longest length can need; empty parts cost nothing', () => {
    const parts = (n: number) => clauseCost(like(`${'*a'.repeat(n)}*`), 20);
    expect(parts(10)).toBeGreaterThan(parts(1));
    expect(parts(1000)).toBe(parts(21));
    expect(clauseCost(like('*'.repeat(4000)), 20)).toBeLessThanOrEqual(clauseCost(like('*'), 20));
  });

  it('long values make a search costly (a repetitive value is read character by character); ilike copies the value first', () => {
    expect(clauseCost(like('*aab*'), 255)).toBeGreaterThan(10 * clauseCost(like('*aab*'), 20));
    expect(clauseCost({ op: 'contains', field: 'name', values: ['aab'] }, 255)).toBeGreaterThan(10);
    expect(clauseCost(like('*a*', 'ilike'), 20)).toBeGreaterThan(clauseCost(like('*a*'), 20));
  });

  it('ten clauses cost ten tests; the consistency window adds its own', () => {
    const ten = Array.from({ length: 10 }, () => like('*1*'));
    expect(testCost(ten, short, false)).toBeCloseTo(10 * testCost([like('*1*')], short, false));
    expect(testCost([like('*1*')], short, true)).toBeGreaterThan(testCost([like('*1*')], short, false));
  });

  it('sorting grows as k·log k, and text sorts cost more than timestamps; looking ids up costs per value', () => {
    expect(sortCost('created_at', 1)).toBe(0);
    expect(sortCost('created_at', 2000)).toBeGreaterThan(2 * sortCost('created_at', 1000));
    expect(sortCost('name', 1000)).toBeGreaterThan(sortCost('created_at', 1000));
    expect(lookupCost('id', 4000, 2, 1_000_000)).toBe(2 * lookupCost('id', 2000, 2, 1_000_000));
  });
});
