/**
 * A run the target could not finish (connections reset past the retries) says INCOMPLETE and exits 2:
 * never PASS, and a property it stopped is shown as stopped, not skipped.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { props } from '../../src/cli/props.js';
import { run } from '../../src/cli/run.js';
import { captureIo } from '../support/cli-io.js';

let server: Server;
let url = '';
let dir = '';
const LIST = JSON.stringify({ data: [{ id: 'a' }], meta: { page: { limit: 1, offset: 0, current: 1, total: 1 }, results: { total: 1 } } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'commerce-sim-incomplete-'));
  // Answers the preflight read, then resets every connection: the API is there, but cannot be used.
  server = createServer((req, res) => {
    if (req.url === '/v2/accounts?page[limit]=1') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(LIST);
      return;
    }
    req.socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('a target that resets every connection after the preflight', () => {
  it('props says INCOMPLETE, shows the property as stopped and exits 2', async () => {
    const c = captureIo({ cwd: dir, env: { T: 'token' } });
    const code = await props(['--target', url, '--token-env', 'T', '--grep', 'page-arithmetic', '--runs', '3', '--seed', '1', '--report', dir], c.io);
    expect(code).toBe(2);
    expect(c.out()).toMatch(/INCOMPLETE/);
    expect(c.out()).not.toMatch(/PASS: /);
    expect(c.out()).toMatch(/STOPPED\s+page-arithmetic/);
  }, 30_000);

  it('run says INCOMPLETE and exits 2', async () => {
    const c = captureIo({ cwd: dir, env: { T: 'token' } });
    const code = await run(['--target', url, '--token-env', 'T', '--grep', 'counts records', '--report', dir], c.io);
    expect(code).toBe(2);
    expect(c.out()).toMatch(/INCOMPLETE/);
    expect(c.out()).not.toMatch(/PASS: /);
  }, 30_000);
});
