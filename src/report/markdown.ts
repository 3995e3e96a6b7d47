/** report.md: for a pull request or a terminal. Everything above `## Timing` is deterministic. */
import type { ExchangeExcerpt, PropertyResult, ReadingPointReport, RunReport } from './model.js';
import { redactedJson, transcript } from './redact.js';
import { findingGroups, trafficHeadline, trafficSubject } from './traffic-words.js';
import {
  evidenceOf,
  targetText,
  failsRun,
  failures,
  inconclusives,
  requestLine,
  placesText,
  ruleRef,
  SHOWN_REQUESTS,
  trafficLines,
  unjudgedLabel,
  userChecks,
  verdictReason,
  type Failure,
} from './summarise.js';

export function renderMarkdown(report: RunReport): string {
  return [
    ...header(report),
    ...failureSection(report),
    ...inconclusiveSection(report),
    ...summarySection(report),
    ...(report.traffic === undefined ? [] : ['## Traffic', '', ...trafficLines(report, 200)]),
    ...ruleTable(report),
    ...userCheckTable(report),
    ...propertySection(report.properties),
    ...readingsSection(report),
    ...skipSection(report),
    ...failureDetails(report),
    ...timing(report),
  ].join('\n');
}

/** The verdict line first: what a reader of a pull request needs before anything else. */
function header(r: RunReport): string[] {
  const s = r.summary;
  const deviate = r.target.deviate === undefined ? '' : ` deviating from ${code(r.target.deviate)}`;
  const unjudged = s.documented.inconclusive + s.assumed.inconclusive;
  const notes = [verdictReason(r), ...(unjudged > 0 ? [`${unjudged} rule${unjudged === 1 ? '' : 's'} inconclusive (never fails a run)`] : [])];
  return [
    r.traffic === undefined ? '# commerce-sim conformance report' : `# commerce-sim traffic report: ${trafficSubject(r, r.traffic)}`,
    '',
    `**Verdict: ${s.verdict === 'pass' ? '✅ PASS' : '❌ FAIL'}** — ${notes.join(' · ')} — target ${r.target.kind === 'sim' ? targetText(r) : code(r.target.baseUrl)}${deviate}, ${r.tool.name} ${r.tool.version}`,
    '',
  ];
}

function summarySection(r: RunReport): string[] {
  const s = r.summary;
  const opts = [`strict: ${r.options.strict ? 'yes' : 'no'}`, `writes: ${r.options.allowWrites ? 'allowed' : 'not allowed'}`];
  if (r.options.seed !== undefined) opts.push(`seed: ${r.options.seed}`);
  if (r.options.grep !== undefined) opts.push(`grep: ${code(r.options.grep)}`);
  if (r.options.tags !== undefined && r.options.tags.length > 0) opts.push(`tags: ${r.options.tags.map(code).join(', ')}`);
  if (r.options.shard !== undefined) opts.push(`shard: ${r.options.shard}`);
  return [
    '## Summary',
    '',
    opts.join(' · '),
    '',
    `| Rules | pass | fail | inconclusive | ${unjudgedLabel(r)} |`,
    '| --- | ---: | ---: | ---: | ---: |',
    `| documented | ${s.documented.pass} | ${s.documented.fail} | ${s.documented.inconclusive} | ${s.documented.notCovered} |`,
    `| assumed | ${s.assumed.pass} | ${s.assumed.fail} | ${s.assumed.inconclusive} | ${s.assumed.notCovered} |`,
    ...(userChecks(r).length === 0 ? [] : [`| your own checks | ${s.user.pass} | ${s.user.fail} | ${s.user.inconclusive} | — |`]),
    '',
    r.traffic === undefined
      ? `Cases: ${s.cases.pass} passed, ${s.cases.fail} failed, ${s.cases.inconclusive} inconclusive, ${s.cases.skip} skipped (a case is a scenario or a property, as in the terminal; junit.xml counts one test case per step and per verdict).`
      : `Traffic: ${trafficHeadline(r, r.traffic)}; ${findingGroups(r)}.`,
    '',
  ];
}

const ICON = { pass: '✅ pass', fail: '❌ fail', inconclusive: '❔ inconclusive', 'not-covered': '➖ not covered' } as const;

