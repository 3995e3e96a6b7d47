/**
 * `commerce-sim export accounts`: the CSV, the summary and progress on stderr, resuming with --after,
 * adversarial datasets, usage errors, and one run over HTTP (the simulator on 127.0.0.1, port 0).
 */
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/cli/export.js';
import { progressLine, progressText } from '../../src/cli/progress.js';
import type { CliIo } from '../../src/cli/io.js';
import { parseCsv } from '../../src/client/csv.js';
import { listen } from '../../src/sim/server.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { FIXED_NOW } from './helpers.js';

function sink(tty: boolean): Writable & { isTTY: boolean; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return Object.assign(stream, { isTTY: tty, text: () => text });
}

async function run(argv: readonly string[], options: { tty?: boolean; env?: Record<string, string>; cwd?: string } = {}) {
  const stdout = sink(false);
  const stderr = sink(options.tty ?? false);
  const io: CliIo = { stdout, stderr, env: options.env ?? {}, cwd: options.cwd ?? (await mkdtemp(join(tmpdir(), 'commerce-sim-export-'))) };
  const code = await exportCommand(argv, io);
  return { code, stdout: stdout.text(), stderr: stderr.text(), cwd: io.cwd };
}

const idsOfCsv = (text: string) =>
  parseCsv(text)
    .slice(1)
    .map((row) => row[3] ?? '');

