/**
 * Honest exits: a run against a URL first makes one authenticated documented request; refused
 * credentials and a base URL that is not the API stop with exit 2, and a selection of nothing is a
 * usage error, not a pass.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { props } from '../../src/cli/props.js';
import { run } from '../../src/cli/run.js';
import { createHttpTarget } from '../../src/adapters/http.js';
import { preflight } from '../../src/adapters/preflight.js';
import { captureIo } from '../support/cli-io.js';

type Answer = { status: number; type: string; body: string };
const servers: Server[] = [];
async function serve(answer: Answer): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'commerce-sim-preflight-'));
});
afterAll(async () => {
  for (const s of servers) s.close();
  await rm(dir, { recursive: true, force: true });
});

const env = { KIT_TOKEN: 'not-a-valid-token' };

describe('preflight against a URL', () => {
  it('stops with TARGET_AUTH_FAILED and exit 2 when the token is refused', async () => {
    const url = await serve({ status: 401, type: 'application/json', body: '{"errors":[{"status":401,"title":"Unauthorized"}]}' });
    for (const command of [run, props]) {
      const c = captureIo({ cwd: dir, env });
      expect(await command(['--target', url, '--token-env', 'KIT_TOKEN', '--report', dir], c.io)).toBe(2);
      expect(c.err()).toMatch(/answered 401: the credentials were refused.*\(TARGET_AUTH_FAILED\)/);
      expect(c.err()).not.toContain('not-a-valid-token');
      // One clear line, no report: nothing was judged.
      expect(c.err().trim().split('\n')).toHaveLength(1);
      expect(c.out()).not.toContain('FAIL');
    }
  });

  it('stops with TARGET_NOT_API and exit 2 on an HTML page, a host that answers 404 to everything, or JSON that is no list', async () => {
    const html = await serve({ status: 200, type: 'text/html', body: '<html>hello</html>' });
    const missing = await serve({ status: 404, type: 'application/json', body: '{"errors":[]}' });
    const health = await serve({ status: 200, type: 'application/json', body: '{"status":"ok"}' });
    for (const [url, what] of [
      [html, 'answered 200 with a text/html body'],
      [missing, 'answered 404 with JSON without a data array'],
      [health, 'answered 200 with JSON without a data array'],
    ] as const) {
      for (const command of [run, props]) {
        const c = captureIo({ cwd: dir, env });
        expect(await command(['--target', url, '--token-env', 'KIT_TOKEN', '--report', dir], c.io)).toBe(2);
        expect(c.err()).toContain(what);
        expect(c.err()).toContain('(TARGET_NOT_API)');
        expect(c.err().trim().split('\n')).toHaveLength(1);
      }
    }
  });

  it('lets a run go on when the documented read answers a list, or is still rate limited after retries', async () => {
    for (const answer of [
      { status: 200, type: 'application/json', body: '{"data":[],"meta":{}}' },
      { status: 429, type: 'application/json', body: '{"errors":[]}' },
    ]) {
      const target = await createHttpTarget({ baseUrl: await serve(answer), token: 't', retries: 0 });
      try {
        await expect(preflight(target, { credentials: true })).resolves.toBeUndefined();
      } finally {
        await target.close();
      }
    }
  });

  it('warns when no credentials are given', async () => {
    const url = await serve({ status: 401, type: 'application/json', body: '{"errors":[]}' });
    const c = captureIo({ cwd: dir });
    expect(await run(['--target', url, '--report', dir], c.io)).toBe(2);
    const [warning, error, ...rest] = c.err().trim().split('\n');
    expect(warning).toContain('warning: no credentials given');
    expect(error).toMatch(/answered 401: no credentials were given .*\(TARGET_AUTH_FAILED\)/);
    expect(rest).toEqual([]);
  });
});

describe('a selection that matches nothing', () => {
  it('exits 2 for run --grep and --tag, and for props --grep', async () => {
    for (const args of [
      ['--grep', 'no-such-scenario-typo'],
      ['--tag', 'nope'],
    ]) {
      const c = captureIo({ cwd: dir });
      expect(await run([...args, '--report', dir], c.io)).toBe(2);
      expect(c.err()).toMatch(/no scenario matches the selection \((--grep no-such-scenario-typo|--tag nope)\) among \d+ loaded/);
    }
    const c = captureIo({ cwd: dir });
    expect(await props(['--grep', 'nope'], c.io)).toBe(2);
    expect(c.err()).toContain('--grep nope: no property matches');
  });
});
