/**
 * junit.xml for CI: a suite per scenario file plus one `properties` suite; a case per step, per
 * property and per verdict. No clock: no timestamps and no times, so one report gives one XML.
 * A failing assumed rule without --strict is a passing case with a note, as it passes the run.
 */
import junitModule from 'junit-report-builder';
import type { Builder, TestCase, TestSuite } from 'junit-report-builder';
import type { CaseStatus, PropertyResult, RunReport, ScenarioResult, StepResult, Verdict } from './model.js';
import { redactedJson, transcript } from './redact.js';
import { failures, ruleRef, stepLabel, verdictReason, type Failure } from './summarise.js';
import { trafficHeadline } from './traffic-words.js';

// The package is CommonJS typed as `export default`: Node gives ESM the builder itself while
// TypeScript expects it under `.default`. Accept either rather than cast.
const loaded: unknown = junitModule;
const isBuilder = (v: unknown): v is Builder => typeof v === 'object' && v !== null && 'newBuilder' in v;
const root: Builder = isBuilder(loaded) ? loaded : junitModule.default;

/** Said in every suite, since CI tools show JUnit's totals beside the terminal's, which count otherwise. */
const COUNTS = 'one test case per step, per property and per rule verdict; the terminal, report.md and report.html count cases (a scenario or a property) and rules instead';
/** A traffic report's suite: a walk or client with findings, a test case per finding; the reports count exchanges, clients and walks. */
const TRAFFIC_COUNTS =
  'one test case per walk or client with findings, and per finding and its rule verdict; the terminal, report.md and report.html count exchanges, clients, walks and rules instead';

export function renderJunit(report: RunReport): string {
  const builder = root.newBuilder().name('commerce-sim'); // never the module's shared singleton
  const details = new Map<Verdict, Failure>(failures(report).map((f) => [f.verdict, f]));
  const ctx: Ctx = { details, skips: [] };
  // The verdict and what it rests on ("19 of 34 documented rules judged, all hold; ..."), in every suite.
  const verdict = `${report.summary.verdict === 'pass' ? 'PASS' : 'FAIL'}: ${verdictReason(report)}`;
  const counts = report.traffic === undefined ? COUNTS : TRAFFIC_COUNTS;
  for (const [file, scenarios] of byFile(report.scenarios)) {
    const suite = builder.testSuite().name(file).property('counts', counts).property('verdict', verdict);
    if (report.traffic !== undefined) suite.property('traffic', trafficHeadline(report, report.traffic));
    for (const s of scenarios) addScenario(suite, s, ctx);
  }
  if (report.properties.length > 0) {
    const suite = builder.testSuite().name('properties').property('counts', COUNTS).property('verdict', verdict);
    for (const p of report.properties) addProperty(suite, p, ctx);
  }
  return `${withSkipMessages(builder.build(), ctx.skips)}\n`;
}

interface Ctx {
  readonly details: ReadonlyMap<Verdict, Failure>;
  /** The message of every skipped case, in the order the cases were created (and are written). */
  readonly skips: string[];
}

/** A skipped (or inconclusive) case: `<skipped message="why"/>` plus the detail as output. */
function skipCase(tc: TestCase, ctx: Ctx, message: string, detail: string): void {
  tc.skipped().standardOutput(cdata(detail));
  ctx.skips.push(message);
}

/**
 * junit-report-builder writes `<skipped/>` without a message; CI tools show the attribute, so it is
 * put in afterwards, case by case in writing order. Should the counts ever disagree, the XML stays as built.
 */
function withSkipMessages(xml: string, messages: readonly string[]): string {
  const parts = xml.split('<skipped/>');
  if (parts.length !== messages.length + 1) return xml;
  return parts.reduce((out, part, i) => (i === 0 ? part : `${out}<skipped message="${xmlAttribute(messages[i - 1] ?? '')}"/>${part}`), '');
}

function xmlAttribute(text: string): string {
  return (
    text
      // Characters XML 1.0 cannot carry at all.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll('\n', '&#10;')
      .replaceAll('\r', '&#13;')
      .replaceAll('\t', '&#9;')
  );
}

function byFile(scenarios: readonly ScenarioResult[]): Map<string, ScenarioResult[]> {
  const out = new Map<string, ScenarioResult[]>();
  for (const s of scenarios) {
    const list = out.get(s.file);
    if (list === undefined) out.set(s.file, [s]);
    else list.push(s);
  }
  return out;
}

function addScenario(suite: TestSuite, s: ScenarioResult, ctx: Ctx): void {
  if (s.steps.length === 0) {
    // Skipped (or failed) before any step ran: still one case, so the scenario is counted.
    const tc = suite.testCase().className(s.name).name(s.name);
    mark(tc, { status: s.status, message: 'scenario failed before its first step', skipReason: s.skipReason }, ctx);
    return;
  }
  for (const step of s.steps) {
    addStep(suite.testCase().className(s.name).name(stepLabel(step)), step, s, ctx);
    for (const v of step.verdicts) addVerdict(suite.testCase().className(s.name), v, ctx);
  }
}

function addStep(tc: TestCase, step: StepResult, s: ScenarioResult, ctx: Ctx): void {
  const failing = step.verdicts.flatMap((v) => ctx.details.get(v) ?? []);
  const tolerated = failing.length > 0 && failing.every((f) => !f.failsRun);
  if (step.status === 'fail' && tolerated) {
    tc.standardOutput(cdata(`${TOLERATED}\n\n${failing.map(failureText).join('\n\n')}`));
    return;
  }
  const first = failing.find((f) => f.failsRun);
  const message = first === undefined ? 'step failed' : `[${first.verdict.ruleId}] ${first.outcome.message}`;
  const detail = [...failing.map(failureText), ...step.exchanges.map(transcript)].join('\n\n');
  mark(tc, { status: step.status, message, skipReason: step.skipReason ?? s.skipReason, detail, dependsOn: dependsOn(step.verdicts) }, ctx);
}

