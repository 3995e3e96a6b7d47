import { it } from 'vitest';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { toExchange, type Target } from '../../src/port.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';

it('scratch3', async () => {
  const target = await createSimTarget({ deviate: ['pagination.limit.default'], wallClock: () => Date.UTC(2025, 0, 1) });
  const out: TrafficEntry[] = [];
  const t: Target = { ...target, vars: target.vars, send: async (req) => { const res = await target.send(req); out.push({ exchange: toExchange(req, res), origin: 'x', source: `#${out.length + 1}` }); return res; } };
  await runScenarios(await loadSuite(), { target: t, ruleById, concurrency: 1 });
  for (const e of out) { const u = e.exchange.request.url; if (u.startsWith('/__sim') || u.includes('settings') || !u.includes('page[limit]') && e.exchange.request.method === 'GET') console.log(e.source, e.exchange.request.method, u.slice(0, 90), e.exchange.response.status, e.exchange.request.body?.slice(0, 80) ?? ''); }
}, 60_000);
