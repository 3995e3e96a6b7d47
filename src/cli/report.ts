/** `commerce-sim report merge DIR... [--out DIR] [--json]`: shard reports merged into one run's report. */
import { resolve } from 'node:path';
import { catalogue } from '../rules/catalogue.js';
import { describeMergeProblem, mergeReports } from '../report/merge.js';
import { readReport } from '../report/read.js';
import { verdictReason } from '../report/summarise.js';
import { failedRuleLines } from './failed-rules.js';
import { styleFor } from './style.js';
import { CodedKitError } from '../kit-errors.js';
import { defineCommand, type DefinedCommand } from './command.js';
import { EXIT_OK, EXIT_RULE_FAILED, UsageError } from './io.js';
import { appendStepSummary } from './step-summary.js';
import { tellReportDir } from './report-dir-file.js';

const USAGE = `usage: commerce-sim report merge DIR... [--out DIR] [--json]

Merges the reports of one run's shards (\`run --shard I/N\` on several machines), or of \`run\` and
\`props\` against the same target, into one report whose rules and verdict are those of a single run:
every case of every input, the rules summarised again over all of them.
  DIR          a run's report directory (holding report.json), or a reports directory (its latest
               run is read); give one per shard
  --out DIR    where the merged report goes (default reports): DIR/<run id>-merged/ and DIR/latest
  --json       print the merged report.json instead of the summary
  -h, --help   this help

Inputs must agree on the tool version, target and options (all but --shard) and judge no case twice.
Exit 0 when every documented rule holds, 1 when one fails, 2 on unreadable or mismatched inputs.
Under GitHub Actions the summary is also appended to $GITHUB_STEP_SUMMARY.`;

class MergeError extends CodedKitError<'REPORT_MERGE_MISMATCH'> {
  override readonly name = 'MergeError';
}

const OPTIONS = {
  out: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const report: DefinedCommand = defineCommand({
  name: 'report',
  usage: USAGE,
  options: OPTIONS,
  allowPositionals: true,
  async main(values, io, positionals) {
    const [action, ...dirs] = positionals;
    if (action !== 'merge') throw new UsageError('CLI_USAGE', action === undefined ? 'report needs an action: merge' : `unknown action '${action}' (report merge DIR...)`);
    if (dirs.length === 0) throw new UsageError('CLI_USAGE', 'report merge needs at least one report directory');
    const inputs = await Promise.all(
      dirs.map(async (dir) => {
        const read = await readReport(resolve(io.cwd, dir));
        return { source: dir, report: read.report };
      }),
    );
    const merged = mergeReports(inputs, catalogue);
    if (!merged.ok) throw new MergeError('REPORT_MERGE_MISMATCH', describeMergeProblem(merged));
    const [{ writeReports }, { renderJson }] = await Promise.all([import('../report/write.js'), import('../report/json.js')]);
    const written = await writeReports(resolve(io.cwd, values.out ?? 'reports'), merged.value);
    await tellReportDir(io, written.dir);
    const { summary } = merged.value;
    if (values.json === true) io.stdout.write(renderJson(merged.value));
    else {
      io.stdout.write(
        [
          `commerce-sim report merge: ${inputs.length} reports, ${merged.value.scenarios.length} scenarios, ${merged.value.properties.length} properties`,
          `  ${summary.verdict === 'pass' ? 'PASS' : 'FAIL'}: ${verdictReason(merged.value)}`,
          `  documented ${summary.documented.pass} pass ${summary.documented.fail} fail ${summary.documented.inconclusive} inconclusive ${summary.documented.notCovered} not covered`,
          ...failedRuleLines(merged.value, styleFor(io.stdout, io.env)),
          `  report: ${resolve(written.dir, 'report.html')}`,
          '',
        ].join('\n'),
      );
    }
    await appendStepSummary(io, merged.value, 'report merge', written.dir);
    return summary.verdict === 'pass' ? EXIT_OK : EXIT_RULE_FAILED;
  },
});
