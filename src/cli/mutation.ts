/**
 * `commerce-sim mutation`: runs the shipped suite once per deviation of the simulator and prints which
 * deviations the suite catches. Exit 0 when every one is caught, 1 when one is not, 2 on usage errors.
 */
import { checkDeviations } from './target-options.js';
import { DEVIATION_IDS } from '../engine/deviations.js';
import { mutationScore, renderMutationTable, type MutationRow } from '../kit/mutation-table.js';
import type { ReadingsMutationRow } from '../kit/readings-proof.js';
import { describeReadings } from '../rules/readings.js';
import { isSurface, SURFACES } from '../sim/surface.js';
import { defineCommand, type DefinedCommand, type Values } from './command.js';
import { EXIT_OK, EXIT_RULE_FAILED, UsageError, type CliIo } from './io.js';
import { MAX_SEED } from '../limits.js';
import { wholeOption } from '../numbers.js';

/** The most combinations of readings one `--readings N` run draws. */
const MAX_READINGS_COMBINATIONS = 9999;

export const USAGE = `usage: commerce-sim mutation [--markdown] [--deviate ID]... [--seed S] [--readings N]

Runs the shipped scenarios against the simulator once per deviation (the simulator breaking one
documented rule on purpose) and reports whether the suite caught it, and which other rules failed.
  --markdown      print a Markdown table (default: an aligned text table)
  --deviate ID    try only this deviation (repeatable; default: all ${DEVIATION_IDS.length})
  --seed S        simulator seed (with --readings: the seed the combinations are drawn from)
  --surface S     full (default) or documented: the simulator answers only the API document, so a
                  deviation whose only evidence needs an undocumented operation shows as inconclusive
  --readings N    instead: N seeded combinations of the document's readings (\`commerce-sim readings\`);
                  for each, the suite and the property suites against the faithful simulator playing
                  them (no documented rule may fail) and against each deviation layered on them
                  (its rule must fail, or be inconclusive where the readings leave it no evidence)
  -h, --help      this help`;

const OPTIONS = {
  markdown: { type: 'boolean' },
  deviate: { type: 'string', multiple: true },
  seed: { type: 'string' },
  surface: { type: 'string' },
  readings: { type: 'string' },
} as const;

export const mutation: DefinedCommand = defineCommand({ name: 'mutation', usage: USAGE, options: OPTIONS, main: mutationCommand });

async function mutationCommand(values: Values<typeof OPTIONS>, io: CliIo): Promise<number> {
  const deviations = checkDeviations('--deviate', values.deviate ?? [...DEVIATION_IDS]);
  const seed = wholeOption('--seed', values.seed, 0, MAX_SEED);
  const count = wholeOption('--readings', values.readings, 1, MAX_READINGS_COMBINATIONS);
  if (count !== undefined) {
    if (values.surface !== undefined) throw new UsageError('CLI_USAGE', '--readings and --surface do not go together (the documented surface is one combination of readings)');
    const { runReadingsMutation } = await import('../kit/readings-proof.js');
    const rows = await runReadingsMutation({ seed: seed ?? 1, count, deviations });
    io.stdout.write(renderReadingsRows(rows, seed ?? 1));
    return rows.every((r) => r.falseFailures.length === 0 && r.deviations.every((d) => d.verdict.kind !== 'missed')) ? EXIT_OK : EXIT_RULE_FAILED;
  }
  const surface = values.surface ?? 'full';
  if (!isSurface(surface)) throw new UsageError('CLI_USAGE', `--surface takes ${SURFACES.join(' or ')}, got '${surface}'`);
  const { runMutation } = await import('../kit/mutation.js');
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

/** One block per combination: its readings, false failures (must be none), and deviations not caught. */
export function renderReadingsRows(rows: readonly ReadingsMutationRow[], seed: number): string {
  const out = [`readings: ${rows.length} combination${rows.length === 1 ? '' : 's'} from seed ${seed} (replay with --readings ${rows.length} --seed ${seed})`];
  for (const [i, row] of rows.entries()) {
    const caught = row.deviations.filter((d) => d.verdict.kind === 'caught').length;
    const blinded = row.deviations.flatMap((d) => (d.verdict.kind === 'blinded' ? [`${d.ruleId} (inconclusive: ${d.verdict.by})`] : []));
    const missed = row.deviations.flatMap((d) => (d.verdict.kind === 'missed' ? [`${d.ruleId} (${d.verdict.status ?? 'not judged'})`] : []));
    out.push('', `${i + 1}. ${describeReadings(row.readings)}`);
    out.push(`   faithful: ${row.falseFailures.length === 0 ? 'no documented rule failed' : `FALSE FAILURES: ${row.falseFailures.map((f) => `${f.ruleId}: ${f.message}`).join('; ')}`}`);
    out.push(`   deviations caught: ${caught}/${row.deviations.length}`);
    for (const b of blinded) out.push(`     ${b}`);
    for (const m of missed) out.push(`     MISSED ${m}`);
  }
  const bad = rows.filter((r) => r.falseFailures.length > 0 || r.deviations.some((d) => d.verdict.kind === 'missed')).length;
  out.push(
    '',
    bad === 0 ? 'every combination: no false failure, every deviation caught or honestly inconclusive' : `${bad} combination${bad === 1 ? '' : 's'} with a false failure or a missed deviation`,
  );
  return `${out.join('\n')}\n`;
}
