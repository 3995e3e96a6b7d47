/** report.md: for a pull request or a terminal. Everything above `## Timing` is deterministic. */
import type { PropertyResult, RunReport } from './model.js';
import { redactedJson, transcript } from './redact.js';
import { failsRun, failures, inconclusives, ruleRef, type Failure } from './summarise.js';

export function renderMarkdown(report: RunReport): string {
  return [
    ...header(report),
    ...failureSection(report),
    ...inconclusiveSection(report),
    ...ruleTable(report),
    ...propertySection(report.properties),
    ...skipSection(report),
    ...timing(report),
  ].join('\n');
}

function header(r: RunReport): string[] {
  const s = r.summary;
  const opts = [`strict: ${r.options.strict ? 'yes' : 'no'}`, `writes: ${r.options.allowWrites ? 'allowed' : 'not allowed'}`];
  if (r.options.seed !== undefined) opts.push(`seed: ${r.options.seed}`);
  if (r.options.grep !== undefined) opts.push(`grep: ${code(r.options.grep)}`);
  if (r.options.tags !== undefined && r.options.tags.length > 0) opts.push(`tags: ${r.options.tags.map(code).join(', ')}`);
  if (r.options.shard !== undefined) opts.push(`shard: ${r.options.shard}`);
  const deviate = r.target.deviate === undefined ? '' : ` deviating from ${code(r.target.deviate)}`;
  return [
    `# commerce-sim conformance report`,
    '',
    `**Verdict: ${s.verdict === 'pass' ? '✅ PASS' : '❌ FAIL'}** — target ${r.target.kind} ${code(r.target.baseUrl)}${deviate}, ${r.tool.name} ${r.tool.version}`,
    '',
    opts.join(' · '),
    '',
    '| Rules | pass | fail | inconclusive | not covered |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| documented | ${s.documented.pass} | ${s.documented.fail} | ${s.documented.inconclusive} | ${s.documented.notCovered} |`,
    `| assumed | ${s.assumed.pass} | ${s.assumed.fail} | ${s.assumed.inconclusive} | ${s.assumed.notCovered} |`,
    '',
    `Cases: ${s.cases.pass} passed, ${s.cases.fail} failed, ${s.cases.inconclusive} inconclusive, ${s.cases.skip} skipped.`,
    '',
  ];
}

const ICON = { pass: '✅ pass', fail: '❌ fail', inconclusive: '❔ inconclusive', 'not-covered': '➖ not covered' } as const;

function ruleTable(r: RunReport): string[] {
  if (r.rules.length === 0) return [];
  return [
    '## Rules',
    '',
    '| Rule | Level | Section | Status | Coverage |',
    '| --- | --- | --- | --- | --- |',
    ...r.rules.map((x) => {
      const by = x.coveredBy.length === 0 ? '' : ` — ${x.coveredBy.join(', ')}`;
      const coverage = `${x.passed} pass, ${x.failed} fail, ${x.skipped} skip${by}`;
      const status = x.status === 'fail' && !failsRun(x.level, r.options.strict) ? '⚠️ fail (assumed, not strict)' : ICON[x.status];
      return `| ${code(x.id)} | ${x.level} | ${inline(x.section)} | ${status} | ${inline(coverage)} |`;
    }),
    '',
  ];
}

function failureSection(r: RunReport): string[] {
  const list = failures(r);
  if (list.length === 0) return [];
  return ['## Failures', '', ...list.flatMap(failure)];
}

function failure(f: Failure): string[] {
  const note = f.failsRun ? '' : ' _(assumed rule: fails the run only with `--strict`)_';
  const out = [
    `### ${inline(f.where)} — ${code(f.verdict.ruleId)}`,
    '',
    `- Rule: ${code(f.verdict.ruleId)} (${inline(ruleRef(f.rule))})${f.rule === undefined ? '' : ` — ${inline(f.rule.statement)}`}${note}`,
    `- Check: ${code(f.verdict.description)}`,
    `- Message: ${inline(f.outcome.message)}`,
    ...(f.rule?.quote === undefined ? [] : [`- The document: “${inline(f.rule.quote)}”`]),
    '',
    '**Expected**',
    '',
    ...fence(redactedJson(f.outcome.expected, 2), 'json'),
    '**Actual**',
    '',
    ...fence(redactedJson(f.outcome.actual, 2), 'json'),
  ];
  if (f.replay !== undefined) out.push('**Replay**', '', ...fence(f.replay, 'sh'));
  f.exchanges.forEach((e, i) => {
    const mark = e.evidence === true ? ' (the failure rests on this one)' : '';
    out.push(`<details><summary>Exchange ${i + 1}${mark}: ${html(`${e.method} ${e.url}`)} → ${e.status}</summary>`, '', ...fence(transcript(e), 'http'), '</details>', '');
  });
  return out;
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
    '## Inconclusive',
    '',
    'Not judged, and never failing the run: what each verdict rested on was outside the documented surface, or a setup it needed did not succeed.',
    '',
    ...list.map((u) => `- ${code(u.verdict.ruleId)} (${ruleRef(u.rule)}) in ${inline(u.where)}: ${inline(u.reason)}`),
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
