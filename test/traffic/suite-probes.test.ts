/**
 * The shipped suite tests the server's refusals with requests that break client rules on purpose (a short
 * password, an offset past the hard limit): each such request names the rules it breaks (`breaks:` in its
 * scenario, sent as x-commerce-sim-expect), so the kit's own traffic through a judging proxy is told apart
 * from a client's mistakes. Every client finding on the suite's traffic is deliberate, and every request
 * that names a rule breaks it: the counts match request for request, so an annotation can neither be
 * missing nor go stale.
 */
import { describe, expect, it } from 'vitest';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { declaredBreaks } from '../../src/traffic/judge/deliberate.js';
import { judgeTraffic } from '../../src/traffic/judge/judge.js';
import { observedTarget } from '../../src/traffic/observed-target.js';
import { selectProperties } from '../../src/properties/registry.js';
import { runProperties } from '../../src/properties/runner.js';

describe("the suite's deliberate requests", () => {
  it('give every client finding of the suite, and each names only rules it breaks', async () => {
    const sim = await createSimTarget({});
    const entries: TrafficEntry[] = [];
    try {
      await runScenarios(await loadSuite(), { target: observedTarget(sim, (e) => entries.push(e)), ruleById, concurrency: 1 });
    } finally {
      await sim.close();
    }
    const result = await judgeTraffic(entries, { complete: true });
    const mistakes = result.findings.filter((f) => f.party === 'client').map((f) => `${f.ruleId} (${f.status}): ${f.message}`);
    expect(mistakes).toEqual([]);
    // Declared, request by request, counted independently of the judge.
    const declared: Record<string, number> = {};
    for (const e of entries) for (const id of declaredBreaks(e)) declared[id] = (declared[id] ?? 0) + 1;
    expect(Object.keys(declared).length).toBeGreaterThanOrEqual(8);
    expect(Object.fromEntries(result.deliberate?.byRule ?? new Map())).toEqual(declared);
  }, 120_000);

  it('are failures again when the suite does not say so', async () => {
    const sim = await createSimTarget({});
    const entries: TrafficEntry[] = [];
    try {
      await runScenarios(await loadSuite(), { target: observedTarget(sim, (e) => entries.push(e)), ruleById, concurrency: 1 });
    } finally {
      await sim.close();
    }
    const unmarked = entries.map((e) => {
      const { 'x-commerce-sim-expect': _gone, ...headers } = e.exchange.request.headers ?? {};
      return { ...e, exchange: { ...e.exchange, request: { ...e.exchange.request, headers } } };
    });
    const result = await judgeTraffic(unmarked, { complete: true });
    expect(result.deliberate).toBeUndefined();
    expect(new Set(result.findings.filter((f) => f.party === 'client' && f.status === 'fail').map((f) => f.ruleId))).toEqual(
      new Set([
        'client.create.authorization',
        'client.create.body',
        'client.create.fields',
        'client.create.type',
        'client.create.password-length',
        'client.create.content-type',
        'client.offset.hard-limit',
        'client.offset.soft-limit',
        'client.limit.clamped-stop',
        'client.offset.changing-data',
      ]),
    );
  }, 120_000);

  it("mark the create property's refused inputs too: its traffic gets deliberate findings only, and unmarked they fail", async () => {
    const sim = await createSimTarget({});
    const entries: TrafficEntry[] = [];
    try {
      await runProperties(selectProperties('create'), { target: observedTarget(sim, (e) => entries.push(e)), ruleById, seed: 7, runs: 120, strict: false, allowWrites: true });
    } finally {
      await sim.close();
    }
    const result = await judgeTraffic(entries, { complete: true });
    expect(result.findings.filter((f) => f.party === 'client').map((f) => `${f.ruleId} (${f.status}): ${f.message}`)).toEqual([]);
    // Every kind of refused input was drawn, and each was counted as the probe it is.
    expect([...(result.deliberate?.byRule.keys() ?? [])].sort()).toEqual([
      'client.create.authorization',
      'client.create.body',
      'client.create.fields',
      'client.create.password-length',
      'client.create.type',
    ]);
    const unmarked = entries.map((e) => {
      const { 'x-commerce-sim-expect': _gone, ...headers } = e.exchange.request.headers ?? {};
      return { ...e, exchange: { ...e.exchange, request: { ...e.exchange.request, headers } } };
    });
    const failed = new Set((await judgeTraffic(unmarked, { complete: true })).findings.filter((f) => f.party === 'client' && f.status === 'fail').map((f) => f.ruleId));
    expect([...failed].sort()).toEqual(['client.create.authorization', 'client.create.body', 'client.create.fields', 'client.create.password-length', 'client.create.type']);
  }, 120_000);
});
