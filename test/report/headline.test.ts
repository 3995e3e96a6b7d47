/**
 * A headline claims only what was judged (issue 27): a read-only run against a served simulator passes on
 * part of the catalogue, and the terminal, report.md, report.html, JUnit and the job summary all say how
 * many documented rules were judged and why the others were not.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { listen, type RunningServer } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';
import { captureIo } from '../support/cli-io.js';

let server: RunningServer;
let sim: Simulator;
const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-headline-'));
beforeAll(async () => {
  sim = new Simulator({ wallClock: () => Date.now() });
  server = await listen(sim, 0, '127.0.0.1');
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the headline of a run that judged part of the catalogue', () => {
  it('says how many documented rules were judged and, for the rest, what would have judged them', async () => {
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const c = captureIo({ cwd: dir, env: { T: sim.issueToken('reader', 'read-write'), GITHUB_STEP_SUMMARY: summary } });
    expect(await run(['--target', server.baseUrl, '--token-env', 'T', '--report', 'r'], c.io)).toBe(0);
    const headline = /PASS: (\d+) of 34 documented rules judged, all hold; (\d+) not covered \(([^)]+)\)/.exec(c.out());
    expect(headline, c.out()).not.toBeNull();
    const [, judged, notCovered, causes] = headline ?? [];
    expect(Number(judged) + Number(notCovered)).toBe(34);
    // Writes were not allowed, and the simulator's admin API was not given: each cause counted, the counts adding up.
    expect(causes).toMatch(/\d+ need --allow-writes/);
    const counted = [...(causes ?? '').matchAll(/(\d+) /g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(counted).toBe(Number(notCovered));
    const line = `${judged} of 34 documented rules judged, all hold; ${notCovered} not covered (${causes})`;
    for (const file of ['report.md', 'report.html', 'junit.xml'])
      expect(readFileSync(join(dir, 'r', 'latest', file), 'utf8'), file).toContain(file === 'report.html' ? line.replace(/'/g, '&#39;') : line);
    expect(readFileSync(summary, 'utf8')).toContain(line);
  });

  it('says "all 34" when the whole catalogue was judged', async () => {
    const c = captureIo({ cwd: dir });
    expect(await run(['--report', 'whole'], c.io)).toBe(0);
    expect(c.out()).toContain('PASS: all 34 documented rules judged, all hold\n');
  });
});
