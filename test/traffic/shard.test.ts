/**
 * `check --shard I/N` splits traffic by client (origin and credential), so N machines judge a day of it
 * side by side; `report merge` joins their reports. The merged verdicts are the unsharded ones: each
 * rule's status and counts, the exchanges, clients and walks counted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simTargetOf } from '../../src/adapters/simulator.js';
import { check } from '../../src/cli/check.js';
import { report } from '../../src/cli/report.js';
import type { RunReport } from '../../src/report/model.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { openHarWriter } from '../../src/traffic/har/write.js';
import { observedTarget } from '../../src/traffic/observed-target.js';
import { captureIo } from '../support/cli-io.js';
import type { Plan } from '../support/legal-clients/plan.js';
import { play } from '../support/legal-clients/run.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-shard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reportOf = (reports: string): RunReport => JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as RunReport;

/** Six clients' traffic, one with a documented trap (gt on a timestamp), as a HAR the proxy's writer makes. */
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
  const tokens = Array.from({ length: plan.clients.length + 1 }, () => sim.issueToken(DEFAULT_CLIENT_ID, 'read-write'));
  await play(
    plan,
    { target, tokens, now: () => sim.project(DEFAULT_CLIENT_ID).clock.now(), sleep: () => Promise.resolve(), current: { log: undefined } },
    { kind: 'gt-timestamp', field: 'created_at', limit: 35 },
  );
  const file = join(dir, 'day.har');
  const writer = await openHarWriter(file, { creator: { name: 'test', version: '1' } });
  for (const e of entries) await writer.write(e);
  await writer.close();
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
    const shards = await Promise.all([1, 2, 3].map((i) => judge(`shard-${i}`, '--shard', `${i}/3`)));
    // Every client in one shard, none in two.
    expect(shards.reduce((n, s) => n + (s.report.traffic?.clients ?? 0), 0)).toBe(whole.report.traffic?.clients);
    expect(shards.filter((s) => (s.report.traffic?.clients ?? 0) > 0).length).toBeGreaterThan(1);
    const merged = join(dir, 'merged');
    const m = captureIo({ cwd: dir });
    expect(await report(['merge', ...shards.map((s) => s.out), '--out', merged], m.io), m.out() + m.err()).toBe(whole.code);
    const r = reportOf(merged);
    const verdicts = (x: RunReport) => x.rules.map((rule) => [rule.id, rule.status, rule.passed, rule.failed, rule.inconclusive]);
    expect(verdicts(r)).toEqual(verdicts(whole.report));
    expect(r.summary).toEqual(whole.report.summary);
    expect([r.traffic?.entries, r.traffic?.clients, r.traffic?.walksTotal]).toEqual([whole.report.traffic?.entries, whole.report.traffic?.clients, whole.report.traffic?.walksTotal]);
    expect(r.rules.find((x) => x.id === 'client.keyset.timestamp-ge')?.status).toBe('fail');
    expect(r.scenarios.length).toBe(whole.report.scenarios.length);
  });

  it('refuses a shard that is not I/N', async () => {
    const c = captureIo({ cwd: dir });
    expect(await check([join(dir, 'day.har'), '--shard', '3/2'], c.io)).toBe(2);
    expect(c.err()).toContain('1 ≤ I ≤ N');
  });
});
