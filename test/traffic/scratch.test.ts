import { it } from 'vitest';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { toExchange, type Target } from '../../src/port.js';
import { judgeTraffic } from '../../src/traffic/judge.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import type { RuleId } from '../../src/rules/ids.js';

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

it('scratch', async () => {
  const dev = (process.env['DEV'] ?? '') as RuleId;
  const target = await createSimTarget({ deviate: dev === '' ? [] : [dev], wallClock: () => Date.UTC(2025, 0, 1) });
  const entries: TrafficEntry[] = [];
  await runScenarios(await loadSuite(), { target: recording(target, entries), ruleById, concurrency: 1 });
  const t0 = performance.now();
  const r = await judgeTraffic(entries, { complete: process.env['COMPLETE'] === '1' });
  console.log('entries', entries.length, 'ms', performance.now() - t0);
  for (const [id, t] of r.tallies) if (t.failed + t.inconclusive > 0) console.log(id, JSON.stringify(t));
  for (const f of r.findings.filter((f) => f.status === 'fail').slice(0, 40)) console.log(f.level, f.ruleId, f.message.slice(0, 200), f.evidence.join(','));
  console.log('not observed', [...r.tallies].filter(([, t]) => t.passed + t.failed + t.inconclusive === 0).map(([id]) => id).join(' '));
  for (const e of entries.slice(10, 22)) console.log(e.source, e.exchange.request.method, e.exchange.request.url, e.exchange.response.status);
  await target.close();
}, 120_000);
