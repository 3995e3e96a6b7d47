/**
 * The kit against a server it did not grow up with: test/support/third-server/server.mjs was written from
 * the API document alone, by a helper that saw neither the simulator nor the kit, and takes at every open
 * point a conforming reading other than the public API's (nested numeric-string meta, microsecond
 * timestamps under `attributes`, numeric ids, newest-first order, 422 errors in another shape, gzip
 * always, Connection: close, ...). `run --allow-writes` and `props --allow-writes` find no documented
 * failure there; each of its four breaks is caught by the documented rule it breaks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { props } from '../../src/cli/props.js';
import { run } from '../../src/cli/run.js';
import { captureIo } from '../support/cli-io.js';

const SERVER = new URL('../support/third-server/server.mjs', import.meta.url).pathname;

interface Started {
  readonly child: ChildProcess;
  readonly info: { base_url: string; token: string; realm_id: string; user_authentication_info_id: string; password_profile_id: string };
}

/** The server on a free port; connection resets off (the HTTP target's retries are tested apart), everything else its default. */
async function start(...args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [SERVER, '--port', '0', '--seed', '7', '--reading', 'resets=off', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the third server exited with ${String(code)}`)));
  });
  return { child, info: JSON.parse(line) as Started['info'] };
}

const stop = (s: Started): Promise<void> =>
  new Promise((resolve) => {
    s.child.once('exit', () => resolve());
    s.child.kill();
  });

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'commerce-sim-third-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function kit(s: Started, command: 'run' | 'props', extra: string[] = []): Promise<{ code: number; out: string }> {
  const { info } = s;
  const vars = ['realm_id', 'user_authentication_info_id', 'password_profile_id'].flatMap((k) => ['--var', `${k}=${info[k as keyof Started['info']]}`]);
  const c = captureIo({ cwd: dir, env: { THIRD_TOKEN: info.token, NO_COLOR: '1' } });
  const args = ['--target', info.base_url, '--token-env', 'THIRD_TOKEN', '--allow-writes', ...vars, '--var', 'client_id=kit', '--report', dir, ...extra];
  const code = await (command === 'run' ? run(args, c.io) : props(args, c.io));
  return { code, out: c.out() + c.err() };
}

describe('the kit against an independently written server that reads the document otherwise', () => {
  it('fails no documented rule in run --allow-writes and props --allow-writes', async () => {
    const s = await start();
    try {
      const r = await kit(s, 'run');
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/PASS: (all 34|\d+ of 34) documented rules judged, all hold/);
      // Its readings, learned by the run: each default of its table (server.mjs) where the simulator has the
      // value, and "none of the known" (with where it saw them) for its page and results under pagination.info.
      const readings = JSON.parse(readFileSync(join(dir, 'latest', 'readings.json'), 'utf8')) as { readings: Record<string, string> };
      expect(readings.readings).toMatchObject({
        'meta.numbers': 'string',
        'page.current': 'zero-based',
        'page.total-empty': 'one',
        links: 'absent',
        'timestamps.precision': 'us',
        'timestamps.placement': 'attributes',
        'ids.format': 'numeric',
        'order.unsorted': 'newest',
        'order.ties': 'id-desc',
        'limit.above-max': 'refuse',
        'limit.zero': 'refuse',
        'offset.edge': 'exclusive',
        'offset.past-hard': 'empty',
        'password.characters': 'graphemes',
        'errors.format': 'error-object',
        'errors.validation-status': '422',
        usernames: 'conflict',
        'create.hyphen-type': 'refuse',
        'auth.reads': 'optional',
        compression: 'always',
        connection: 'close',
        'media-type': 'application/vnd.api+json',
      });
      const report = JSON.parse(readFileSync(join(dir, 'latest', 'report.json'), 'utf8')) as { readings: { name: string; status: string; evidence?: string }[] };
      expect(report.readings.find((x) => x.name === 'meta.position')).toMatchObject({ status: 'unknown', evidence: expect.stringContaining('page at pagination.info.page') as unknown });
      for (const seed of ['1', '2']) {
        const p = await kit(s, 'props', ['--seed', seed, '--runs', '15']);
        expect(p.code, p.out).toBe(0);
      }
    } finally {
      await stop(s);
    }
  }, 120_000);

  it.each([
    ['ge-as-gt', 'filter.ge'],
    ['lowercase-username', 'create.response.fields'],
    ['ignore-offset-with-filter', 'pagination.offset.records'],
    ['limit-101', 'pagination.limit.max'],
  ])(
    'catches its break %s as %s',
    async (name, rule) => {
      const s = await start('--break', name);
      try {
        const r = await kit(s, 'run');
        expect(r.code, r.out).toBe(1);
        expect(r.out).toContain(`failed: ${rule} (documented`);
      } finally {
        await stop(s);
      }
    },
    60_000,
  );
});
