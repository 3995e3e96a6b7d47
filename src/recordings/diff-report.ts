/** The diff result as Markdown (for people and CI summaries) and as JSON (for tools). Pure. */
import { causesText } from './diff-causes.js';
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
    behaviour === 0 ? '**No behavioural difference.**' : `**${behaviour} behavioural difference${behaviour === 1 ? '' : 's'}, ${causesText(r.explanation)}.**`,
    '',
  ];
  const { causes, knockOns } = r.explanation;
  if (causes.length > 0) {
    // Each difference once, under the rule that explains it; the rules it merely touches are named after.
    lines.push('## Behavioural differences by cause', '');
    for (const { id, differences, knockOns: following } of causes) {
      const follow = following.length === 0 ? '' : ` Knock-ons, differing only where it does: ${following.map((k) => `\`${k}\``).join(', ')}.`;
      lines.push(`### ${id}`, '', `${differences.length} difference${differences.length === 1 ? '' : 's'}.${follow}`, '', ...table(differences), '');
    }
  }
  if (knockOns.length > 0) {
    lines.push('## Knock-ons', '', 'Rules whose differences a cause above explains; not a separate failure.', '', '| rule | knock-on: follows | differences |', '|---|---|---|');
    for (const k of knockOns) lines.push(`| ${k.id} | ${k.follows} | ${r.byRule.find((x) => x.id === k.id)?.differences.length ?? 0} |`);
    lines.push('');
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
    summary: {
      behaviour: count('behaviour'),
      data: count('data'),
      coverage: count('coverage'),
      rules: r.byRule.map((x) => x.id),
      causes: r.explanation.causes.map((c) => c.id),
      knock_ons: r.explanation.knockOns,
    },
    rules: r.byRule,
    causes: r.explanation.causes,
    differences: r.differences,
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
