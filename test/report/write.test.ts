import { cp, lstat, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.js';
import { writeReports } from '../../src/report/write.js';
import { makeReport } from './fixture.js';

describe('writeReports', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'commerce-sim-report-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every format under <runId>/ and points latest at the newest run', async () => {
    const first = await writeReports(dir, makeReport({ runId: 'run-1' }));
    expect(first.dir).toBe(join(dir, 'run-1'));
    expect(first.files.map((f) => f.slice(first.dir.length + 1))).toEqual(['report.json', 'junit.xml', 'report.md', 'report.html']);
    expect((await readdir(first.dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md']);

    const second = makeReport({ runId: 'run-2' });
    await writeReports(dir, second);
    expect((await readdir(dir)).sort()).toEqual(['latest', 'run-1', 'run-2']);
    expect(await readFile(join(dir, 'latest', 'report.json'), 'utf8')).toBe(renderJson(second));
    expect((await lstat(join(dir, 'latest'))).isSymbolicLink()).toBe(true);
    // Replacing the link left the earlier run alone.
    expect(await readdir(join(dir, 'run-1'))).toHaveLength(4);
  });

  it('replaces a latest that is a plain directory', async () => {
    await writeReports(dir, makeReport({ runId: 'run-1' }));
    await rm(join(dir, 'latest'));
    await cp(join(dir, 'run-1'), join(dir, 'latest'), { recursive: true });
    await writeReports(dir, makeReport({ runId: 'run-2' }));
    expect(await readFile(join(dir, 'latest', 'report.json'), 'utf8')).toContain('"runId": "run-2"');
  });

  it('refuses a run id that is not a plain path segment', async () => {
    await expect(writeReports(dir, makeReport({ runId: '../escape' }))).rejects.toMatchObject({ code: 'REPORT_BAD_RUN_ID' });
    await expect(writeReports(dir, makeReport({ runId: 'latest' }))).rejects.toMatchObject({ code: 'REPORT_BAD_RUN_ID' });
  });
});
