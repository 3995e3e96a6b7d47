/**
 * `inconclusive` never fails a run, not even with --strict: a scenario whose setup fails leaves its
 * probe inconclusive; run exits 0 and every report format says so.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { captureIo } from '../support/cli-io.js';

const SCENARIO = `name: "meta behind a setup that cannot succeed"
rules:
  - pagination.meta.present
steps:
  - name: a setup the target refuses
    role: setup
    request:
      method: GET
      path: /v2/no-such-resource
    expect:
      status: 200
  - name: the page members are present
    rules:
      - pagination.meta.present
    request:
      method: GET
      path: /v2/accounts
      query:
        page[limit]: "2"
`;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'commerce-sim-inconclusive-'));
  await writeFile(join(dir, 'blocked.yaml'), SCENARIO, 'utf8');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a run with inconclusive verdicts only', () => {
  it('exits 0 with and without --strict, and every format counts the inconclusive apart', async () => {
    for (const strict of [[], ['--strict']]) {
      const c = captureIo({ cwd: dir });
      expect(await run([join(dir, 'blocked.yaml'), '--report', 'reports', ...strict], c.io), c.out() + c.err()).toBe(0);
      expect(c.out()).toContain('commerce-sim run: PASS');
      expect(c.out()).toMatch(/documented +0 pass +0 fail +1 inconclusive/);
      expect(c.out()).toContain('inconclusive: pagination.meta.present: setup `GET /v2/no-such-resource` answered 404');
    }
    const latest = join(dir, 'reports', 'latest');
    const json = JSON.parse(await readFile(join(latest, 'report.json'), 'utf8')) as { summary: unknown; options: { strict: boolean } };
    expect(json.options.strict).toBe(true);
    expect(json.summary).toMatchObject({ verdict: 'pass', documented: { fail: 0, inconclusive: 1 }, cases: { inconclusive: 1, fail: 0 } });
    const xml = await readFile(join(latest, 'junit.xml'), 'utf8');
    expect(xml).not.toContain('<failure');
    expect(xml).toContain('<skipped message="inconclusive: setup `GET /v2/no-such-resource` answered 404');
    const md = await readFile(join(latest, 'report.md'), 'utf8');
    expect(md).toContain('**Verdict: ✅ PASS**');
    expect(md).toContain('## Inconclusive (1)');
    const html = await readFile(join(latest, 'report.html'), 'utf8');
    expect(html).toContain('Inconclusive (1)');
  });
});
