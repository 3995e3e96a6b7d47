/**
 * `commerce-sim mutation`: runs the shipped suite once per deviation of the simulator and prints which
 * deviations the suite catches. Exit 0 when every one is caught, 1 when one is not, 2 on usage errors.
 */
import { checkDeviations } from './target-options.js';
import { DEVIATION_IDS } from '../engine/deviations.js';
import { mutationScore, renderMutationTable, runMutation, type MutationRow } from '../kit/mutation.js';
import { isSurface, SURFACES } from '../sim/surface.js';
import { defineCommand, type Values } from './command.js';
import { EXIT_OK, EXIT_RULE_FAILED, UsageError, type CliIo, type Command } from './io.js';

export const USAGE = `usage: commerce-sim mutation [--markdown] [--deviate ID]... [--seed S]

Runs the shipped scenarios against the simulator once per deviation (the simulator breaking one
documented rule on purpose) and reports whether the suite caught it, and which other rules failed.
  --markdown      print a Markdown table (default: an aligned text table)
  --deviate ID    try only this deviation (repeatable; default: all ${DEVIATION_IDS.length})
  --seed S        simulator seed
  --surface S     full (default) or documented: the simulator answers only the API document, so a
                  deviation whose only evidence needs an undocumented operation shows as inconclusive
  -h, --help      this help`;

const OPTIONS = {
  markdown: { type: 'boolean' },
  deviate: { type: 'string', multiple: true },
  seed: { type: 'string' },
  surface: { type: 'string' },
} as const;

export const mutation: Command = defineCommand({ name: 'mutation', usage: USAGE, options: OPTIONS, main: mutationCommand });

async function mutationCommand(values: Values<typeof OPTIONS>, io: CliIo): Promise<number> {
  const deviations = values.deviate ?? [...DEVIATION_IDS];
  checkDeviations('--deviate', deviations);
  let seed: number | undefined;
  if (values.seed !== undefined) {
    seed = Number(values.seed);
    if (!/^\d+$/.test(values.seed) || !Number.isSafeInteger(seed) || seed >= 2 ** 32) throw new UsageError(`--seed takes a whole number from 0 to ${2 ** 32 - 1}, got '${values.seed}'`);
  }
  const surface = values.surface ?? 'full';
  if (!isSurface(surface)) throw new UsageError(`--surface takes ${SURFACES.join(' or ')}, got '${surface}'`);
  const rows = await runMutation({ deviations, surface, ...(seed === undefined ? {} : { seed }) });
  io.stdout.write(values.markdown === true ? renderMutationTable(rows) : renderText(rows));
  return rows.every((r) => r.caught) ? EXIT_OK : EXIT_RULE_FAILED;
}

/** The same rows as aligned text for a terminal. */
export function renderText(rows: readonly MutationRow[]): string {
  const cells = rows.map((r) => [r.ruleId, r.caught ? 'caught' : r.inconclusive ? 'inconclusive' : 'MISSED', r.failedRules.filter((id) => id !== r.ruleId).join(', ') || '-']);
  const header = ['deviation', 'verdict', 'other rules failed'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]) => c.map((cell, i) => (i === c.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ');
  return `${[line(header), ...cells.map(line), '', mutationScore(rows)].join('\n')}\n`;
}
