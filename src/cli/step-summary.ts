/** Under GitHub Actions, a run's Markdown summary appended to the job's step summary (`$GITHUB_STEP_SUMMARY`). */
import { appendFile } from 'node:fs/promises';
import { renderStepSummary } from '../report/step-summary.js';
import type { RunReport } from '../report/model.js';
import type { CliIo } from './io.js';

/** Appends when the variable names a file (set by the runner), does nothing elsewhere. */
export async function appendStepSummary(io: CliIo, report: RunReport, command: string, reportPath: string): Promise<void> {
  const file = io.env['GITHUB_STEP_SUMMARY'];
  if (file === undefined || file === '') return;
  await appendFile(file, renderStepSummary(report, command, reportPath), 'utf8');
}