function addVerdict(tc: TestCase, v: Verdict, ctx: Ctx): void {
  tc.name(`${v.ruleId}: ${v.description}`);
  switch (v.outcome.status) {
    case 'pass':
      return;
    case 'skip':
      skipCase(tc, ctx, `skipped: ${v.outcome.reason}`, `skipped: ${v.outcome.reason}`);
      return;
    case 'inconclusive':
      // Neither a pass nor a failure: CI shows it as skipped, with why and what it depended on.
      skipCase(tc, ctx, `inconclusive: ${v.outcome.reason}`, inconclusiveText(v.outcome.reason, v.outcome.dependsOn));
      return;
    case 'fail': {
      const f = ctx.details.get(v);
      const text = f === undefined ? v.outcome.message : [failureText(f), ...f.exchanges.map(transcript)].join('\n\n');
      if (f?.failsRun === false) tc.standardOutput(cdata(`${TOLERATED}\n\n${text}`));
      else tc.failure(v.outcome.message, v.ruleId).stacktrace(cdata(text));
      return;
    }
  }
}

function addProperty(suite: TestSuite, p: PropertyResult, ctx: Ctx): void {
  const tc = suite.testCase().className(p.name).name(p.name);
  const failing = p.verdicts.flatMap((v) => ctx.details.get(v) ?? []);
  const first = failing.find((f) => f.failsRun);
  if (p.status === 'fail' && failing.length > 0 && first === undefined) {
    tc.standardOutput(cdata(`${TOLERATED}\n\n${replayText(p)}`));
  } else {
    const message = first === undefined ? 'property failed' : `[${first.verdict.ruleId}] ${first.outcome.message}`;
    const detail = [replayText(p), ...failing.map(failureText), ...p.exchanges.map(transcript)].join('\n\n');
    mark(tc, { status: p.status, message, skipReason: p.skipReason ?? firstInconclusive(p.verdicts), detail, dependsOn: dependsOn(p.verdicts) }, ctx);
  }
  for (const v of p.verdicts) addVerdict(suite.testCase().className(p.name), v, ctx);
}

const TOLERATED = 'assumed rule not observed (fails the run only with --strict)';

interface Mark {
  readonly status: CaseStatus;
  /** Failure message, used when `status` is `fail`. */
  readonly message: string;
  readonly skipReason: string | undefined;
  readonly detail?: string;
  /** What an inconclusive case depended on. */
  readonly dependsOn?: readonly string[];
}

function mark(tc: TestCase, m: Mark, ctx: Ctx): void {
  switch (m.status) {
    case 'pass':
      return;
    case 'fail':
      tc.failure(m.message);
      if (m.detail !== undefined && m.detail.length > 0) tc.stacktrace(cdata(m.detail));
      return;
    case 'skip': {
      const text = `skipped: ${m.skipReason ?? 'no reason given'}`;
      skipCase(tc, ctx, text, text);
      return;
    }
    case 'inconclusive': {
      const reason = m.skipReason ?? 'no reason given';
      const detail = [inconclusiveText(reason, m.dependsOn ?? []), ...(m.detail === undefined || m.detail.length === 0 ? [] : [m.detail])].join('\n\n');
      skipCase(tc, ctx, `inconclusive: ${reason}`, detail);
      return;
    }
  }
}

function dependsOn(verdicts: readonly Verdict[]): string[] {
  return [...new Set(verdicts.flatMap((v) => (v.outcome.status === 'inconclusive' ? v.outcome.dependsOn : [])))];
}

function firstInconclusive(verdicts: readonly Verdict[]): string | undefined {
  for (const v of verdicts) if (v.outcome.status === 'inconclusive') return v.outcome.reason;
  return undefined;
}

function inconclusiveText(reason: string, dependsOn: readonly string[]): string {
  return `inconclusive: ${reason}${dependsOn.length === 0 ? '' : `\ndepends on: ${dependsOn.join('; ')}`}`;
}

function failureText(f: Failure): string {
  const statement = f.rule === undefined ? '' : ` — ${f.rule.statement}`;
  return [
    `rule: ${f.verdict.ruleId} (${ruleRef(f.rule, f.verdict.ruleId)})${statement}${f.failsRun ? '' : ` [${TOLERATED}]`}`,
    ...(f.rule?.quote === undefined ? [] : [`document: "${f.rule.quote}"`]),
    ...(f.verdict.observedFor === undefined ? [] : [`observed while judging ${f.verdict.observedFor} (inconclusive: the request left the documented surface)`]),
    `check: ${f.verdict.description}`,
    `message: ${f.outcome.message}`,
    `expected: ${redactedJson(f.outcome.expected)}`,
    `actual:   ${redactedJson(f.outcome.actual)}`,
  ].join('\n');
}

function replayText(p: PropertyResult): string {
  const lines = [`seed: ${p.seed}`, `runs: ${p.numRuns}`];
  if (p.path !== undefined) lines.push(`path: ${p.path}`);
  if (p.counterexample !== undefined) lines.push(`counterexample: ${p.counterexample}`);
  if (p.replay !== undefined) lines.push(`replay: ${p.replay}`);
  return lines.join('\n');
}

/** xmlbuilder splits only the first `]]>` of a CDATA section; break every one so the XML stays well-formed. */
function cdata(text: string): string {
  return text.replaceAll(']]>', ']] >');
}
