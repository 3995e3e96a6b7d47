/**
 * The kit never calls a conforming deployment broken: a target that answers 400 or 404 to everything
 * the API document does not state (other operators and attributes, descending sorts, combined clauses,
 * other list paths, settings, account writes, the password-profile reads) and is otherwise the
 * simulator must get zero documented failures from the shipped suite and from every property suite.
 * The same target with a documented behaviour broken still fails that rule.
 */
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/kit/mutation.js';
import { runProperties } from '../../src/properties/runner.js';
import { properties } from '../../src/properties/registry.js';
import type { Verdict } from '../../src/report/model.js';
import { summariseRules } from '../../src/report/summarise.js';
import { catalogue, ruleById } from '../../src/rules/catalogue.js';
import { classifyRequest } from '../../src/rules/surface.js';
import { runScenarios } from '../../src/scenarios/run.js';
import { createSimTarget } from '../../src/target/sim.js';
import type { Target, TargetResponse } from '../../src/target/types.js';

const refusal = (status: number, title: string): TargetResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ errors: [{ status: String(status), title }] }),
});

/** The simulator, refusing every request outside the documented surface (the token endpoint and admin API stay). */
async function refusingTarget(deviate: string[] = []): Promise<Target> {
  const sim = await createSimTarget({ deviate, wallClock: () => Date.UTC(2025, 0, 1) });
  return {
    ...sim,
    kind: 'sim',
    send(request) {
      const path = request.url.split('?')[0] ?? '';
      if (path.startsWith('/__sim/') || path.startsWith('/oauth/')) return sim.send(request);
      const c = classifyRequest(request);
      if (c.inside) return sim.send(request);
      return Promise.resolve(c.operation === undefined ? refusal(404, 'Not Found') : refusal(400, 'Bad Request'));
    },
    close: () => sim.close(),
  };
}

const documentedFailures = (verdicts: readonly Verdict[]) =>
  verdicts.filter((v) => v.outcome.status === 'fail' && ruleById(v.ruleId)?.level === 'documented').map((v) => `${v.ruleId}: ${v.outcome.status === 'fail' ? v.outcome.message : ''}`);

describe('a deployment that implements only the document', () => {
  it('fails no documented rule in the shipped suite, and judges most of them', async () => {
    const target = await refusingTarget();
    try {
      const results = await runScenarios(await loadSuite(), { target, ruleById, concurrency: 1 });
      const verdicts = results.flatMap((s) => s.steps.flatMap((st) => st.verdicts));
      expect(documentedFailures(verdicts)).toEqual([]);
      const rules = summariseRules(catalogue, results, []);
      const documented = rules.filter((r) => r.level === 'documented');
      // Judged (pass) unless its only evidence needs an undocumented operation.
      const unjudged = documented.filter((r) => r.status !== 'pass').map((r) => r.id);
      expect(unjudged).toEqual([
        'pagination.limit.project-setting', // the settings endpoint's path is not in the document
        'large-data.updates-during-traversal', // needs an account write
        'large-data.deletes-invisible', // needs an account delete
      ]);
      expect(results.some((s) => s.status === 'inconclusive')).toBe(true);
    } finally {
      await target.close();
    }
  });

  it('fails no documented rule in any property suite', async () => {
    const target = await refusingTarget();
    try {
      const results = await runProperties(properties, { target, ruleById, seed: 7, runs: 25, strict: false, allowWrites: true });
      expect(documentedFailures(results.flatMap((r) => r.verdicts))).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('still fails the rule a documented break breaks', async () => {
    for (const rule of ['pagination.page.total', 'sort.ascending', 'filter.gt', 'create.links.self']) {
      const target = await refusingTarget([rule]);
      try {
        const results = await runScenarios(await loadSuite(), { target, ruleById, concurrency: 1 });
        const failed = summariseRules(catalogue, results, []).filter((r) => r.status === 'fail').map((r) => r.id);
        expect(failed, rule).toContain(rule);
      } finally {
        await target.close();
      }
    }
  });
});
