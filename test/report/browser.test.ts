/**
 * report.html in a real browser (issue 11): headless Chromium (Debian's `chromium`, from the machine's
 * set-up: .ci/run installs it; a missing browser fails the test unless COMMERCE_SIM_SKIP_BROWSER=1).
 * A real run with failures (the whole suite: every rule × every scenario) is rendered at 1280×800, and a
 * probe script added to a copy of the page measures what a reader sees.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { captureIo } from '../support/cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-browser-'));
let chromium: string | undefined;
let skipReason = '';
let html = '';

const found = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined;

/**
 * Chromium from the machine's set-up (.ci/run installs Debian's `chromium`; the README says how locally).
 * The test installs nothing: without a browser it fails, unless COMMERCE_SIM_SKIP_BROWSER=1 says to skip it.
 */
function findChromium(): string | undefined {
  const existing = found('chromium') ?? found('chromium-browser');
  if (existing === undefined) skipReason = 'chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)';
  return existing;
}

const SKIP_BROWSER = process.env['COMMERCE_SIM_SKIP_BROWSER'] === '1';

/** The DOM after the page (and the probe) ran, in a 1280×800 window. */
function renderDom(file: string): string {
  return execFileSync(
    chromium as string,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      `--user-data-dir=${join(dir, 'profile')}`,
      '--window-size=1280,800',
      '--virtual-time-budget=2000',
      '--dump-dom',
      pathToFileURL(file).href,
    ],
    { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

/** A copy of the page with a script that reports, as JSON in the DOM, what lies in the first screen. */
function probe(page: string, setup = ''): string {
  const script = `<script>
${setup}
(() => {
const vh = innerHeight, topOf = (el) => el.getBoundingClientRect().top;
const visible = (el) => el.getClientRects().length > 0;
const failures = [...document.querySelectorAll('details.failure')];
const cols = [...document.querySelectorAll('th.col span')];
const firstCol = document.querySelector('.matrix tbody th');
const matrix = document.querySelector('.matrix');
matrix.scrollLeft = 2000;
const out = {
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
const pre = document.createElement('pre');
pre.id = 'probe-' + 'out';
pre.textContent = JSON.stringify(out);
document.body.append(pre);
})();
</script>`;
  return page.replace('</body>', `${script}</body>`);
}

function measure(page: string, name: string, setup = ''): Record<string, number | string | null> {
  const file = join(dir, name);
  writeFileSync(file, probe(page, setup));
  const dom = renderDom(file);
  const json = /<pre id="probe-out">(.*?)<\/pre>/s.exec(dom)?.[1];
  if (json === undefined) throw new Error(`the probe did not run: ${dom.slice(0, 300)}`);
  return JSON.parse(json.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')) as Record<string, number | string | null>;
}

beforeAll(async () => {
  chromium = findChromium();
  if (chromium === undefined) {
    if (!SKIP_BROWSER) throw new Error(`${skipReason}; set COMMERCE_SIM_SKIP_BROWSER=1 to skip this test where no browser can be had`);
    console.warn(`report.html browser test skipped (COMMERCE_SIM_SKIP_BROWSER=1): ${skipReason}`);
    return;
  }
  // A real run with failures of documented rules: every rule and every scenario of the shipped suite.
  const c = captureIo({ cwd: dir });
  expect(await run(['--deviate', 'pagination.limit.max', '--deviate', 'filter.gt', '--report', 'reports'], c.io)).toBe(1);
  html = readFileSync(join(dir, 'reports/latest/report.html'), 'utf8');
}, 900_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('report.html in headless Chromium', () => {
  it('opens with the verdict, and the failures are in the first screen', (ctx) => {
    if (chromium === undefined) ctx.skip(skipReason);
    const m = measure(html, 'report.html');
    expect(m['verdict']).toContain('FAIL');
    expect(m['headerTop']).toBe(0);
    expect(m['failureCount']).toBeGreaterThan(0);
    expect(m['failuresInFirstScreen']).toBeGreaterThan(0);
    expect(Number(m['firstFailureTop'])).toBeLessThan(Number(m['viewport']));
  });

  it('the matrix holds every rule and case, no column name cut, the rule column sticky when scrolled right', (ctx) => {
    if (chromium === undefined) ctx.skip(skipReason);
    const m = measure(html, 'matrix.html');
    expect(Number(m['rows'])).toBeGreaterThanOrEqual(64);
    expect(Number(m['columns'])).toBeGreaterThan(40);
    expect(m['truncatedHeaders']).toBe(0);
    // Every column's whole name is in the key; the header row stays a small part of the screen.
    expect(m['keyed']).toBe(m['columns']);
    expect(Number(m['headerRowHeight'])).toBeLessThan(Number(m['viewport']) / 4);
    // Scrolled 2,000 px right, the rule column still sits at the matrix's left edge.
    expect(Math.abs(Number(m['stickyLeft']))).toBeLessThanOrEqual(1);
  });

  it('"failures only" hides the passing rules and cases (a CSS checkbox: no script)', (ctx) => {
    if (chromium === undefined) ctx.skip(skipReason);
    expect(html).not.toContain('<script');
    const all = measure(html, 'all.html');
    const only = measure(html, 'only.html', "document.getElementById('failures-only').checked = true;");
    expect(Number(only['visibleRows'])).toBeGreaterThan(0);
    expect(Number(only['visibleRows'])).toBeLessThan(Number(all['visibleRows']));
  });

  it('a screenshot of the first screen can be taken (kept for a reader when KEEP_SCREENSHOT is set)', (ctx) => {
    if (chromium === undefined) ctx.skip(skipReason);
    const file = join(dir, 'shot.html');
    writeFileSync(file, html);
    const png = process.env['KEEP_SCREENSHOT'] ?? join(dir, 'report.png');
    execFileSync(
      chromium as string,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-dev-shm-usage',
        `--user-data-dir=${join(dir, 'profile')}`,
        '--window-size=1280,800',
        `--screenshot=${png}`,
        pathToFileURL(file).href,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    expect(readFileSync(png).subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
