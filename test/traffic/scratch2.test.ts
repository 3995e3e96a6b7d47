import { it } from 'vitest';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { toExchange, type Target } from '../../src/port.js';
import { judgeTraffic } from '../../src/traffic/judge.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { DOCUMENTED_RULE_IDS } from '../../src/rules/ids.js';

function recording(t: Target, out: TrafficEntry[]): Target {
  return {
    ...t,
    vars: t.vars,
    send: async (req) => {
      const res = await t.send(req);
      const headers: Record<string, string> = { ...(req.headers ?? {}) };
      if (req.auth !== 'none' && headers['authorization'] === undefined) headers['authorization'] = 'Bearer T';
      out.push({ exchange: toExchange({ method: req.method, url: req.url, headers, ...(req.body === undefined ? {} : { body: req.body }) }, res), origin: 'http://sim', source: `#${out.length + 1}` });
      return res;
    },
  };
}

it('scratch2', async () => {
  const suite = await loadSuite();
  for (const dev of DOCUMENTED_RULE_IDS.filter((d) => (process.env['ONLY'] ?? d).split(',').includes(d))) {
    const target = await createSimTarget({ deviate: [dev], wallClock: () => Date.UTC(2025, 0, 1) });
    const entries: TrafficEntry[] = [];
    await runScenarios(suite, { target: recording(target, entries), ruleById, concurrency: 1 });
    const r = await judgeTraffic(entries, { complete: true });
    const own = r.tallies.get(dev);
    const docFails = [...r.tallies].filter(([id, t]) => t.failed > 0 && ruleById(id)?.level === 'documented').map(([id]) => id);
    for (const f of r.findings.filter((f) => f.status === "inconclusive" && f.ruleId === dev).slice(0, 2)) console.log("   INC", f.message.slice(0, 300));
    console.log(dev.padEnd(40), own?.failed ? 'FLAGGED' : 'missed ', JSON.stringify(own), docFails.join(' '));
    await target.close();
  }
}, 300_000);
