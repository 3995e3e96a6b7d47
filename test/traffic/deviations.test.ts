/**
 * Proof that the traffic judge judges (issue: "every documented --deviate of the simulator that the
 * shipped suite's traffic exercises is flagged by check on that traffic's HAR"): the shipped suite runs
 * through `startJudgingProxy` in front of a simulator breaking one documented rule, the proxy writes the
 * HAR, and `commerce-sim check` on that HAR fails that very rule; on the faithful simulator it fails no
 * documented rule of the server. The HAR is the proxy's own, so the relay, the writer's redaction and the
 * reader are all on the path.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTarget } from '../../src/adapters/http.js';
import { check } from '../../src/cli/check.js';
import { DOCUMENTED_RULE_IDS, type RuleId } from '../../src/rules/ids.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { startSimulator } from '../../src/kit/start-simulator.js';
import type { RunReport } from '../../src/report/model.js';
import { ruleById } from '../../src/rules/catalogue.js';
import type { Scenario } from '../../src/scenarios/format.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { startJudgingProxy } from '../../src/traffic/proxy/judging-proxy.js';
import { captureIo } from '../support/cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-deviations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let suite: Scenario[];
beforeAll(async () => {
  suite = await loadSuite();
});

/** The suite through a judging proxy in front of a simulator deviating from `deviate`; the HAR it wrote, checked. */
async function checked(name: string, deviate: readonly RuleId[]): Promise<{ code: number; report: RunReport; out: string }> {
  const sim = await startSimulator({ deviate });
  const har = join(dir, `${name}.har`);
  const proxy = await startJudgingProxy({ upstream: sim, har });
  const vars = { ...sim.ids, admin_token: sim.adminToken, client_id: sim.clientId, base_url: sim.baseUrl };
  const target = await createHttpTarget({ baseUrl: proxy.url, token: sim.token, vars, retries: 0 });
  try {
    await runScenarios(suite, { target, ruleById, concurrency: 1, allowWrites: true });
  } finally {
    await target.close();
    await proxy.close();
    await sim.close();
  }
  const reports = join(dir, name);
  const p = captureIo({ cwd: dir });
  const code = await check([har, '--judge', 'server', '--report', reports], p.io);
  return { code, report: JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as RunReport, out: p.out() + p.err() };
}

describe('check on the proxy’s HAR of the shipped suite', () => {
  it('the faithful simulator: no documented failure of the server, complete traffic', async () => {
    const { code, report, out } = await checked('faithful', []);
    expect(code, out).toBe(0);
    expect(report.traffic?.complete).toBe(true);
    expect(report.summary.documented.fail).toBe(0);
    const har = readFileSync(join(dir, 'faithful.har'), 'utf8');
    // The suite sends passwords and tokens; none reaches the file.
    expect(har).not.toMatch(/correct-horse-battery|Bearer [A-Za-z0-9._-]{20,}/);
  }, 60_000);

  it.each(DOCUMENTED_RULE_IDS)(
    '--deviate %s is flagged by its own rule',
    async (id) => {
      const { code, report, out } = await checked(id, [id]);
      expect(code, out).toBe(1);
      expect(report.rules.find((r) => r.id === id)?.status, out).toBe('fail');
    },
    60_000,
  );
});
