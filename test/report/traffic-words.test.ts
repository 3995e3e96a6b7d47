/**
 * A traffic report speaks of traffic (issue 35): every headline names the HAR files or the proxy and
 * counts exchanges, clients and walks; the title is not a conformance run's and "cases" is not said.
 * `check` over HAR files and the proxy's reports, through the same writer the commands use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/cli/check.js';
import { writeTrafficReports } from '../../src/cli/traffic-output.js';
import type { RunReport } from '../../src/report/model.js';
import { readTraffic } from '../../src/traffic/har/read.js';
import { createTrafficJudge } from '../../src/traffic/judge/judge.js';
import { captureIo } from '../support/cli-io.js';
import { chromeHar, withTempDir, writeJson } from '../traffic/samples.js';

interface Written {
  readonly code: number;
  readonly out: string;
  readonly summary: string;
  readonly report: RunReport;
  readonly md: string;
  readonly html: string;
  readonly junit: string;
}

const read = (reports: string, file: string) => readFileSync(join(reports, 'latest', file), 'utf8');

function written(code: number, out: string, summary: string, reports: string): Written {
  return {
    code,
    out,
    summary,
    report: JSON.parse(read(reports, 'report.json')) as RunReport,
    md: read(reports, 'report.md'),
    html: read(reports, 'report.html'),
    junit: read(reports, 'junit.xml'),
  };
}

/** `check FILES` run in `dir`, its job summary kept. */
async function checked(dir: string, files: readonly string[]): Promise<Written> {
  const summary = join(dir, 'summary.md');
  const c = captureIo({ cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
  const code = await check([...files, '--report', 'reports'], c.io);
  return written(code, c.out(), readFileSync(summary, 'utf8'), join(dir, 'reports'));
}

/** The proxy's reports, as `proxy --upstream URL` writes them, for the traffic of `har`. */
async function proxied(dir: string, har: string): Promise<Written> {
  const judge = createTrafficJudge({ complete: false });
  for await (const entry of readTraffic(join(dir, har))) judge.observe(entry);
  const summary = join(dir, 'proxy-summary.md');
  const c = captureIo({ cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
  const code = await writeTrafficReports(c.io, {
    command: 'proxy',
    result: judge.finish(),
    judged: 'both',
    strict: false,
    sources: ['proxy'],
    target: { kind: 'http', baseUrl: 'https://api.example.com' },
    started: Date.UTC(2026, 10, 20),
    reportDir: 'proxy-reports',
    json: false,
    reporter: 'summary',
  }).catch(() => 2);
  return written(code, c.out(), readFileSync(summary, 'utf8'), join(dir, 'proxy-reports'));
}

/** The counts as the HAR holds them (entries) and as the judge found them (clients, walks). */
function counts(w: Written, entries: number): string {
  const t = w.report.traffic;
  if (t === undefined) throw new Error('no traffic section');
  expect(t.entries).toBe(entries);
  const n = (k: number, one: string) => `${k} ${k === 1 ? one : `${one}s`}`;
  return `${n(entries, 'exchange')}, ${n(t.clients, 'client')}, ${n(t.walksTotal, 'walk')}`;
}

const har = chromeHar() as { log: { entries: { request: { url: string }; response: { status: number } }[] } };
/** The exchanges of the HAR: http(s) requests that got an answer (a failed request and a data: URL are not). */
const ENTRIES = har.log.entries.filter((e) => /^https?:/.test(e.request.url) && e.response.status > 0).length;

/** No conformance-run words anywhere a reader of a traffic report looks. */
function speaksTraffic(w: Written): void {
  for (const text of [w.out, w.summary, w.md, w.html]) {
    // A suite's counting words ("cases: 0 pass", "Cases: ...", "a case is a scenario"); a rule's own statement may say "case".
    expect(text.split('\n').filter((line) => /\bcases?\s*:|\ba case is\b|\bcases\s+\d/i.test(line))).toEqual([]);
    expect(text).not.toContain('commerce-sim conformance');
  }
  expect(w.junit).not.toContain('count cases');
}

describe('a traffic report speaks of traffic', () => {
  it('check: the headlines name the HAR and count exchanges, clients and walks', async () => {
    await withTempDir(async (dir) => {
      await writeJson(join(dir, 'day.har'), har);
      const w = await checked(dir, ['day.har']);
      const line = `day.har: ${counts(w, ENTRIES)}`;
      expect(w.out.split('\n')[0]).toBe(`commerce-sim check ${line}`);
      expect(w.md.split('\n')[0]).toBe('# commerce-sim traffic report: day.har');
      expect(/<h1>(.*?)<\/h1>/.exec(w.html)?.[1]).toMatch(/^(✓ PASS|✗ FAIL): commerce-sim traffic: day\.har$/);
      expect(w.html).toContain(`<div>${line} · walks or clients with findings: `);
      expect(w.md).toContain(`Traffic: ${line}; walks or clients with findings: `);
      expect((w.summary.split('\n')[0] ?? '').startsWith('### commerce-sim check day.har: ')).toBe(true);
      speaksTraffic(w);
    });
  });

  it('check over two files names both, and counts them as one traffic', async () => {
    await withTempDir(async (dir) => {
      await writeJson(join(dir, 'a.har'), har);
      await writeJson(join(dir, 'b.har'), har);
      const w = await checked(dir, ['a.har', 'b.har']);
      expect(w.out.split('\n')[0]).toBe(`commerce-sim check a.har, b.har: ${counts(w, 2 * ENTRIES)}`);
      expect(w.md.split('\n')[0]).toBe('# commerce-sim traffic report: a.har, b.har');
      speaksTraffic(w);
    });
  });

  it('proxy: the headlines name the proxy and its upstream', async () => {
    await withTempDir(async (dir) => {
      await writeJson(join(dir, 'day.har'), har);
      const w = await proxied(dir, 'day.har');
      const line = `proxy → https://api.example.com: ${counts(w, ENTRIES)}`;
      expect(w.out.split('\n')[0]).toBe(`commerce-sim ${line}`);
      expect(w.md.split('\n')[0]).toBe('# commerce-sim traffic report: proxy → https://api.example.com');
      expect(/<h1>(.*?)<\/h1>/.exec(w.html)?.[1]).toMatch(/: commerce-sim traffic: proxy → https:\/\/api\.example\.com$/);
      expect(w.html).toContain(`<div>${line} · walks or clients with findings: `);
      expect((w.summary.split('\n')[0] ?? '').startsWith('### commerce-sim proxy → https://api.example.com: ')).toBe(true);
      speaksTraffic(w);
    });
  });
});
