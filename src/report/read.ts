/** A report.json read back (for `report merge`): from a run's directory, or a reports directory's `latest`. */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CodedKitError } from '../kit-errors.js';
import { isJsonObject } from '../engine/json.js';
import type { RunReport } from './model.js';

class ReportReadError extends CodedKitError<'REPORT_UNREADABLE'> {
  override readonly name = 'ReportReadError';
}

/** `dir/report.json`, else `dir/latest/report.json`: the path of the report a directory holds. */
async function reportFileIn(dir: string): Promise<string> {
  for (const file of [join(dir, 'report.json'), join(dir, 'latest', 'report.json')]) {
    const found = await stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
    if (found) return file;
  }
  throw new ReportReadError('REPORT_UNREADABLE', `${dir} holds no report.json (nor latest/report.json)`);
}

/**
 * The report of `dir`. The file is this tool's own output, so its shape is checked where a merge relies
 * on it (schema, tool, the case lists and timing), not member by member.
 */
export async function readReport(dir: string): Promise<{ file: string; report: RunReport }> {
  const file = await reportFileIn(dir);
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ReportReadError('REPORT_UNREADABLE', `${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const problem = reportShapeProblem(value);
  if (problem !== undefined) throw new ReportReadError('REPORT_UNREADABLE', `${file} is not a commerce-sim report: ${problem}`);
  return { file, report: value as RunReport };
}

function reportShapeProblem(v: unknown): string | undefined {
  if (!isJsonObject(v)) return 'not an object';
  if (v['schemaVersion'] !== 1) return 'schemaVersion is not 1';
  const tool = v['tool'];
  if (!isJsonObject(tool) || tool['name'] !== 'commerce-sim' || typeof tool['version'] !== 'string') return 'tool is not commerce-sim';
  for (const list of ['rules', 'scenarios', 'properties'] as const) if (!Array.isArray(v[list])) return `${list} is not a list`;
  if (!isJsonObject(v['target']) || !isJsonObject(v['options']) || !isJsonObject(v['summary'])) return 'target, options or summary missing';
  const timing = v['timing'];
  if (!isJsonObject(timing) || typeof timing['runId'] !== 'string' || typeof timing['startedAt'] !== 'string' || typeof timing['durationMs'] !== 'number' || typeof timing['requests'] !== 'number')
    return 'timing is incomplete';
  return undefined;
}
