/** What a run's report says about itself besides results: the tool's version and a run id. */
import { readFile } from 'node:fs/promises';
import type { RunReport } from '../report/model.js';
import type { Target } from '../port.js';

export async function packageVersion(): Promise<string> {
  try {
    const pkg: unknown = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    return typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** `20261122T204512Z-sim<suffix>`: when and against what; the suffix keeps kinds of run and CI shards apart. */
function runId(started: number, target: Target, suffix: string): string {
  const when = new Date(started)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  const what = target.kind === 'sim' ? 'sim' : new URL(target.baseUrl).host.replace(/[^A-Za-z0-9.-]/g, '-');
  return `${when}-${what}${suffix}`;
}

/** The report's `timing`, the one part that differs between identical runs: the same for run and props. */
export function runTiming(started: number, target: Target, suffix: string, requests: number): RunReport['timing'] {
  return { runId: runId(started, target, suffix), startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, requests };
}

/** What a report says about its target: kind, base URL and the deviations asked of the simulator. */
export function reportTarget(target: Target, deviate: readonly string[]): RunReport['target'] {
  return { kind: target.kind, baseUrl: target.baseUrl, ...(deviate.length > 0 ? { deviate: deviate.join(',') } : {}) };
}
