/**
 * A report leads with the rule that broke (issue 20): failing rules listed once at the top, a cause before
 * the rules that fail beside it (labelled knock-ons, naming the rule they follow), the first failure shown
 * being the cause's, and only those opened.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { failingRules, failures } from '../../src/report/summarise.js';
import type { RunReport } from '../../src/report/model.js';
import { captureIo } from '../support/cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-failing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let report: RunReport;
let terminal = '';
let html = '';
beforeAll(async () => {
  const c = captureIo({ cwd: dir });
  expect(await run(['--deviate', 'filter.gt', '--report', 'reports'], c.io)).toBe(1);
  terminal = c.out();
  report = JSON.parse(readFileSync(join(dir, 'reports', 'latest', 'report.json'), 'utf8')) as RunReport;
  html = readFileSync(join(dir, 'reports', 'latest', 'report.html'), 'utf8');
});

describe('failing rules, causes first', () => {
  it('the broken filter comes first; the keyset walk built on it follows it', () => {
    const list = failingRules(report);
    expect(list.map((x) => [x.id, x.follows])).toEqual([
      ['filter.gt', undefined],
      ['large-data.keyset.id', 'filter.gt'],
    ]);
    expect(failures(report)[0]?.verdict.ruleId).toBe('filter.gt');
  });

  it('the terminal lists them in that order and says which is a knock-on', () => {
    const gt = terminal.indexOf('failed: filter.gt (');
    const walk = terminal.indexOf('failed: large-data.keyset.id (');
    expect(gt).toBeGreaterThan(0);
    expect(walk).toBeGreaterThan(gt);
    expect(terminal).toMatch(/failed: large-data\.keyset\.id \([^)]*\), a knock-on: follows filter\.gt/);
  });

  it('report.html: the list first, links to the failures and the matrix, and only the cause opened', () => {
    const top = html.indexOf('<section id="failing-rules">');
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(html.indexOf('<section id="failures">'));
    expect(html.indexOf('<section id="failures">')).toBeLessThan(html.indexOf('<section id="matrix">'));
    expect(html).toContain('<a href="#matrix">');
    expect(html).toMatch(/<a href="#f1"><code>filter\.gt<\/code><\/a>/);
    expect(html).toMatch(/large-data\.keyset\.id<\/code><\/a> \([^)]*\): [^<]*<span class="badge warn">knock-on<\/span> follows <code>filter\.gt<\/code>/);
    const opened = [...html.matchAll(/<details class="failure[^"]*" id="f(\d+)" open>/g)].map((m) => Number(m[1]));
    expect(opened).toEqual([1]);
  });

  it('report.html: the exchange a failure names is marked failing, shown first and open; the other evidence is closed', () => {
    const f1 = html.slice(html.indexOf('id="f1"'), html.indexOf('id="f2"'));
    const exchanges = [...f1.matchAll(/<details( class="evidence")?( open)?><summary>(.*?)<\/summary>/g)];
    expect(exchanges.length).toBeGreaterThan(1);
    const [first, ...rest] = exchanges;
    expect(first?.[2]).toBe(' open');
    expect(first?.[3]).toMatch(/^<span class="badge fail">failing<\/span> Exchange \d+: <code>GET \/v2\/accounts\?sort=id&amp;filter=gt\(id,/);
    for (const x of rest) expect(x[2]).toBeUndefined();
  });
});
