/** The rows of a mutation run and their table: pure, light (the CLI prints them without loading the runner). */
import { ruleById } from '../rules/catalogue.js';

export interface MutationRow {
  /** The rule the simulator broke (a deviation id). */
  readonly ruleId: string;
  /** Whether that rule failed. */
  readonly caught: boolean;
  /** Not caught because its verdict could not be reached by documented means (never a false pass). */
  readonly inconclusive: boolean;
  /** Every rule that failed under this deviation, in catalogue order. */
  readonly failedRules: readonly string[];
  /** Failed documented rules other than the target. */
  readonly unrelated: readonly string[];
}

const code = (id: string): string => `\`${id}\``;

/** The rows as a Markdown table, then the score line. Pure: the same rows give the same text. */
export function renderMutationTable(rows: readonly MutationRow[]): string {
  const lines = ['| rule | section | caught | other rules failed |', '| --- | --- | --- | --- |'];
  for (const row of rows) {
    const others = row.failedRules.filter((id) => id !== row.ruleId);
    const section = ruleById(row.ruleId)?.section ?? '?';
    lines.push(
      `| ${code(row.ruleId)} | ${section.replace(/\|/g, '\\|')} | ${row.caught ? 'yes' : row.inconclusive ? 'inconclusive' : '**no**'} | ${others.length === 0 ? '—' : others.map(code).join(', ')} |`,
    );
  }
  lines.push('', mutationScore(rows));
  return `${lines.join('\n')}\n`;
}

/** `mutation score: 33/34 (97%)`, rounded down so that 100% means every deviation was caught. */
export function mutationScore(rows: readonly MutationRow[]): string {
  const caught = rows.filter((r) => r.caught).length;
  const percent = rows.length === 0 ? 100 : Math.floor((caught * 100) / rows.length);
  return `mutation score: ${caught}/${rows.length} (${percent}%)`;
}
