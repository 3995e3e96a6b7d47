/** `inconclusive` is counted apart and explained in every report format, and never fails a run, not even with --strict. */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { RunReport, ScenarioResult } from '../../src/report/model.js';
import { summariseRules, summariseRun } from '../../src/report/summarise.js';
import { catalogue, passing } from './fixture.js';

const REASON = 'create.status.201 could not be judged by documented means: GET /v2/customers is outside the documented surface';
const unsure: ScenarioResult = {
  name: 'customers',
  file: 'scenarios/customers.yaml',
  tags: [],
  rules: ['create.status.201'],
  status: 'inconclusive',
  skipReason: REASON,
  steps: [
    {
      index: 1,
      name: 'read customers',
      role: 'probe',
      status: 'inconclusive',
      skipReason: REASON,
      verdicts: [{ ruleId: 'create.status.201', source: 'check', description: 'A create answers 201.', outcome: { status: 'inconclusive', reason: REASON, dependsOn: ['GET /v2/customers'] } }],
      exchanges: [{ method: 'GET', url: '/v2/customers', requestHeaders: {}, status: 400, responseHeaders: { 'content-type': 'application/json' }, responseBody: '{"errors":[]}', evidence: true }],
    },
  ],
};

function report(strict: boolean): RunReport {
  const scenarios = [unsure];
  const rules = summariseRules(catalogue, scenarios, []);
  return {
    schemaVersion: 1,
    tool: { name: 'commerce-sim', version: '0.1.0' },
    target: { kind: 'http', baseUrl: 'http://127.0.0.1:4747' },
    options: { strict, allowWrites: false },
    summary: summariseRun(rules, scenarios, [], strict),
    rules,
    scenarios,
    properties: [],
    timing: { runId: 'r', startedAt: '2024-01-01T00:00:00.000Z', durationMs: 1, requests: 1 },
  };
}

describe('inconclusive in reports', () => {
  it('never fails a run, with or without --strict, and is counted apart', () => {
    for (const strict of [false, true]) {
      const r = report(strict);
      expect(r.summary.verdict).toBe('pass');
      expect(r.summary.documented.inconclusive).toBe(1);
      expect(r.summary.cases).toMatchObject({ inconclusive: 1, fail: 0 });
      expect(r.rules.find((x) => x.id === 'create.status.201')?.status).toBe('inconclusive');
    }
    // A pass elsewhere wins over an inconclusive verdict for the same rule.
    const both = summariseRules(catalogue, [unsure, passing], []);
    expect(both.find((x) => x.id === 'create.status.201')?.status).toBe('pass');
  });

  it('is explained in report.md and report.html, after the failures and before the rule table', () => {
    const r = report(false);
    const md = renderMarkdown(r);
    expect(md).toContain('| documented | 0 | 0 | 1 |');
    expect(md).toContain('## Inconclusive');
    expect(md).toContain('GET /v2/customers is outside the documented surface');
    expect(md.indexOf('## Inconclusive')).toBeLessThan(md.indexOf('## Rules'));
    const html = renderHtml(r);
    expect(html).toContain('Inconclusive (1)');
    expect(html).toContain('1 inconclusive');
    expect(html.indexOf('id="inconclusive"')).toBeLessThan(html.indexOf('class="matrix"'));
  });

  it('lists every inconclusive verdict with its reason, what it depended on and the request it rests on', () => {
    const again: ScenarioResult = { ...unsure, name: 'customers again' };
    const scenarios = [unsure, again];
    const rules = summariseRules(catalogue, scenarios, []);
    const r: RunReport = { ...report(false), rules, summary: summariseRun(rules, scenarios, [], false), scenarios };
    const md = renderMarkdown(r);
    expect(md).toContain('## Inconclusive (2)');
    expect(md).toContain('- ❔ `create.status.201` (documented, §2.1) in customers › step 1: read customers: ');
    expect(md).toContain('- ❔ `create.status.201` (documented, §2.1) in customers again › step 1: read customers: ');
    expect(md).toContain('  - Depends on: `GET /v2/customers`');
    expect(md).toContain('  - Request (evidence): `GET /v2/customers → 400`');
    // Nothing documented was judged (the one documented verdict is inconclusive): the verdict line says so.
    expect(md).toContain('**Verdict: ✅ PASS** — no documented rule was judged (3 not covered, 1 inconclusive) · 1 rule inconclusive (never fails a run)');
    const html = renderHtml(r);
    expect(html).toContain('Inconclusive (2)');
    expect(html).toContain('<b>Depends on</b> <code>GET /v2/customers</code>');
    expect(html).toContain('<span class="badge inconclusive">? inconclusive</span> <code>create.status.201</code> (documented, §2.1) — customers again › step 1: read customers');
    expect(html).toContain('<code>GET /v2/customers → 400</code>');
    expect(html).toMatch(/<td class="c inconclusive( ok-col)?"/);
  });

  it('is a skipped test case with its reason in junit.xml, never a failure, and keeps its outcome in report.json', () => {
    const xml = renderJunit(report(true));
    expect(xml).not.toContain('<failure');
    expect(xml).toContain('<skipped message="inconclusive: create.status.201 could not be judged by documented means: GET /v2/customers is outside the documented surface"/>');
    expect(xml).not.toContain('<skipped/>');
    expect(xml).toContain('inconclusive: create.status.201 could not be judged');
    expect(xml).toContain('depends on: GET /v2/customers');
    const json = JSON.parse(renderJson(report(false))) as { scenarios: { steps: { verdicts: { outcome: unknown }[]; exchanges: { evidence?: boolean }[] }[] }[] };
    expect(json.scenarios[0]?.steps[0]?.verdicts[0]?.outcome).toEqual({ status: 'inconclusive', reason: REASON, dependsOn: ['GET /v2/customers'] });
    expect(json.scenarios[0]?.steps[0]?.exchanges[0]?.evidence).toBe(true);
  });
});

describe('buildRunReport', () => {
  it('is the one way run and props build a report: the same roll-up for scenarios and properties', async () => {
    const { buildRunReport } = await import('../../src/report/index.js');
    const built = buildRunReport({
      catalogue,
      version: '0.1.0',
      target: { kind: 'http', baseUrl: 'http://127.0.0.1:4747' },
      options: { strict: true, allowWrites: false },
      scenarios: [unsure],
      timing: report(true).timing,
    });
    expect(built).toEqual(report(true));
  });
});
