/** The dataset options validator (admin API, snapshots, dataset files). */
import { describe, expect, it } from 'vitest';
import { readDatasetFields } from '../../src/store/dataset-spec.js';

describe('the dataset options validator (admin API, snapshots, dataset files)', () => {
  it.each([
    [{ accounts: -1 }, 'accounts'],
    [{ accounts: 1e9 }, 'accounts'],
    [{ counts: { widgets: 3 } }, 'counts.widgets'],
    [JSON.parse('{"counts": {"__proto__": 3}}') as unknown, 'counts.__proto__'],
    [JSON.parse('{"__proto__": {"accounts": 3}}') as unknown, '__proto__'],
    [{ profile: 'huge' }, 'profile'],
    [{ burst: 0 }, 'burst'],
    [{ seed: 'x' }, 'seed'],
    [{ colour: 'red' }, 'colour'],
  ])('%j is refused at %s', (value, path) => {
    const r = readDatasetFields(value, ['seed', 'accounts', 'counts', 'profile', 'burst']);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.path).toBe(path);
  });

  it('accepts the known members and keeps nothing else', () => {
    expect(readDatasetFields({ seed: 3, accounts: 10, counts: { orders: 4 }, profile: 'shared-timestamps', burst: 200 }, ['seed', 'accounts', 'counts', 'profile', 'burst'])).toEqual({
      ok: true,
      value: { seed: 3, accounts: 10, counts: { orders: 4 }, profile: 'shared-timestamps', burst: 200 },
    });
  });
});
