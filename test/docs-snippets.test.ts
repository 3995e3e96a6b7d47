/**
 * Snippets of the guides that no command runner reaches, tested as pasted (issue 35): the fixtures guide's
 * vitest file is test/recordings/readme-example.test.ts, which `npm test` runs; each scenario of the
 * deployment guide runs against the simulator and passes. The guides' `sh` blocks are run by
 * test/readme-commands.test.ts, their whole vitest files by test/e2e/tarball.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/run.js';
import { captureIo } from './support/cli-io.js';
import { blocksOf } from './support/docs.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-docs-snippets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the guides' snippets", () => {
  it("the fixtures guide's vitest example is test/recordings/readme-example.test.ts below its opening comment", () => {
    const examples = blocksOf('docs/guides/fixtures.md').filter((b) => b.lang === 'ts');
    expect(examples).toHaveLength(1);
    const file = readFileSync(new URL('recordings/readme-example.test.ts', import.meta.url), 'utf8').split('\n');
    const body = file.slice(file.findIndex((line) => !line.startsWith('//')));
    expect(`${examples[0]?.lines.join('\n')}\n`).toBe(body.join('\n'));
  });

  const scenarios = blocksOf('docs/guides/deployment.md').filter((b) => b.lang === 'yaml');
  it('finds the scenarios of the deployment guide', () => {
    expect(scenarios.map((b) => b.lines[0])).toEqual(['name: "create: a valid create answers 201 with the documented fields"', 'name: "my team: the accounts list as our client reads it"']);
  });

  for (const [i, block] of scenarios.entries()) {
    it(`runs the deployment guide's scenario ${i + 1} against the simulator, as pasted: it passes`, async () => {
      const file = join(dir, `scenario-${i + 1}.yaml`);
      writeFileSync(file, `${block.lines.join('\n')}\n`);
      const c = captureIo({ cwd: dir });
      expect(await run([file, '--report', join(dir, `reports-${i + 1}`)], c.io), c.out() + c.err()).toBe(0);
      expect(c.out()).toMatch(/ PASS: /);
    });
  }
});
