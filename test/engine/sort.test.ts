import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/engine/api-errors.js';
import { compareBy, parseSort, type SortSpec } from '../../src/engine/sort.js';

const allowed = ['created_at', 'id', 'name', 'updated_at'] as const;

interface Rec {
  readonly id: string;
  readonly name?: string | null;
  readonly created_at?: string;
}
const get = (r: Rec, field: string): string | null | undefined => (field === 'id' ? r.id : field === 'name' ? r.name : field === 'created_at' ? r.created_at : undefined);

function refusal(d: Decision<unknown>): { status: number; detail: string | undefined } {
  if (d.ok) throw new Error('expected a refusal');
  return { status: d.error.status, detail: d.error.detail };
}
const ids = (records: readonly Rec[]): string[] => records.map((r) => r.id);

describe('parseSort', () => {
  it('reads attr as ascending and -attr as descending', () => {
    expect(parseSort('created_at', allowed)).toEqual({ ok: true, value: { field: 'created_at', direction: 'asc' } });
    expect(parseSort('-id', allowed)).toEqual({ ok: true, value: { field: 'id', direction: 'desc' } });
  });

  it('reads a raw + (decoded to a space) as ascending', () => {
    expect(parseSort(' name', allowed)).toEqual({ ok: true, value: { field: 'name', direction: 'asc' } });
  });

  it.each(['colour', 'ID', '--id', 'id,name', 'name desc'])('refuses the attribute %j', (text) => {
    const field = text.startsWith('-') ? text.slice(1) : text;
    expect(refusal(parseSort(text, allowed))).toEqual({ status: 400, detail: `Unsupported sort attribute: ${field}` });
  });

  it.each(['', '   ', '-'])('refuses the empty attribute %j', (text) => {
    expect(refusal(parseSort(text, allowed))).toEqual({ status: 400, detail: 'Sort attribute must not be empty' });
  });

  it('refuses everything when nothing is allowed', () => {
    expect(refusal(parseSort('id', [])).status).toBe(400);
  });
});

describe('compareBy', () => {
  const sortBy = (sort: SortSpec, kind: 'string' | 'timestamp', records: readonly Rec[]): string[] => ids([...records].sort(compareBy(sort, kind, get)));

  const people: Rec[] = [{ id: 'c', name: 'Bob' }, { id: 'a', name: 'Bob' }, { id: 'd', name: 'Al' }, { id: 'b', name: null }, { id: 'e' }, { id: 'f', name: 'al' }];

  it('sorts ascending by code unit order, missing values first, ties by id', () => {
    expect(sortBy({ field: 'name', direction: 'asc' }, 'string', people)).toEqual(['b', 'e', 'd', 'a', 'c', 'f']);
  });

  it('sorts descending, missing values last, ties still by ascending id', () => {
    expect(sortBy({ field: 'name', direction: 'desc' }, 'string', people)).toEqual(['f', 'a', 'c', 'd', 'b', 'e']);
  });

  it('sorts by id in both directions', () => {
    expect(sortBy({ field: 'id', direction: 'asc' }, 'string', people)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(sortBy({ field: 'id', direction: 'desc' }, 'string', people)).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
  });

  it('sorts timestamps by instant, whatever their precision or zone', () => {
    const records: Rec[] = [
      { id: 'late', created_at: '2024-01-01T00:00:01Z' },
      { id: 'tie-b', created_at: '2024-01-01T00:00:00.500Z' },
      { id: 'early', created_at: '2024-01-01T00:00:00Z' },
      { id: 'tie-a', created_at: '2024-01-01T01:00:00.5+01:00' },
      { id: 'mid', created_at: '2024-01-01T00:00:00.9Z' },
    ];
    // Text order would put 'early' (…00Z) after 'tie-b' (…00.500Z): instant order must not.
    expect(sortBy({ field: 'created_at', direction: 'asc' }, 'timestamp', records)).toEqual(['early', 'tie-a', 'tie-b', 'mid', 'late']);
    expect(sortBy({ field: 'created_at', direction: 'desc' }, 'timestamp', records)).toEqual(['late', 'mid', 'tie-a', 'tie-b', 'early']);
  });

  it('is a total order: 0 only for the same id, and antisymmetric', () => {
    const cmp = compareBy({ field: 'name', direction: 'desc' }, 'string', get);
    for (const x of people) {
      for (const y of people) {
        const c = cmp(x, y);
        if (x.id === y.id) expect(Object.is(c, 0)).toBe(true);
        else expect(Math.sign(c)).toBe(-Math.sign(cmp(y, x)));
      }
    }
  });

  it('gives the same order whatever the input order', () => {
    const sort: SortSpec = { field: 'name', direction: 'asc' };
    expect(sortBy(sort, 'string', [...people].reverse())).toEqual(sortBy(sort, 'string', people));
  });
});
