import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../../src/report/model.js';
import { summariseRules, summariseRun } from '../../src/report/summarise.js';
import { catalogue, failing, passing, property, skipped } from './fixture.js';

describe('summariseRules', () => {
  const rules = summariseRules(catalogue, [passing, failing, skipped], [property]);
  const byId = (id: string) => rules.find((r) => r.id === id);

  it('keeps catalogue order and rolls up every verdict', () => {
    expect(rules.map((r) => r.id)).toEqual(catalogue.map((c) => c.id));
    expect(byId('create.status.201')).toMatchObject({
      status: 'pass',
      passed: 2,
      failed: 0,
      coveredBy: ['create account', 'password profile type echo'],
    });
    expect(byId('create.type.underscore-echo')).toMatchObject({ status: 'fail', failed: 1, level: 'documented' });
    expect(byId('pagination.limit.clamp')).toMatchObject({ status: 'fail', coveredBy: ['limit is clamped'] });
  });

  it('a rule with only skipped verdicts is not covered', () => {
    expect(byId('auth.token.required')).toMatchObject({ status: 'not-covered', skipped: 1, coveredBy: [] });
  });
});

describe('summariseRun', () => {
  const assumedOnly: ScenarioResult = {
    ...failing,
    steps: failing.steps.map((s) => ({ ...s, verdicts: s.verdicts.filter((v) => v.ruleId === 'errors.format.json-api') })),
  };
  const rules = summariseRules(catalogue, [passing, assumedOnly], []);

  it('an assumed rule failing passes the run without strict and fails it with strict', () => {
    expect(summariseRun(rules, [passing, assumedOnly], [], false).verdict).toBe('pass');
    expect(summariseRun(rules, [passing, assumedOnly], [], true).verdict).toBe('fail');
  });

  it('a documented rule failing fails the run; counts rules by level and cases by status', () => {
    const all = summariseRules(catalogue, [passing, failing, skipped], [property]);
    expect(summariseRun(all, [passing, failing, skipped], [property], false)).toEqual({
      verdict: 'fail',
      documented: { pass: 1, fail: 2, inconclusive: 0, notCovered: 1 },
      assumed: { pass: 0, fail: 1, inconclusive: 0, notCovered: 0 },
      user: { pass: 0, fail: 0, inconclusive: 0 },
      cases: { pass: 1, fail: 2, skip: 1, inconclusive: 0 },
    });
  });
});
