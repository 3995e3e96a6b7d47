/**
 * `serve --ready-file FILE --port 0`: FILE appears once the port listens, whole (written beside it, then
 * renamed), holding the line `--json` prints; its base_url answers at once. SIGTERM removes it, exit 0.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '../support/cli-io.js';
import { serve } from '../../src/cli/serve.js';

const MAIN = resolve(import.meta.dirname, '../../dist/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'ready-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function waitFor(path: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!existsSync(path)) {
    if (Date.now() > until) throw new Error(`${path} did not appear within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('serve --ready-file', () => {
  it('appears once listening with the --json line; its base_url answers; removed on SIGTERM', async () => {
    const file = join(dir, 'sim.json');
    writeFileSync(file, '{"base_url":"http://stale.invalid"}\n'); // a previous server's: must not be taken for this one's
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--json', '--accounts', '5', '--ready-file', 'sim.json'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      // The stale file goes before the port opens; the new one comes once it listens.
      await waitFor(file, 15_000);
      let text = readFileSync(file, 'utf8');
      while (text.includes('stale.invalid')) {
        await new Promise((r) => setTimeout(r, 20));
        await waitFor(file, 15_000);
        text = readFileSync(file, 'utf8');
      }
      expect(text.endsWith('\n')).toBe(true);
      const info = JSON.parse(text) as { base_url: string; token: string };
      expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(statSync(file).mode & 0o077).toBe(0); // it holds the tokens
      expect(readdirSync(dir)).toEqual(['sim.json']); // no temporary file left beside it
      const res = await fetch(`${info.base_url}/v2/accounts?page[limit]=1`, { headers: { authorization: `Bearer ${info.token}` } });
      expect(res.status).toBe(200);
      // The same line --json prints on stdout (printed after the file is written).
      while (!out.includes('\n')) await new Promise((r) => setTimeout(r, 20));
      expect(out).toBe(text);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(file)).toBe(false);
      // The one line a first signal prints: nothing else (no warning, no error).
      expect(err).toBe('commerce-sim serve: SIGTERM: finishing the answers in flight (a second signal cuts them)\n');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);

  it('a ready file that cannot be written is one usage line, exit 2', async () => {
    const c = captureIo({ cwd: dir });
    expect(await serve(['--port', '0', '--accounts', '3', '--ready-file', join(dir, 'no-such-dir', 'sim.json')], c.io)).toBe(2);
    expect(c.err()).toMatch(/^commerce-sim serve: --ready-file .*no-such-dir\/sim\.json: cannot write it \(.*ENOENT.*\) \(see commerce-sim serve --help\)\n$/);
    expect(c.out()).toBe('');
  });
});
