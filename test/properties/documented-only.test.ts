/**
 * The property suites judge documented rules by documented means only: a deployment that refuses every
 * undocumented part of a request (descending sorts, other operators and attributes, combined clauses,
 * other list paths) but is otherwise correct gets no documented failure, only inconclusive verdicts and
 * assumed rules' observations; a property whose documented verdicts are all inconclusive says so.
 */
import { describe, expect, it } from 'vitest';
import { properties, selectProperties } from '../../src/properties/registry.js';
import { runProperties } from '../../src/properties/runner.js';
import type { PropertyResult } from '../../src/report/model.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { classifyRequest } from '../../src/rules/surface.js';
import { createSimTarget } from '../../src/adapters/simulator.js';
import type { TargetRequest } from '../../src/port.js';
import { SEED, wrap } from './helpers.js';

const documentedFailures = (results: readonly PropertyResult[]): string[] =>
  results.flatMap((r) => r.verdicts.filter((v) => v.outcome.status === 'fail' && ruleById(v.ruleId)?.level === 'documented').map((v) => `${r.name}: ${v.ruleId}`));

const error400 = { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ errors: [{ status: 400, title: 'Bad Request', detail: 'not supported here' }] }) };

/** A list read with a query part the document does not state (sort/filter/page parameters outside it, another list path's sort or filter). */
function undocumentedQuery(req: TargetRequest): boolean {
  if (req.method.toUpperCase() !== 'GET' || !req.url.includes('?')) return false;
  return classifyRequest(req).gaps.some((g) => g.part === 'sort' || g.part === 'filter' || g.part === 'query');
}

describe('a deployment that refuses every undocumented part of a list read', () => {
  it('gets no documented failure from any property, strict or not', async () => {
    for (const strict of [false, true]) {
      const sim = await createSimTarget();
      const target = wrap(sim, async (req, res) => (undocumentedQuery(req) ? error400 : res()));
      const results = await runProperties(properties, { target, ruleById, seed: SEED, runs: 40, strict, allowWrites: true });
      expect(documentedFailures(results), `strict ${String(strict)}`).toEqual([]);
      // What it refused lands on the assumed rules that cover it, never on filter.gt or sort.ascending.
      const sortFilter = results.find((r) => r.name === 'sort-filter');
      const failed = sortFilter?.verdicts.filter((v) => v.outcome.status === 'fail').map((v) => v.ruleId) ?? [];
      expect(failed.length).toBeGreaterThan(0);
      expect(
        failed.every((id) => ruleById(id)?.level === 'assumed'),
        failed.join(', '),
      ).toBe(true);
      // The documented rules are still judged, on the documented reads (under --strict the first assumed failure ends the runs).
      if (!strict)
        for (const id of ['filter.gt', 'filter.ge', 'sort.ascending'] as const) {
          expect(sortFilter?.verdicts.find((v) => v.ruleId === id)?.outcome.status, id).toBe('pass');
        }
    }
  });

  it("the simulator's documented-only surface: no documented failure, the read-only keyset walks pass", async () => {
    const target = await createSimTarget({ surface: 'documented' });
    const results = await runProperties(properties, { target, ruleById, seed: SEED, runs: 30, strict: false, allowWrites: true });
    expect(documentedFailures(results)).toEqual([]);
    const walks = results.find((r) => r.name === 'keyset-reads');
    expect(walks?.status).toBe('pass');
    expect(walks?.verdicts.find((v) => v.ruleId === 'large-data.keyset.id')?.outcome.status).toBe('pass');
    expect(walks?.verdicts.find((v) => v.ruleId === 'large-data.keyset.timestamp')?.outcome.status).toBe('pass');
  });

  it('a property none of whose documented rules could be judged is inconclusive, not pass or fail', async () => {
    const sim = await createSimTarget();
    // Every keyset read is refused for its credentials: not the rule's fault, so no verdict either way.
    const target = wrap(sim, async (req, res) => (req.url.includes('filter=') ? { ...error400, status: 403 } : res()));
    const [r] = await runProperties(selectProperties('keyset-reads'), { target, ruleById, seed: SEED, runs: 20, strict: true });
    expect(r?.status).toBe('inconclusive');
    expect(r?.skipReason).toMatch(/no documented rule judged by documented means/);
    const documented = r?.verdicts.filter((v) => ruleById(v.ruleId)?.level === 'documented') ?? [];
    expect(documented.some((v) => v.outcome.status === 'inconclusive')).toBe(true);
    expect(documented.every((v) => v.outcome.status === 'inconclusive' || v.outcome.status === 'skip')).toBe(true);
  });
});
