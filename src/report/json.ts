/**
 * report.json: the model rebuilt key by key in the model's order, so the bytes depend on the
 * report's content and never on the order a runner happened to assign fields.
 * Optional members left `undefined` are dropped by JSON.stringify, keeping their place otherwise.
 */
import type { Outcome } from '../rules/rule.js';
import { redactValue } from './redact.js';
import { userChecks } from './summarise.js';
import type { ExchangeExcerpt, PropertyResult, RunReport, ScenarioResult, StepResult, TrafficSection, Verdict } from './model.js';

export function renderJson(report: RunReport): string {
  return `${JSON.stringify(ordered(report), replacer, 2)}\n`;
}

/** expected/actual are `unknown`: keep them serialisable rather than throw on a bigint. */
function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

function ordered(r: RunReport) {
  return {
    schemaVersion: r.schemaVersion,
    tool: { name: r.tool.name, version: r.tool.version },
    target: { kind: r.target.kind, baseUrl: r.target.baseUrl, deviate: r.target.deviate },
    options: {
      strict: r.options.strict,
      allowWrites: r.options.allowWrites,
      simSeed: r.options.simSeed,
      seed: r.options.seed,
      grep: r.options.grep,
      tags: r.options.tags,
      shard: r.options.shard,
    },
    summary: {
      verdict: r.summary.verdict,
      documented: counts(r.summary.documented),
      assumed: counts(r.summary.assumed),
      user: { pass: r.summary.user.pass, fail: r.summary.user.fail, inconclusive: r.summary.user.inconclusive },
      cases: { pass: r.summary.cases.pass, fail: r.summary.cases.fail, skip: r.summary.cases.skip, inconclusive: r.summary.cases.inconclusive },
    },
    rules: r.rules.map((x) => ({
      id: x.id,
      section: x.section,
      level: x.level,
      statement: x.statement,
      quote: x.quote,
      status: x.status,
      passed: x.passed,
      failed: x.failed,
      inconclusive: x.inconclusive,
      skipped: x.skipped,
      coveredBy: [...x.coveredBy],
    })),
    userChecks: userChecks(r).map((c) => ({
      id: c.id,
      status: c.status,
      passed: c.passed,
      failed: c.failed,
      inconclusive: c.inconclusive,
      skipped: c.skipped,
      places: c.places.map((p) => ({ scenario: p.scenario, file: p.file, line: p.line })),
    })),
    scenarios: r.scenarios.map(scenario),
    properties: r.properties.map(property),
    traffic: r.traffic === undefined ? undefined : traffic(r.traffic),
    readings: r.readings?.map((p) => ({ name: p.name, question: p.question, status: p.status, value: p.value, evidence: p.evidence, reason: p.reason })),
    timing: {
      runId: r.timing.runId,
      startedAt: r.timing.startedAt,
      durationMs: r.timing.durationMs,
      requests: r.timing.requests,
    },
  };
}

function counts(c: RunReport['summary']['documented']) {
  return { pass: c.pass, fail: c.fail, inconclusive: c.inconclusive, notCovered: c.notCovered };
}

function scenario(s: ScenarioResult) {
  return {
    name: s.name,
    file: s.file,
    line: s.line,
    tags: [...s.tags],
    rules: [...s.rules],
    status: s.status,
    skipReason: s.skipReason,
    steps: s.steps.map(step),
  };
}

function step(s: StepResult) {
  return {
    index: s.index,
    name: s.name,
    line: s.line,
    role: s.role,
    status: s.status,
    skipReason: s.skipReason,
    verdicts: s.verdicts.map(verdict),
    exchanges: s.exchanges.map(exchange),
  };
}

function property(p: PropertyResult) {
  return {
    name: p.name,
    rules: [...p.rules],
    status: p.status,
    skipReason: p.skipReason,
    numRuns: p.numRuns,
    seed: p.seed,
    path: p.path,
    counterexample: p.counterexample,
    replay: p.replay,
    verdicts: p.verdicts.map(verdict),
    exchanges: p.exchanges.map(exchange),
  };
}

function verdict(v: Verdict) {
  return { ruleId: v.ruleId, source: v.source, description: v.description, outcome: outcome(v.outcome), observedFor: v.observedFor };
}

function outcome(o: Outcome) {
  switch (o.status) {
    case 'pass':
      return { status: o.status };
    case 'fail':
      // `?? null` keeps both members present when a check reports `undefined`; secret members never leave.
      return { status: o.status, message: o.message, expected: redactValue(o.expected ?? null), actual: redactValue(o.actual ?? null) };
    case 'skip':
      return { status: o.status, reason: o.reason };
    case 'inconclusive':
      return { status: o.status, reason: o.reason, dependsOn: [...o.dependsOn] };
  }
}

function exchange(e: ExchangeExcerpt) {
  return {
    method: e.method,
    url: e.url,
    // A header map has no meaningful order; sorted, the sim and an HTTP target print alike.
    requestHeaders: Object.fromEntries(Object.entries(e.requestHeaders).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    requestBody: e.requestBody,
    status: e.status,
    responseHeaders: e.responseHeaders === undefined ? undefined : Object.fromEntries(Object.entries(e.responseHeaders).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    responseBody: e.responseBody,
    evidence: e.evidence,
  };
}

function traffic(t: TrafficSection) {
  return {
    sources: t.sources,
    entries: t.entries,
    clients: t.clients,
    complete: t.complete,
    judged: t.judged,
    walks: t.walks.map((w) => ({
      n: w.n,
      label: w.label,
      kind: w.kind,
      client: w.client,
      pages: w.pages,
      records: w.records,
      from: w.from,
      to: w.to,
      findings: w.findings,
      reread: w.reread,
      truth: w.truth === undefined ? undefined : { visible: w.truth.visible, once: w.truth.once, twice: w.truth.twice, never: w.truth.never, excused: w.truth.excused, summary: w.truth.summary },
    })),
    walksTotal: t.walksTotal,
    infrastructure: t.infrastructure.map((n) => ({ kind: n.kind, message: n.message, at: n.at })),
    // Exchanges the proxy relayed but could not judge (report merge adds them up from here).
    shed: t.shed === undefined ? undefined : { exchanges: t.shed.exchanges, clients: t.shed.clients },
    deliberate:
      t.deliberate === undefined
        ? undefined
        : { total: t.deliberate.total, byRule: t.deliberate.byRule, examples: t.deliberate.examples.map((x) => ({ ruleId: x.ruleId, message: x.message, evidence: x.evidence })) },
  };
}
