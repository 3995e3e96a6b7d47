/**
 * §4.3's further paging judged on data whose runs of equal timestamps are shorter than the walk's page
 * (40 against 50): the shared-timestamp walk finds a run and reads it with a page one record shorter.
 */
import { describe, expect, it } from 'vitest';
import { createSimTarget, simTargetOf } from '../../src/adapters/simulator.js';
import { Simulator } from '../../src/sim/simulator.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { ruleById } from '../../src/rules/catalogue.js';
import type { RuleId } from '../../src/rules/ids.js';
import type { Scenario } from '../../src/scenarios/format.js';
import { runScenarios } from '../../src/scenarios/runner.js';

const RULE = 'large-data.shared-timestamp';

async function verdicts(scenarios: readonly Scenario[], deviate: readonly RuleId[], burst: number) {
  const target = simTargetOf(new Simulator({ profile: 'shared-timestamps', burst, accounts: 300, deviate, wallClock: () => 0 }));
  try {
    const results = await runScenarios(scenarios, { target, ruleById });
    return results.flatMap((r) => r.steps.map((s) => ({ step: s.name, status: s.verdicts.find((v) => v.ruleId === RULE)?.outcome.status }))).filter((v) => v.status !== undefined);
  } finally {
    await target.close();
  }
}

describe('the shared-timestamp walk', () => {
  it('judges further paging where every run of equal created_at is shorter than the walk page (40 against 50), and fails a server that ignores page[offset] on uniform pages', async () => {
    const keyset = (await loadSuite()).filter((s) => s.file.endsWith('large-data/keyset.yaml'));
    const faithful = await verdicts(keyset, [], 40);
    // The walk at 50 a page meets no uniform page: only the shared-timestamp walk judges the rule.
    expect(faithful.map((v) => [v.step.slice(0, 30), v.status])).toEqual([
      ['sort=created_at with ge(create', 'skip'],
      ['sort=created_at 100 a page to ', 'pass'],
    ]);
    const broken = await verdicts(keyset, [RULE], 40);
    expect(broken.map((v) => v.status)).toEqual(['skip', 'fail']);
  });

  it('says why when the data has no run of three records sharing a created_at', async () => {
    const keyset = (await loadSuite()).filter((s) => s.file.endsWith('large-data/keyset.yaml') && s.name.includes('created_at visits every account once'));
    const target = await createSimTarget({});
    try {
      const [result] = await runScenarios(keyset, { target, ruleById });
      // The walk itself passes; the step looking for a run says why it judged nothing.
      expect(result?.status).toBe('pass');
      const probe = result?.steps[1]?.verdicts.find((v) => v.ruleId === RULE)?.outcome;
      expect(probe?.status === 'skip' ? probe.reason : probe).toMatch(/longest run of records sharing one created_at read: 1\)/);
    } finally {
      await target.close();
    }
  });
});
