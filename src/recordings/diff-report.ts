/** The diff result as Markdown (for people and CI summaries) and as JSON (for tools). Pure. */
import { behaviouralCount, type DiffResult, type Difference } from './diff.js';

const MAX_ROWS = 40;

export function renderDiffMarkdown(r: DiffResult): string {
  const behaviour = behaviouralCount(r);
  const data = r.differences.filter((d) => d.kind === 'data');
  const coverage = r.differences.filter((d) => d.kind === 'coverage');
  const lines = [
    '# commerce-sim diff',
    '',
    `- a: \`${r.a}\``,
    `- b: \`${r.b}\``,
    `- compared: ${r.compared.scenarios} scenarios, ${r.compared.exchanges} exchange pairs`,
    '',
    behaviour === 0 ? '**No behavioural difference.**' : `**${behaviour} behavioural difference${behaviour === 1 ? '' : 's'} in ${r.byRule.length} rule${r.byRule.length === 1 ? '' : 's'}.**`,
    '',
  ];
  if (r.byRule.length > 0) {
    lines.push('## Behavioural differences by rule', '');
    for (const { id, differences } of r.byRule) {
      lines.push(`### ${id}`, '', ...table(differences), '');
    }
  }
  if (data.length > 0) {
    lines.push('## Data differences', '', 'Expected between deployments with different records (totals, page counts, nullable members); not a failure.', '', ...table(data), '');
  }
  if (coverage.length > 0) {
    lines.push('## Not compared', '', ...table(coverage), '');
  }
  lines.push('Ids and timestamps are compared by shape (UUID, ISO 8601 with milliseconds), links as parsed URLs, totals by their relations.');
  return `${lines.join('\n')}\n`;
}

function table(list: readonly Difference[]): string[] {
  const rows = ['| where | request | aspect | what | a | b |', '|---|---|---|---|---|---|'];
  for (const d of list.slice(0, MAX_ROWS)) {
    const where = [d.scenario, d.step === undefined ? undefined : `${d.stepIndex ?? ''}. ${d.step}`, d.exchange === undefined ? undefined : `#${d.exchange + 1}`]
      .filter((x) => x !== undefined)
      .join(' › ');
    rows.push(`| ${cell(where)} | ${cell(d.request === undefined ? '' : `\`${short(d.request)}\``)} | ${d.aspect} | ${cell(d.what)} | ${cell(d.a)} | ${cell(d.b)} |`);
  }
  if (list.length > MAX_ROWS) rows.push(`| … ${list.length - MAX_ROWS} more | | | | | |`);
  return rows;
}

const short = (text: string): string => (text.length > 100 ? `${text.slice(0, 97)}...` : text);
const cell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function renderDiffJson(r: DiffResult): string {
  const count = (kind: Difference['kind']) => r.differences.filter((d) => d.kind === kind).length;
  const report = {
    format: 1,
    a: r.a,
    b: r.b,
    compared: r.compared,
    summary: { behaviour: count('behaviour'), data: count('data'), coverage: count('coverage'), rules: r.byRule.map((x) => x.id) },
    rules: r.byRule,
    differences: r.differences,
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
