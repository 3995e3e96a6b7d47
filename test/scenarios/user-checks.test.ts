/**
 * Checks of the scenario author's own (issue 20): a probe's `expect` named `user.<name>`, with JSON-path,
 * status and header matchers and an inline JSON Schema, reported apart from the catalogue's rules with
 * the scenario file and line; a failing one fails the run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { captureIo } from '../support/cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-user-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCENARIO = `name: "my team: the accounts list as our client reads it"
tags: [mine]
steps:
  - name: two accounts, shaped as we parse them
    request:
      method: GET
      path: /v2/accounts
      query:
        page[limit]: 2
    expect:
      rule: user.two-accounts
      status: 200
      headers:
        content-type:
          matches: json
      json:
        - path: $.data
          length: 2
        - path: $.data[0].type
          equals: account
      schema:
        type: object
        required: [data, meta]
        properties:
          data: { type: array, items: { type: object, required: [id, name] } }
  - name: a page of three, which our client wrongly assumes
    request:
      method: GET
      path: /v2/accounts
      query:
        page[limit]: 2
    expect:
      rule: user.three-accounts
      json:
        - path: $.data
          length: 3
`;

interface Report {
  summary: { verdict: string; user: { pass: number; fail: number } };
  rules: { id: string }[];
  userChecks: { id: string; status: string; passed: number; failed: number; places: { file: string; line?: number }[] }[];
}

describe('user checks in scenarios', () => {
  it('are judged, reported apart from the rules with file and line, and a failing one fails the run', async () => {
    const file = join(dir, 'mine.yaml');
    writeFileSync(file, SCENARIO);
    const c = captureIo({ cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(await run([file, '--report', 'reports'], c.io)).toBe(1);
    expect(c.out()).toContain('FAIL: 1 of your own check failed');
    expect(c.out()).toMatch(/failed: user\.three-accounts \(your own check, mine\.yaml:26\)/);
    expect(c.out()).toMatch(/^::error file=mine\.yaml,line=26,title=user\.three-accounts::/m);
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'latest', 'report.json'), 'utf8')) as Report;
    expect(report.summary.verdict).toBe('fail');
    expect(report.summary.user).toEqual({ pass: 1, fail: 1, inconclusive: 0 });
    expect(report.rules.some((r) => r.id.startsWith('user.'))).toBe(false);
    expect(report.userChecks.map((u) => [u.id, u.status, u.passed, u.failed, u.places[0]?.file, u.places[0]?.line])).toEqual([
      ['user.two-accounts', 'pass', 5, 0, 'mine.yaml', 4],
      ['user.three-accounts', 'fail', 0, 1, 'mine.yaml', 26],
    ]);
    const md = readFileSync(join(dir, 'reports', 'latest', 'report.md'), 'utf8');
    expect(md).toContain('## Your own checks');
    // A section holding a failure is open; one without is collapsed to its heading.
    expect(readFileSync(join(dir, 'reports', 'latest', 'report.html'), 'utf8')).toContain('<section><h2>Your own checks (2)</h2>');
    const passing = join(dir, 'passing.yaml');
    writeFileSync(passing, SCENARIO.slice(0, SCENARIO.indexOf('  - name: a page of three')));
    const p = captureIo({ cwd: dir });
    expect(await run([passing, '--report', 'passing-reports'], p.io)).toBe(0);
    expect(readFileSync(join(dir, 'passing-reports', 'latest', 'report.html'), 'utf8')).toContain('<section class="passing"><details><summary><h2>Your own checks (1)</h2></summary>');
  });

  it('an inline schema the body does not match fails the check, naming the path', async () => {
    const file = join(dir, 'schema.yaml');
    writeFileSync(
      file,
      `name: schema of my own\nsteps:\n  - name: a list\n    request: { method: GET, path: /v2/accounts }\n    expect:\n      rule: user.needs-cursor\n      schema: { type: object, required: [cursor] }\n`,
    );
    const c = captureIo({ cwd: dir });
    expect(await run([file, '--report', 'reports', '--json'], c.io)).toBe(1);
    expect(c.out()).toContain("must have required property 'cursor'");
  });

  it('user ids are refused where they would pose as catalogue rules, and a broken inline schema is a load error', async () => {
    for (const [name, text, message] of [
      ['as-rule.yaml', 'name: x\nrules: [user.mine]\nsteps:\n  - name: s\n    request: { method: GET, path: /v2/accounts }\n', "'user.mine' names a check of your own"],
      [
        'bad-schema.yaml',
        'name: x\nsteps:\n  - name: s\n    request: { method: GET, path: /v2/accounts }\n    expect:\n      rule: user.x\n      schema: { type: nope }\n',
        'is not a usable JSON Schema',
      ],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const c = captureIo({ cwd: dir });
      expect(await run([file, '--report', 'reports'], c.io)).toBe(2);
      expect(c.err()).toContain(message);
    }
  });
});