function ruleTable(r: RunReport): string[] {
  if (r.rules.length === 0) return [];
  return [
    '## Rules',
    '',
    "| Rule | Level | Section | Status | Coverage | Statement (and the document's words) |",
    '| --- | --- | --- | --- | --- | --- |',
    ...r.rules.map((x) => {
      const by = x.coveredBy.length === 0 ? '' : ` — ${x.coveredBy.join(', ')}`;
      const coverage = `${x.passed} pass, ${x.failed} fail, ${x.inconclusive} inconclusive, ${x.skipped} skip${by}`;
      const status = x.status === 'fail' && !failsRun(x.level, r.options.strict) ? '⚠️ fail (assumed, not strict)' : x.status === 'not-covered' ? `➖ ${unjudgedLabel(r)}` : ICON[x.status];
      const quote = x.quote === undefined ? '' : ` — “${x.quote}”`;
      return `| ${code(x.id)} | ${x.level} | ${inline(x.section)} | ${status} | ${inline(coverage)} | ${inline(`${x.statement}${quote}`)} |`;
    }),
    '',
  ];
}

/** The scenario authors' own checks (`user.` ids): apart from the catalogue's rules, with where each is written. */
function userCheckTable(r: RunReport): string[] {
  const list = userChecks(r);
  if (list.length === 0) return [];
  return [
    '## Your own checks',
    '',
    '| Check | Status | Verdicts | Written at |',
    '| --- | --- | --- | --- |',
    ...list.map((c) => {
      const where = placesText(c);
      return `| ${code(c.id)} | ${ICON[c.status]} | ${c.passed} pass, ${c.failed} fail, ${c.inconclusive} inconclusive, ${c.skipped} skip | ${inline(where)} |`;
    }),
    '',
  ];
}

function failureSection(r: RunReport): string[] {
  const list = failures(r);
  if (list.length === 0) return ['## Failures', '', 'None.', ''];
  return [`## Failures (${list.length})`, '', ...list.flatMap(failure)];
}

function failure(f: Failure, i: number): string[] {
  const note = f.failsRun ? '' : ' _(assumed rule: fails the run only with `--strict`)_';
  const observed = f.verdict.observedFor === undefined ? [] : [`- Observed while judging ${code(f.verdict.observedFor)}, which is inconclusive: the request left the documented surface`];
  const expected = redactedJson(f.outcome.expected, 2);
  const actual = redactedJson(f.outcome.actual, 2);
  const short = (text: string) => !text.includes('\n') && text.length <= 80;
  const values =
    short(expected) && short(actual) ? [`- Expected ${code(expected)}, actual ${code(actual)}`, ''] : ['', '**Expected**', '', ...fence(expected, 'json'), '**Actual**', '', ...fence(actual, 'json')];
  const out = [
    `### ${i + 1}. ${f.failsRun ? '❌' : '⚠️'} ${code(f.verdict.ruleId)} (${inline(ruleRef(f.rule, f.verdict.ruleId))}) — ${inline(f.where)}`,
    '',
    ...(f.rule?.quote === undefined ? [] : [`> ${inline(f.rule.quote)}`, '']),
    `- Rule: ${f.rule === undefined ? 'not in the catalogue' : inline(f.rule.statement)}${note}`,
    ...observed,
    // A check's description is its rule's statement: said once.
    ...(f.verdict.description === f.rule?.statement ? [] : [`- Check: ${code(f.verdict.description)}`]),
    `- Message: ${inline(f.outcome.message)}`,
    ...requests(evidenceOf(f.exchanges)),
    ...(f.exchanges.length === 0 ? [] : [`- Exchanges: ${f.exchanges.length}, whole, under Failure details ${i + 1}`]),
    ...values,
  ];
  if (f.replay !== undefined) out.push('**Replay**', '', ...fence(f.replay, 'sh'));
  return out;
}

/** Whole exchanges of every failure, after the summary and the rule table: long, and read only when needed. */
function failureDetails(r: RunReport): string[] {
  const list = failures(r);
  if (list.every((f) => f.exchanges.length === 0)) return [];
  return ['## Failure details', '', ...list.flatMap((f, i) => (f.exchanges.length === 0 ? [] : [`### ${i + 1}. ${code(f.verdict.ruleId)} — ${inline(f.where)}`, '', ...exchangeDetails(f.exchanges)]))];
}

/** The request lines a verdict rests on; a long walk shows its first few. */
function requests(exchanges: readonly ExchangeExcerpt[]): string[] {
  const lines = exchanges.slice(0, SHOWN_REQUESTS).map((x) => `- Request${x.evidence === true ? ' (evidence)' : ''}: ${code(requestLine(x))}`);
  if (exchanges.length > SHOWN_REQUESTS) lines.push(`- ... and ${exchanges.length - SHOWN_REQUESTS} more requests`);
  return lines;
}

/** Every exchange, collapsed; the ones a verdict rests on are marked. */
function exchangeDetails(exchanges: readonly ExchangeExcerpt[]): string[] {
  return exchanges.flatMap((e, i) => [
    `<details><summary>${e.evidence === true ? '<b>Evidence</b> — e' : 'E'}xchange ${i + 1}: ${html(requestLine(e))}</summary>`,
    '',
    ...fence(transcript(e), 'http'),
    '</details>',
    '',
  ]);
}