describe('commerce-sim export accounts', () => {
  it('writes every account to --out with a header, sorted by id, and a summary line on stderr', async () => {
    const r = await run(['accounts', '--target', 'sim', '--accounts', '250', '--out', 'accounts.csv']);
    expect(r.code).toBe(0);
    const text = await readFile(join(r.cwd, 'accounts.csv'), 'utf8');
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(['name', 'legal_name', 'registration_id', 'id']);
    const ids = idsOfCsv(text);
    expect(ids).toHaveLength(250);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(250);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`exported 250 accounts to accounts.csv in 4 pages (4 requests); last id ${ids[249]}\n`);
  });

  it('writes to stdout without --out, byte for byte the same for the same seed', async () => {
    const a = await run(['accounts', '--sim-seed', '7', '--accounts', '30']);
    const b = await run(['accounts', '--sim-seed', '7', '--accounts', '30']);
    expect(a.code).toBe(0);
    expect(idsOfCsv(a.stdout)).toHaveLength(30);
    expect(b.stdout).toBe(a.stdout);
    expect((await run(['accounts', '--sim-seed', '8', '--accounts', '30'])).stdout).not.toBe(a.stdout);
  });

  it('resumes with --after: appending to the cut file gives the whole export, with one header', async () => {
    const whole = await run(['accounts', '--accounts', '230', '--out', 'whole.csv']);
    const text = await readFile(join(whole.cwd, 'whole.csv'), 'utf8');
    const lines = text.split('\r\n');
    const cut = `${lines.slice(0, 1 + 120).join('\r\n')}\r\n`;
    const lastId = idsOfCsv(cut).at(-1) ?? '';
    await writeFile(join(whole.cwd, 'cut.csv'), cut);
    const resumed = await run(['accounts', '--accounts', '230', '--out', 'cut.csv', '--after', lastId], { cwd: whole.cwd });
    expect(resumed.code).toBe(0);
    expect(await readFile(join(whole.cwd, 'cut.csv'), 'utf8')).toBe(text);
    expect(resumed.stderr).toContain('exported 110 accounts');
  });

  it('retries the 429s of a rate-limited dataset and says how many', async () => {
    const r = await run(['accounts', '--dataset', 'rate-limited', '--accounts', '1500', '--sim-seed', '3']);
    expect(r.code).toBe(0);
    const ids = idsOfCsv(r.stdout);
    expect(ids).toHaveLength(1500);
    expect(new Set(ids).size).toBe(1500);
    expect(r.stderr).toMatch(/exported 1500 accounts to stdout in 16 pages \(\d+ requests, \d+ retr(y|ies) \(\d+ × 429\)\)/);
  });

  it('reads a dataset file', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'commerce-sim-export-'));
    await writeFile(join(cwd, 'mine.yaml'), 'extends: hostile\naccounts: 200\n');
    const r = await run(['accounts', '--dataset', 'mine.yaml', '--out', 'a.csv'], { cwd });
    expect(r.code).toBe(0);
    const ids = idsOfCsv(await readFile(join(cwd, 'a.csv'), 'utf8'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws a progress bar on a terminal only, and clears it before the summary', async () => {
    const tty = await run(['accounts', '--accounts', '250', '--out', 'a.csv'], { tty: true });
    expect(tty.stderr).toContain('\r\x1b[K[');
    expect(tty.stderr).toMatch(/100%\s+250\/250 accounts, 4 pages/);
    expect(tty.stderr).toMatch(/\r\x1b\[Kexported 250 accounts/);
    const plain = await run(['accounts', '--accounts', '250', '--out', 'a.csv']);
    expect(plain.stderr).not.toContain('\r');
  });

  it.each([
    [[], 'say what to export'],
    [['orders'], "only 'accounts'"],
    [['accounts', '--dataset', 'nope'], "--dataset: unknown dataset 'nope'"],
    [['accounts', '--target', 'ftp://x'], "--target takes 'sim'"],
    [['accounts', '--target', 'http://127.0.0.1:9', '--sim-seed', '1'], '--sim-seed applies to the embedded simulator only (--target sim)'],
    [['accounts', '--seed', '1'], '--seed is now --sim-seed'],
    [['accounts', '--after', ' '], '--after'],
    [['accounts', '--budget', '0'], '--budget'],
    [['accounts', '--frobnicate'], 'frobnicate'],
    [['accounts', '--target', 'http://127.0.0.1:9', '--token-env', 'NOPE'], 'NOPE'],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });

  it('a budget too small stops with CLIENT_BUDGET_EXHAUSTED and says where to resume', async () => {
    const r = await run(['accounts', '--accounts', '250', '--budget', '2', '--out', 'a.csv']);
    expect(r.code).toBe(2);
    const ids = idsOfCsv(await readFile(join(r.cwd, 'a.csv'), 'utf8'));
    expect(ids).toHaveLength(200);
    expect(r.stderr).toContain(`(CLIENT_BUDGET_EXHAUSTED); 200 written to a.csv, resume with --after ${ids[199]}`);
  });

  it('exports from a base URL with a token read from the environment, never printing it', async () => {
    const sim = new Simulator({ seed: 5, accounts: 140, wallClock: () => FIXED_NOW });
    const server = await listen(sim, 0, '127.0.0.1');
    try {
      const token = sim.issueToken(DEFAULT_CLIENT_ID, 'read-only');
      const r = await run(['accounts', '--target', server.baseUrl, '--token-env', 'SIM_TOKEN'], { env: { SIM_TOKEN: token } });
      expect(r.code).toBe(0);
      expect(idsOfCsv(r.stdout)).toHaveLength(140);
      expect(r.stderr + r.stdout).not.toContain(token);
      const refused = await run(['accounts', '--target', server.baseUrl, '--token-env', 'SIM_TOKEN'], { env: { SIM_TOKEN: 'wrong' } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('answered 401');
    } finally {
      await server.close();
    }
  });

  it('checks an unreachable target before writing anything: no header, no file, one line with one code, exit 2', async () => {
    // Port 1: nothing listens, the connection is refused at once; a refused connection is not retried.
    const r = await run(['accounts', '--target', 'http://127.0.0.1:1', '--token-env', 'TOKEN'], { env: { TOKEN: 'secret-token-value' } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^commerce-sim export: cannot reach GET http:\/\/127\.0\.0\.1:1\/v2\/accounts\?page\[limit\]=1: [^\n]*\(TARGET_UNREACHABLE\)\n$/);
    expect(r.stderr.match(/\([A-Z]+(_[A-Z0-9]+)+\)/g)).toEqual(['(TARGET_UNREACHABLE)']);
    expect(r.stderr).not.toContain('retries');
    const toFile = await run(['accounts', '--target', 'http://127.0.0.1:1', '--out', 'never.csv']);
    expect(toFile.code).toBe(2);
    expect(toFile.stdout).toBe('');
    expect(toFile.stderr.split('\n')).toHaveLength(2);
    await expect(stat(join(toFile.cwd, 'never.csv'))).rejects.toThrow();
  });

  it('a failed export that wrote no account removes the file it created (no header-only CSV left behind)', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"errors":[{"status":500,"title":"Internal Server Error"}]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await run(['accounts', '--target', url, '--token-env', 'TOKEN', '--retries', '0', '--out', 'gone.csv'], { env: { TOKEN: 'secret-token-value' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('gone.csv removed (nothing was exported)');
      await expect(stat(join(r.cwd, 'gone.csv'))).rejects.toThrow();
      expect(r.stderr).not.toContain('secret-token-value');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the progress line', () => {
  it('redraws at most ten times a second however often it is updated, and always shows the last state', () => {
    let now = 0;
    let text = '';
    const line = progressLine({ write: (t) => void (text += t), now: () => now });
    // 2,001 updates 1 ms apart (a 200,000-account export's pages): two seconds.
    for (let i = 0; i <= 2000; i++) {
      line.update({ records: i * 100, pages: i, expected: 200_000, lastId: undefined });
      now += 1;
    }
    line.finish();
    expect(line.draws).toBeLessThanOrEqual(22);
    expect(line.draws).toBeGreaterThanOrEqual(20);
    expect(text).toMatch(/100%\s+200,000\/200,000 accounts, 2,000 pages/);
  });

  it('shows the rate and the time left', () => {
    expect(progressText({ records: 50_000, pages: 500, expected: 200_000, lastId: undefined }, 10_000)).toBe('[######..................]  25%  50,000/200,000 accounts, 500 pages  5,000/s  ETA 30s');
    expect(progressText({ records: 300, pages: 3, expected: undefined, lastId: undefined }, 1_000)).toBe('300 accounts, 3 pages  300/s');
  });
});
