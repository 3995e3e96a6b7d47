/** The reporters' only I/O: `<dir>/<runId>/` with every format, and `<dir>/latest` pointing at it. */
import { CodedKitError } from '../kit-errors.js';
import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { RunReport } from './model.js';
import { READINGS_FILE, renderReadingsFile } from './readings-file.js';

const REPORT_FILES = ['report.json', 'junit.xml', 'report.md', 'report.html'] as const;

export class ReportError extends CodedKitError<'REPORT_BAD_RUN_ID'> {
  override readonly name = 'ReportError';
}

export async function writeReports(dir: string, report: RunReport): Promise<{ dir: string; files: string[] }> {
  const runId = report.timing.runId;
  // The run id becomes a path segment: refuse anything that could leave `dir` or clobber `latest`.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(runId) || runId === 'latest') {
    throw new ReportError('REPORT_BAD_RUN_ID', `run id ${JSON.stringify(runId)} cannot name a report directory`);
  }
  const base = resolve(dir);
  const runDir = join(base, runId);
  await mkdir(runDir, { recursive: true });
  const texts: Record<(typeof REPORT_FILES)[number], string> = {
    'report.json': renderJson(report),
    'junit.xml': renderJunit(report),
    'report.md': renderMarkdown(report),
    'report.html': renderHtml(report),
  };
  const files = REPORT_FILES.map((name) => join(runDir, name));
  await Promise.all(REPORT_FILES.map((name) => writeFile(join(runDir, name), texts[name], 'utf8')));
  if (report.readings !== undefined) {
    files.push(join(runDir, READINGS_FILE));
    await writeFile(join(runDir, READINGS_FILE), renderReadingsFile(report), 'utf8');
  }
  await pointLatest(base, runId);
  return { dir: runDir, files };
}

/** A relative symlink survives moving the reports directory; where symlinks fail, a copy. */
async function pointLatest(base: string, runId: string): Promise<void> {
  const latest = join(base, 'latest');
  await rm(latest, { recursive: true, force: true }); // removes a link itself, never its target
  try {
    await symlink(runId, latest, 'dir');
  } catch {
    await cp(join(base, runId), latest, { recursive: true });
  }
}
