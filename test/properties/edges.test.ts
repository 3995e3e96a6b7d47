/**
 * The misses of the properties: servers wrong only at an edge. A largest page of 99 (meta.page.limit 99
 * for page[limit]=100), a page count one too high at an exact multiple of the limit, links.next on a last
 * page that ends exactly at the total. Each is caught on several seeds, not by chance; the same target
 * unbroken passes.
 */
import { describe, expect, it } from 'vitest';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { selectProperties } from '../../src/properties/registry.js';
import { runProperties } from '../../src/properties/runner.js';
import { edgeReads } from '../../src/properties/page-arithmetic.js';
import { ruleById } from '../../src/rules/catalogue.js';
import type { Target, TargetResponse } from '../../src/port.js';
import { failing, wrap } from './helpers.js';

interface ListBody {
  data: unknown[];
  meta: { page: { limit: number; offset: number; total: number }; results: { total: number } };
  links?: Record<string, unknown>;
}
type Edit = (url: URL, body: ListBody) => void;

/** The simulator with every 200 list answer edited by `edit` (the request's URL given). */
async function broken(edit: Edit | undefined): Promise<Target> {
  const sim = await createSimTarget();
  if (edit === undefined) return sim;
  return wrap(sim, async (req, res) => {
    const r: TargetResponse = await res();
    if (r.status !== 200 || req.method !== 'GET') return r;
    const body = JSON.parse(r.body) as Partial<ListBody>;
    if (!Array.isArray(body.data) || body.meta?.page === undefined) return r;
    edit(new URL(req.url, 'http://x'), body as ListBody);
    return { ...r, body: JSON.stringify(body) };
  });
}

/** Largest page 99: page[limit]=100 answers 99 records, meta.page.limit 99. */
const largest99: Edit = (url, body) => {
  if (url.searchParams.get('page[limit]') !== '100') return;
  body.data = body.data.slice(0, 99);
  body.meta.page.limit = 99;
};
/** One page too many when the total is an exact multiple of the limit. */
const totalAtMultiple: Edit = (_url, body) => {
  const { page, results } = body.meta;
  if (results.total > 0 && results.total % page.limit === 0) page.total += 1;
};
/** links.next on the last page when it ends exactly at the total. */
const nextAtMultiple: Edit = (_url, body) => {
  const { page, results } = body['meta'];
  if (results.total > 0 && page.offset + page.limit === results.total && body['links'] !== undefined)
    body['links'].next = `http://x/v2/accounts?page[limit]=${page.limit}&page[offset]=${results.total}`;
};

async function run(name: string, edit: Edit | undefined, seed: number, strict: boolean) {
  const target = await broken(edit);
  try {
    const [result] = await runProperties(selectProperties(name), { target, ruleById, seed, runs: 100, strict });
    if (result === undefined) throw new Error(name);
    return result;
  } finally {
    await target.close();
  }
}

const SEEDS = [1, 2, 3];

describe('page arithmetic at its edges', () => {
  it('reads at the edges of every total: limits dividing it, equal to it or one off, the last page and one either side, 0 records', () => {
    const reads = edgeReads(120);
    expect(reads).toContainEqual({ limit: 40, offset: 80 });
    expect(reads).toContainEqual({ limit: 100, offset: 100 });
    expect(reads).toContainEqual({ limit: 60, offset: 60 });
    expect(reads).toContainEqual({ limit: 99, offset: 21 });
    expect(reads).toContainEqual({ limit: 1, offset: 119 });
    expect(reads).toContainEqual({ limit: 1, offset: 120 });
    expect(edgeReads(0)).toContainEqual({ limit: 1, offset: 0 });
    expect(reads.every((r) => r.limit >= 1 && r.limit <= 100 && r.offset >= 0)).toBe(true);
  });

  it.each(SEEDS)(
    'catches a largest page of 99 in every property that reads lists (seed %i)',
    async (seed) => {
      for (const name of ['page-arithmetic', 'keyset-reads', 'sort-filter']) expect(failing(await run(name, largest99, seed, false)), name).toContain('pagination.limit.per-call');
    },
    60_000,
  );

  it.each(SEEDS)(
    'catches page.total one too high at an exact multiple, and links.next on a last page ending at the total (seed %i)',
    async (seed) => {
      expect(failing(await run('page-arithmetic', totalAtMultiple, seed, false))).toContain('pagination.page.total');
      expect(failing(await run('page-arithmetic', nextAtMultiple, seed, true))).toContain('pagination.links.consistent');
    },
    60_000,
  );

  it('passes the same simulator unbroken', async () => {
    for (const name of ['page-arithmetic', 'keyset-reads', 'sort-filter']) expect((await run(name, undefined, 1, true)).status, name).toBe('pass');
  }, 60_000);
});
