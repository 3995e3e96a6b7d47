/**
 * readings.json: the readings a run observed, as a dataset file (src/store/adversity-profiles.ts), so the
 * one dataset reader plays it: `serve --readings FILE` (its readings only), `serve --dataset FILE`,
 * `startSimulator({ readings: FILE })`. `readings` holds the observed values only (a point not observed
 * takes the public API's when played); `notes` says what the run could not tell, for the reader.
 */
import type { RunReport } from './model.js';

export const READINGS_FILE = 'readings.json';

export function renderReadingsFile(report: RunReport): string {
  const readings: Record<string, string> = {};
  const unknown: Record<string, string> = {};
  const notObserved: Record<string, string> = {};
  for (const p of report.readings ?? []) {
    if (p.status === 'observed' && p.value !== undefined) readings[p.name] = p.value;
    else if (p.status === 'unknown') unknown[p.name] = p.evidence ?? '';
    else notObserved[p.name] = p.reason ?? '';
  }
  const notes = { observedAt: report.target.baseUrl, noneOfTheKnownReadings: unknown, notObserved };
  return `${JSON.stringify({ readings, notes }, null, 2)}\n`;
}
