/** `commerce-sim rules [--json]`: the rule catalogue (src/rules/catalogue.ts) with level and document section. */
import { catalogue } from '../rules/catalogue.js';
import type { Rule } from '../rules/rule.js';
import { defineCommand } from './command.js';
import { EXIT_OK, type Command } from './io.js';

const USAGE = `usage: commerce-sim rules [--json]

Prints every rule: id, level (documented | assumed), section of the API document, statement, and
under each documented rule the document's own sentence.
  --json   one JSON array of {id, family, level, section, statement, quote?}`;

const COLUMNS = ['id', 'level', 'section', 'statement'] as const;

/** An aligned table, one rule a line; the statement is last so long ones do not push columns. */
export function rulesTable(rules: readonly Rule[]): string {
  const rows = rules.map((r) => [r.id, r.level, r.section, r.statement]);
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w, i) => '-'.repeat(i === widths.length - 1 ? Math.min(w, 40) : w)).join('-|-');
  // A documented rule's own sentence of the document follows its row.
  const body = rules.flatMap((r, i) => [line(rows[i] ?? []), ...(r.quote === undefined ? [] : [`${' '.repeat(4)}“${r.quote}”`])]);
  return [line(COLUMNS), rule, ...body].join('\n') + '\n';
}

export function rulesJson(rules: readonly Rule[]): string {
  return (
    JSON.stringify(
      rules.map(({ id, family, level, section, statement, quote }) => ({ id, family, level, section, statement, ...(quote === undefined ? {} : { quote }) })),
      null,
      2,
    ) + '\n'
  );
}

export const rules: Command = defineCommand({
  name: 'rules',
  usage: USAGE,
  options: { json: { type: 'boolean' } },
  main: async (values, io) => {
    io.stdout.write(values.json === true ? rulesJson(catalogue) : rulesTable(catalogue));
    return EXIT_OK;
  },
});
