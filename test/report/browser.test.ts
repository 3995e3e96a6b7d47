/**
 * report.html in a real browser (issue 11): headless Chromium from the devDependency @sparticuz/chromium
 * (test/support/chromium.ts: it arrives with `npm ci`, so this test needs nothing else on the machine).
 * A real run with failures (the whole suite: every rule × every scenario) is rendered at 1280×800, and a
 * probe script run in the page measures what a reader sees.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { captureIo } from '../support/cli-io.js';
import { launchChromium, type Browser } from '../support/chromium.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-browser-'));
let browser: Browser | undefined;
let html = '';

/** What lies in the first screen, and how the matrix behaves, measured in the page as a reader sees it. */
const PROBE = `(() => {
const vh = innerHeight, topOf = (el) => el.getBoundingClientRect().top;
const visible = (el) => el.getClientRects().length > 0;
const failures = [...document.querySelectorAll('details.failure')];
const cols = [...document.querySelectorAll('th.col span')];
const firstCol = document.querySelector('.matrix tbody th');
const matrix = document.querySelector('.matrix');
matrix.scrollLeft = 2000;
return {
  viewport: vh,
  headerTop: topOf(document.querySelector('header')),
  verdict: document.querySelector('header h1').textContent,
  failureCount: failures.length,
  failuresInFirstScreen: failures.filter((f) => topOf(f) < vh).length,
  firstFailureTop: failures.length ? topOf(failures[0]) : null,
  truncatedHeaders: cols.filter((s) => s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1).length,
  columns: cols.length,
  keyed: document.querySelectorAll('ol.key li').length,
  headerRowHeight: Math.round(document.querySelector('.matrix thead tr').getBoundingClientRect().height),
  rows: document.querySelectorAll('.matrix tbody tr').length,
  visibleRows: [...document.querySelectorAll('.matrix tbody tr')].filter(visible).length,
  stickyLeft: Math.round(firstCol.getBoundingClientRect().left - matrix.getBoundingClientRect().left),
};
})()`;

/** The page opened in a fresh 1280×800 tab, `setup` run in it, then the probe. */
async function measure(page: string, name: string, setup = ''): Promise<Record<string, number | string | null>> {
  if (browser === undefined) throw new Error('no browser');
  const file = join(dir, name);
  writeFileSync(file, page);
  const tab = await browser.newPage(1280, 800);
  await tab.open(pathToFileURL(file).href);
  if (setup !== '') await tab.evaluate(setup);
  return (await tab.evaluate(PROBE)) as Record<string, number | string | null>;
}

beforeAll(async () => {
  browser = await launchChromium(join(dir, 'profile'));
  // A real run with failures of documented rules: every rule and every scenario of the shipped suite.
  const c = captureIo({ cwd: dir });
  expect(await run(['--deviate', 'pagination.limit.max', '--deviate', 'filter.gt', '--report', 'reports'], c.io)).toBe(1);
  html = readFileSync(join(dir, 'reports/latest/report.html'), 'utf8');
}, 900_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('report.html in headless Chromium', () => {
  it('runs the browser headless: its user agent says so', async () => {
    const tab = await (browser as Browser).newPage(1280, 800);
    expect(await tab.evaluate('navigator.userAgent')).toMatch(/ HeadlessChrome\/\d+\./);
    expect(await tab.evaluate('[innerWidth, innerHeight]')).toEqual([1280, 800]);
  });

  it('opens with the verdict, and the failures are in the first screen', async () => {
    const m = await measure(html, 'report.html');
    expect(m['verdict']).toContain('FAIL');
    expect(m['headerTop']).toBe(0);
    expect(m['failureCount']).toBeGreaterThan(0);
    expect(m['failuresInFirstScreen']).toBeGreaterThan(0);
    expect(Number(m['firstFailureTop'])).toBeLessThan(Number(m['viewport']));
  });

  it('the matrix holds every rule and case, no column name cut, the rule column sticky when scrolled right', async () => {
    const m = await measure(html, 'matrix.html');
    expect(Number(m['rows'])).toBeGreaterThanOrEqual(64);
    expect(Number(m['columns'])).toBeGreaterThan(40);
    expect(m['truncatedHeaders']).toBe(0);
    // Every column's whole name is in the key; the header row stays a small part of the screen.
    expect(m['keyed']).toBe(m['columns']);
    expect(Number(m['headerRowHeight'])).toBeLessThan(Number(m['viewport']) / 4);
    // Scrolled 2,000 px right, the rule column still sits at the matrix's left edge.
    expect(Math.abs(Number(m['stickyLeft']))).toBeLessThanOrEqual(1);
  });

  it('"failures only" hides the passing rules and cases (a CSS checkbox: no script)', async () => {
    expect(html).not.toContain('<script');
    const all = await measure(html, 'all.html');
    const only = await measure(html, 'only.html', "document.getElementById('failures-only').checked = true;");
    expect(Number(only['visibleRows'])).toBeGreaterThan(0);
    expect(Number(only['visibleRows'])).toBeLessThan(Number(all['visibleRows']));
  });

  it('a screenshot of the first screen can be taken (kept for a reader when KEEP_SCREENSHOT is set)', async () => {
    const file = join(dir, 'shot.html');
    writeFileSync(file, html);
    const tab = await (browser as Browser).newPage(1280, 800);
    await tab.open(pathToFileURL(file).href);
    const png = await tab.screenshot();
    writeFileSync(process.env['KEEP_SCREENSHOT'] ?? join(dir, 'report.png'), png);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // The PNG's own header: 1280 × 800.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 800]);
  });
});
