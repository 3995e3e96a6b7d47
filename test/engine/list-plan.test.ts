/** The list planner decides everything of a list read; each deviation shows as one field of the plan. */
import { describe, expect, it } from 'vitest';
import { NO_DEVIATIONS, type Deviations } from '../../src/engine/deviations.js';
import { planList, type ListResource } from '../../src/engine/list-plan.js';
import { parseQuery } from '../../src/engine/query.js';
import { accounts } from '../../src/store/resources.js';

const target = (name = 'accounts'): ListResource => ({ ...accounts, name });
const limits = { pageLength: 25, pageOffsetLimit: 10_000 };
const plan = (query: string, deviations: Deviations = NO_DEVIATIONS, name?: string) => {
  const q = parseQuery(query);
  if (!q.ok) throw new Error('bad query');
  const p = planList(q.value, target(name), limits, deviations);
  if (!p.ok) throw new Error(p.error.detail);
  return p.value;
};
const dev = (...ids: string[]): Deviations => new Set(ids);

describe('planList', () => {
  it('plans the documented defaults: created_at ascending, the project page length, offset 0, the whole envelope', () => {
    expect(plan('')).toEqual({
      sort: { field: 'created_at', direction: 'asc' },
      clauses: [],
      page: { limit: 25, offset: 0 },
      offset: 0,
      limit: 25,
      rereadWhenUniform: false,
      dropHighestId: false,
      totalIgnoresFilter: false,
      envelope: 'full',
    });
  });

  it('reads sort, filter and page; refuses what it cannot plan with the API error', () => {
    const p = plan('sort=-updated_at&filter=gt(id,abc)&page[limit]=5&page[offset]=10');
    expect(p).toMatchObject({ sort: { field: 'updated_at', direction: 'desc' }, clauses: [{ op: 'gt', field: 'id', values: ['abc'] }], offset: 10, limit: 5 });
    const q = parseQuery('sort=nonsense');
    if (!q.ok) throw new Error('bad query');
    expect(planList(q.value, target(), limits, NO_DEVIATIONS).ok).toBe(false);
  });

  it.each([
    ['sort.ascending', 'sort=created_at', { sort: { field: 'id', direction: 'asc' } }],
    ['filter.gt', 'filter=gt(id,a)', { clauses: [{ op: 'ge', field: 'id', values: ['a'] }] }],
    ['filter.ge', 'filter=ge(id,a)', { clauses: [{ op: 'gt', field: 'id', values: ['a'] }] }],
    ['large-data.keyset.timestamp', 'sort=updated_at&filter=ge(updated_at,2024-01-01T00:00:00Z)', { sort: { field: 'id', direction: 'asc' } }],
    ['large-data.shared-timestamp', 'page[offset]=5', { rereadWhenUniform: true }],
    ['large-data.keyset.id', 'sort=id&filter=gt(id,a)', { dropHighestId: true }],
    ['filter.results-total', 'filter=gt(id,a)', { totalIgnoresFilter: true }],
    ['pagination.meta.present-when-empty', '', { envelope: 'data-only-when-empty' }],
  ])('%s bends exactly its part of the plan', (id, query, bent) => {
    expect(plan(query)).not.toMatchObject(bent);
    expect(plan(query, dev(id))).toMatchObject(bent);
  });

  it('pagination.endpoints.listed drops the envelope of /v2/files only', () => {
    expect(plan('', dev('pagination.endpoints.listed'), 'files').envelope).toBe('data-only');
    expect(plan('', dev('pagination.endpoints.listed'), 'accounts').envelope).toBe('full');
  });
});
