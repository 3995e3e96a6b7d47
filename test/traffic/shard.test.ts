/**
 * `check --shard I/N` splits traffic by client (origin and credential), so N machines judge a day of it
 * side by side; `report merge` joins their reports. The merged verdicts are the unsharded ones: each
 * rule's status and counts, the exchanges, clients and walks counted.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simTargetOf } from '../../src/adapters/simulator.js';
import { check } from '../../src/cli/check.js';
import { report } from '../../src/cli/report.js';
import { renderJson } from '../../src/report/json.js';
import { mergeReports } from '../../src/report/merge.js';
import type { RunReport } from '../../src/report/model.js';
import { catalogue } from '../../src/rules/catalogue.js';
import type { TrafficResult } from '../../src/traffic/judge/judge.js';
import { buildTrafficReport } from '../../src/traffic/report.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { shardOfKey } from '../../src/shard.js';
import { harEntryOf, harFrame } from '../../src/traffic/har/format.js';
import { observedTarget } from '../../src/traffic/observed-target.js';
import { captureIo } from '../support/cli-io.js';
import type { Plan } from '../support/legal-clients/plan.js';
import { play } from '../support/legal-clients/run.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-shard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reportOf = (reports: string): RunReport => JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as RunReport;

/** Two shards: each count of a rule told apart from the larger shard's alone (sum from max). */
const SHARDS = 2;

/**
 * The same six clients twice over, each half landing in a shard of its own: five legal clients and a
 * documented trap (gt on a timestamp) per half. The split is seeded: the tokens come from the simulator's
 * seed, each half's drawn until they all land in its shard, and the HAR keeps them as they were sent (a
 * HAR the proxy writes marks credentials with a key of its own, a new split every run).
 */
async function har(): Promise<string> {
  const sim = new Simulator({ seed: 3, accounts: 241, wallClock: () => Date.UTC(2025, 5, 1) });
  const entries: TrafficEntry[] = [];
  const target = observedTarget(simTargetOf(sim), (e) => entries.push(e));
  const plan: Plan = {
    clients: [
      { activities: [{ kind: 'id-walk', limit: 40, stopAfter: undefined }], encoded: false },
      { activities: [{ kind: 'ts-walk', field: 'created_at', limit: 30, drain: 'offset', upper: false, stopAfter: undefined }], encoded: true },
      { activities: [{ kind: 'pages', limit: 25, sort: 'name', pages: 4 }], encoded: false },
      { activities: [{ kind: 'sync', field: 'updated_at', limit: 50, drain: 'eq', bufferMs: 60_000 }], encoded: false },
      { activities: [{ kind: 'peek', limit: 10, sort: undefined }, { kind: 'create' }], encoded: true },
    ],
    schedule: [0, 1, 2, 3, 4, 5, 6, 7],
  };
  const tokensOf = (shard: number): string[] => {
    const tokens: string[] = [];
    while (tokens.length < plan.clients.length + 1) {
      const token = sim.issueToken(DEFAULT_CLIENT_ID, 'read-write');
      if (shardOfKey(`${target.baseUrl}\u0000Bearer ${token}`, SHARDS) === shard) tokens.push(token);
    }
    return tokens;
  };
  for (let shard = 1; shard <= SHARDS; shard++) {
    const tokens = tokensOf(shard);
    await play(
      plan,
      { target, tokens, now: () => sim.project(DEFAULT_CLIENT_ID).clock.now(), sleep: () => Promise.resolve(), current: { log: undefined } },
      { kind: 'gt-timestamp', field: 'created_at', limit: 35 },
    );
  }
  const file = join(dir, 'day.har');
  const { head, tail } = harFrame({ name: 'test', version: '1' });
  writeFileSync(file, `${head}${entries.map((e) => JSON.stringify(harEntryOf(e, '2025-06-01T00:00:00.000Z'))).join(',')}${tail}`);
  return file;
}

describe('check --shard and report merge', () => {
  it('judges each client in exactly one shard; the merged report gives the unsharded verdicts', async () => {
    const file = await har();
    const judge = async (name: string, ...extra: string[]) => {
      const out = join(dir, name);
      const c = captureIo({ cwd: dir });
      const code = await check([file, '--report', out, ...extra], c.io);
      return { code, report: reportOf(out), out };
    };
    const whole = await judge('whole');
    const shards = await Promise.all([1, 2].map((i) => judge(`shard-${i}`, '--shard', `${i}/${SHARDS}`)));
    // Every client in one shard, none in two: six each.
    expect(whole.report.traffic?.clients).toBe(12);
    expect(shards.map((s) => s.report.traffic?.clients)).toEqual([6, 6]);
    // Each kind of count is held by some rule in both shards: a merge that took the larger instead of the sum would show.
    for (const k of ['passed', 'failed', 'inconclusive', 'skipped'] as const) {
      const inBoth = whole.report.rules.filter((rule) => shards.every((s) => (s.report.rules.find((x) => x.id === rule.id)?.[k] ?? 0) > 0));
      expect(inBoth.length, `a rule ${k} in both shards`).toBeGreaterThan(0);
    }
    const merged = join(dir, 'merged');
    const m = captureIo({ cwd: dir });
    expect(await report(['merge', ...shards.map((s) => s.out), '--out', merged], m.io), m.out() + m.err()).toBe(whole.code);
    const r = reportOf(merged);
    const verdicts = (x: RunReport) => x.rules.map((rule) => [rule.id, rule.status, rule.passed, rule.failed, rule.inconclusive, rule.skipped]);
    expect(verdicts(r)).toEqual(verdicts(whole.report));
    expect(r.summary).toEqual(whole.report.summary);
    expect([r.traffic?.entries, r.traffic?.clients, r.traffic?.walksTotal]).toEqual([whole.report.traffic?.entries, whole.report.traffic?.clients, whole.report.traffic?.walksTotal]);
    expect(r.rules.find((x) => x.id === 'client.keyset.timestamp-ge')?.status).toBe('fail');
    expect(r.scenarios.length).toBe(whole.report.scenarios.length);
  });

  it("adds up the exchanges and clients each shard's proxy left unjudged, read back from report.json", () => {
    const shardReport = (index: number, shed: { exchanges: number; clients: number }): RunReport => {
      const result: TrafficResult = { entries: 10, clients: 2, complete: false, tallies: new Map(), findings: [], walks: [], walksTotal: 0, infrastructure: [], shed };
      const built = buildTrafficReport({
        result,
        version: '1',
        target: { kind: 'http', baseUrl: 'https://api.test' },
        strict: false,
        sources: ['proxy'],
        shard: `${index}/2`,
        timing: { runId: `r${index}`, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1, requests: 10 },
      });
      return JSON.parse(renderJson(built)) as RunReport;
    };
    const merged = mergeReports(
      [
        { source: 'a', report: shardReport(1, { exchanges: 3, clients: 2 }) },
        { source: 'b', report: shardReport(2, { exchanges: 5, clients: 1 }) },
      ],
      catalogue,
    );
    expect(merged.ok ? merged.value.traffic?.shed : merged).toEqual({ exchanges: 8, clients: 3 });
  });

  it('refuses a shard that is not I/N', async () => {
    const c = captureIo({ cwd: dir });
    expect(await check([join(dir, 'day.har'), '--shard', '3/2'], c.io)).toBe(2);
    expect(c.err()).toContain('1 ≤ I ≤ N');
  });
});
