/** Same seed and target: byte-identical reports from `commerce-sim run`, apart from the separate timing block. */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { captureIo } from '../support/cli-io.js';

const quiet = () => captureIo().io;

async function reportOnce(): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-report-'));
  expect(await run(['--report', dir, '--sim-seed', '7'], quiet())).toBe(0);
  const runDir = readdirSync(dir).find((name) => name !== 'latest');
  if (runDir === undefined) throw new Error('no report written');
  const read = (file: string) => readFileSync(join(dir, runDir, file), 'utf8');
  const json: unknown = JSON.parse(read('report.json'));
  if (typeof json !== 'object' || json === null || !('timing' in json)) throw new Error('report.json has no timing block');
  const { timing: _timing, ...rest } = json;
  return {
    json: JSON.stringify(rest),
    junit: read('junit.xml'),
    markdown: read('report.md').split('## Timing')[0] ?? '',
    html: read('report.html').replace(/<section id="timing"[\s\S]*?<\/section>|<footer[\s\S]*?<\/footer>/g, ''),
  };
}

describe('run reports are deterministic', () => {
  it('gives byte-identical report.json, junit.xml, report.md and report.html for the same seed, timing aside', async () => {
    const a = await reportOnce();
    const b = await reportOnce();
    expect(a.json).toBe(b.json);
    expect(a.junit).toBe(b.junit);
    expect(a.markdown).toBe(b.markdown);
    expect(a.html).toBe(b.html);
    expect(a.json?.length ?? 0).toBeGreaterThan(10_000);
  });
});