function propertySection(properties: readonly PropertyResult[]): string[] {
  if (properties.length === 0) return [];
  return [
    '## Properties',
    '',
    '| Property | Status | Runs | Seed | Path |',
    '| --- | --- | ---: | ---: | --- |',
    ...properties.map((p) => `| ${inline(p.name)} | ${p.status} | ${p.numRuns} | ${p.seed} | ${p.path === undefined ? '' : code(p.path)} |`),
    '',
    ...properties.flatMap((p) => [
      ...(p.counterexample === undefined ? [] : [`Counterexample of ${inline(p.name)}:`, '', ...fence(p.counterexample, '')]),
      ...(p.replay === undefined ? [] : [`Replay ${inline(p.name)}:`, '', ...fence(p.replay, 'sh')]),
    ]),
  ];
}

/** Verdicts that could not be reached: never a failure, but a reader should know what was not judged and why. */
function inconclusiveSection(r: RunReport): string[] {
  const list = inconclusives(r);
  if (list.length === 0) return [];
  return [
    `## Inconclusive (${list.length})`,
    '',
    'Not judged, and never failing the run (not even with `--strict`): what each verdict rested on was outside the documented surface, or a setup it needed did not succeed.',
    '',
    ...list.flatMap((u) => [
      `- ❔ ${code(u.verdict.ruleId)} (${inline(ruleRef(u.rule, u.verdict.ruleId))}) in ${inline(u.where)}: ${inline(u.reason)}`,
      ...(u.dependsOn.length === 0 ? [] : [`  - Depends on: ${u.dependsOn.map(code).join(', ')}`]),
      ...requests(u.exchanges).map((line) => `  ${line}`),
    ]),
    '',
  ];
}

/** The readings the answers showed, point by point (readings.json beside the report holds the observed ones for `serve --readings`). */
function readingsSection(r: RunReport): string[] {
  if (r.readings === undefined) return [];
  const shown = (p: ReadingPointReport): string =>
    p.status === 'observed'
      ? `${code(p.value ?? '')} | ${inline(oneLine(p.evidence ?? ''))}`
      : p.status === 'unknown'
        ? `none of the known readings | ${inline(oneLine(p.evidence ?? ''))}`
        : `not observed | ${inline(oneLine(p.reason ?? ''))}`;
  return [
    '## Readings observed',
    '',
    `Where the document is silent, what this target answers (docs/readings.md). \`readings.json\` beside this report plays them back: \`commerce-sim serve --readings readings.json\`.`,
    '',
    '| point | reading | evidence |',
    '| --- | --- | --- |',
    ...r.readings.map((p) => `| ${code(p.name)} | ${shown(p)} |`),
    '',
  ];
}

function skipSection(r: RunReport): string[] {
  const skipped: string[] = [];
  const reason = (why: string | undefined) => inline(why ?? 'no reason given');
  for (const s of r.scenarios) {
    if (s.status === 'skip') skipped.push(`- ${inline(s.name)} (${code(s.file)}): ${reason(s.skipReason)}`);
    else for (const st of s.steps) if (st.status === 'skip') skipped.push(`- ${inline(s.name)} › step ${st.index}: ${reason(st.skipReason)}`);
  }
  for (const p of r.properties) if (p.status === 'skip') skipped.push(`- ${inline(p.name)}: ${reason(p.skipReason)}`);
  return skipped.length === 0 ? [] : ['## Skipped', '', ...skipped, ''];
}

function timing(r: RunReport): string[] {
  const t = r.timing;
  return ['## Timing', '', `- Run: ${code(t.runId)}`, `- Started: ${t.startedAt}`, `- Duration: ${t.durationMs} ms`, `- Requests: ${t.requests}`, ''];
}

/** A fence longer than any backtick run inside, so a body cannot close it early. */
function fence(text: string, lang: string): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = '`'.repeat(longest + 1);
  return [`${bar}${lang}`, text, bar, ''];
}

function code(text: string): string {
  if (text.length === 0) return '(empty)';
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = '`'.repeat(longest + 1);
  return longest === 0 ? `${bar}${oneLine(text)}${bar}` : `${bar} ${oneLine(text)} ${bar}`;
}

/** Text in running Markdown or a table cell: one line, Markdown and HTML specials (and pipes) escaped. */
function inline(text: string): string {
  return html(oneLine(text)).replace(/([\\`*_[\]#|~])/g, '\\$1');
}

function html(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
