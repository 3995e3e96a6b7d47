/**
 * The Markdown a run appends to `$GITHUB_STEP_SUMMARY` under GitHub Actions: the verdict, the counts by
 * level, the failing rules (documented first) and where the full report is. Short on purpose: the job's
 * summary page shows it above the logs; report.html has the rest. Pure: report in, text out.
 */
import type { RunReport } from './model.js';
import { failingRules, placesText, targetText, trafficLines, unjudgedLabel, userChecks, verdictReason } from './summarise.js';
import { findingGroups, trafficCommand } from './traffic-words.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function renderStepSummary(report: RunReport, command: string, reportPath: string): string {
  const { summary } = report;
  const headline = `${summary.verdict === 'pass' ? 'PASS' : 'FAIL'}: ${verdictReason(report)}`;
  const row = (level: string, c: RunReport['summary']['documented']) => `| ${level} | ${c.pass} | ${c.fail} | ${c.inconclusive} | ${c.notCovered} |`;
  const lines = [
    `### ${report.traffic === undefined ? `commerce-sim ${command}` : trafficCommand(command, report, report.traffic)}: ${summary.verdict === 'pass' ? '✅' : '❌'} ${headline}`,
    '',
    `Target: ${report.target.kind === 'sim' ? targetText(report) : `\`${cell(report.target.baseUrl)}\``}${report.target.deviate === undefined ? '' : ` (deviating: ${cell(report.target.deviate)})`}${report.options.shard === undefined ? '' : `, shard ${report.options.shard}`}`,
    '',
    `| rules | pass | fail | inconclusive | ${unjudgedLabel(report)} |`,
    '|---|---:|---:|---:|---:|',
    row('documented', summary.documented),
    row('assumed', summary.assumed),
    '',
    ...(report.traffic === undefined ? [] : ['', ...trafficLines(report, 10)]),
    report.traffic === undefined
      ? `Cases: ${summary.cases.pass} pass, ${summary.cases.fail} fail, ${summary.cases.inconclusive} inconclusive, ${summary.cases.skip} skipped (each scenario or property counts one).`
      : `${findingGroups(report).replace(/^w/, 'W')}.`,
  ];
  // In the order every report lists them: causes first (summarise.ts failingRules).
  const failing = failingRules(report).flatMap((x) => (x.rule === undefined ? [] : [x.rule]));
  if (failing.length > 0) {
    lines.push('', '| failing rule | level | section | failed verdicts | statement |', '|---|---|---|---:|---|');
    for (const r of failing.slice(0, 25)) lines.push(`| \`${r.id}\` | ${r.level} | ${cell(r.section)} | ${r.failed} | ${cell(r.statement)} |`);
    if (failing.length > 25) lines.push('', `… and ${failing.length - 25} more failing rules (see the report).`);
  }
  const own = userChecks(report).filter((c) => c.status === 'fail');
  if (own.length > 0) {
    lines.push('', '| your own check that failed | written at | failed verdicts |', '|---|---|---:|');
    for (const c of own) lines.push(`| \`${c.id}\` | ${cell(placesText(c))} | ${c.failed} |`);
  }
  lines.push('', `Full report: \`${cell(reportPath)}\` (report.html, report.md, junit.xml, report.json)`, '');
  return `${lines.join('\n')}\n`;
}
