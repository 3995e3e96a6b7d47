/**
 * `COMMERCE_SIM_REPORT_DIR_FILE`: when set, the report directory this command wrote is written to that file.
 * A caller (the GitHub Action) learns this run's report from it; `<dir>/latest` may still be an older run's
 * when this one ended before writing any.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIo } from './io.js';

const REPORT_DIR_FILE_VARIABLE = 'COMMERCE_SIM_REPORT_DIR_FILE';

export async function tellReportDir(io: CliIo, dir: string): Promise<void> {
  const file = io.env[REPORT_DIR_FILE_VARIABLE];
  if (file === undefined || file === '') return;
  await writeFile(resolve(io.cwd, file), `${dir}\n`, 'utf8');
}
