/**
 * The Markdown a run appends to `$GITHUB_STEP_SUMMARY` under GitHub Actions: the verdict, the counts by
 * level, the failing rules (documented first) and where the full report is. Short on purpose: the job's
 * summary page shows it above the logs; report.html has the rest. Pure: report in, text out.
 */
import type { RunReport, RuleSummary } from './model.js';
import { userChecks, verdictReason } from './summarise.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function renderStepSummary(report: RunReport, command: string, reportPath: string): string {
  const { summary } = report;
  const failing = report.rules.filter((r) => r.status === 'fail');
  const headline = `${summary.verdict === 'pass' ? 'PASS' : 'FAIL'}: ${verdictReason(report)}`;
  const row = (level: string, c: RunReport['summary']['documented']) => `| ${level} | ${c.pass} | ${c.fail} | ${c.inconclusive} | ${c.notCovered} |`;
  const lines = [
    `### commerce-sim ${command}: ${summary.verdict === 'pass' ? '✅' : '❌'} ${headline}`,
    '',
    `Target: \`${cell(report.target.baseUrl)}\`${report.target.deviate === undefined ? '' : ` (deviating: ${cell(report.target.deviate)})`}${report.options.shard === undefined ? '' : `, shard ${report.options.shard}`}`,
    '',
    '| rules | pass | fail | inconclusive | not covered |',
    '|---|---:|---:|---:|---:|',
    row('documented', summary.documented),
    row('assumed', summary.assumed),
    '',
    `Cases: ${summary.cases.pass} pass, ${summary.cases.fail} fail, ${summary.cases.inconclusive} inconclusive, ${summary.cases.skip} skipped (each scenario or property counts one).`,
  ];
  if (failing.length > 0) {
    const order = (r: RuleSummary) => (r.level === 'documented' ? 0 : 1);
    lines.push('', '| failing rule | level | section | failed verdicts | statement |', '|---|---|---|---:|---|');
    for (const r of [...failing].sort((a, b) => order(a) - order(b)).slice(0, 25)) lines.push(`| \`${r.id}\` | ${r.level} | ${cell(r.section)} | ${r.failed} | ${cell(r.statement)} |`);
    if (failing.length > 25) lines.push('', `… and ${failing.length - 25} more failing rules (see the report).`);
  }
  const own = userChecks(report).filter((c) => c.status === 'fail');
  if (own.length > 0) {
    lines.push('', '| your own check that failed | written at | failed verdicts |', '|---|---|---:|');
    for (const c of own) lines.push(`| \`${c.id}\` | ${cell(c.places.map((p) => `${p.file}${p.line === undefined ? '' : `:${p.line}`}`).join(', '))} | ${c.failed} |`);
  }
  lines.push('', `Full report: \`${cell(reportPath)}\` (report.html, report.md, junit.xml, report.json)`, '');
  return `${lines.join('\n')}\n`;
}
