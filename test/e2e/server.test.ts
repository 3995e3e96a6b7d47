/**
 * The simulator on a real socket (port 0, 127.0.0.1): 413 without hanging, keep-alive, JSON 404/405,
 * and the `serve` CLI as a child process (built from dist) that prints one JSON line and stops on SIGTERM.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, parseServeArgs } from '../../src/cli/serve.js';
import { listen, type RunningServer } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';
import { MAX_BODY_BYTES } from '../../src/sim/messages.js';
import { at, parseJson } from '../sim/helpers.js';
import { firstLine } from '../support/first-line.js';

interface Wire {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: unknown;
  readonly reusedSocket: boolean;
}

interface Send {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string | number>;
  /** Written in one go, or as chunks (no Content-Length: chunked). */
  readonly body?: string | readonly Buffer[];
  readonly agent?: Agent;
}

function send(port: number, o: Send): Promise<Wire> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, method: o.method ?? 'GET', path: o.path, headers: o.headers ?? {}, agent: o.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        done({ status: res.statusCode ?? 0, headers: res.headers, body, json: parseJson(body), reusedSocket: req.reusedSocket });
      });
    });
    // The server may close the socket while a large body is still being written; the answer counts.
    req.on('error', fail);
    if (Array.isArray(o.body)) for (const chunk of o.body) req.write(chunk);
    else if (typeof o.body === 'string') req.write(o.body);
    req.end();
  });
}

let sim: Simulator;
let server: RunningServer;
let token: string;

beforeAll(async () => {
  sim = new Simulator({ seed: 42, wallClock: () => Date.now() });
  server = await listen(sim, 0, '127.0.0.1');
  token = sim.issueToken('commerce-sim', 'read-write');
});

afterAll(async () => {
  await server.close();
});

describe('the HTTP adapter', () => {
  it('serves lists with links on the real address', async () => {
    const res = await send(server.port, { path: '/v2/accounts?page[limit]=2', headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(at(res.json, 'links.next')).toBe(`http://127.0.0.1:${server.port}/v2/accounts?page[limit]=2&page[offset]=2`);
  });

  it('answers a declared body over 1 MiB with 413 JSON without reading it, and keeps serving', async () => {
    const res = await send(server.port, {
      method: 'POST',
      path: '/v2/accounts',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': MAX_BODY_BYTES + 1 },
      body: 'x'.repeat(MAX_BODY_BYTES + 1),
    });
    expect(res.status).toBe(413);
    expect(at(res.json, 'errors.0.status')).toBe(413);
    expect((await send(server.port, { path: '/v2/settings', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('answers a chunked body that grows past 1 MiB with 413 JSON', async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    const res = await send(server.port, {
      method: 'POST',
      path: '/v2/accounts',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: [chunk, chunk, chunk, chunk, chunk],
    });
    expect(res.status).toBe(413);
    expect(at(res.json, 'errors.0.title')).toBe('Payload Too Large');
  });

  it('reads a body of exactly 1 MiB', async () => {
    const res = await send(server.port, { method: 'POST', path: '/v2/accounts', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: ' '.repeat(MAX_BODY_BYTES) });
    expect(res.status).toBe(400);
  });

  it('keeps connections alive between requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const headers = { authorization: `Bearer ${token}` };
      const first = await send(server.port, { path: '/v2/accounts', headers, agent });
      const second = await send(server.port, { path: '/v2/orders', headers, agent });
      const third = await send(server.port, { path: '/nowhere', headers, agent });
      expect([first.status, second.status, third.status]).toEqual([200, 200, 404]);
      expect(first.reusedSocket).toBe(false);
      expect(second.reusedSocket).toBe(true);
      expect(third.reusedSocket).toBe(true);
      expect(second.headers['connection']).toBe('keep-alive');
    } finally {
      agent.destroy();
    }
  });

  it('answers unknown routes 404 and wrong methods 405 (with Allow), as JSON', async () => {
    const notFound = await send(server.port, { path: '/v2/nothing-here' });
    expect(notFound.status).toBe(404);
    expect(notFound.headers['content-type']).toMatch(/^application\/json/);
    expect(at(notFound.json, 'errors.0.status')).toBe(404);
    const wrong = await send(server.port, { method: 'DELETE', path: '/v2/settings', headers: { authorization: `Bearer ${token}` } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers['allow']).toBe('GET, PUT');
    expect(at(wrong.json, 'errors.0.status')).toBe(405);
  });

  it('answers 401 JSON without a token, and the token endpoint over the wire', async () => {
    const res = await send(server.port, { path: '/v2/accounts' });
    expect(res.status).toBe(401);
    const t = await send(server.port, { method: 'POST', path: '/oauth/access_token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=implicit&client_id=wire' });
    expect(t.status).toBe(200);
    expect(at(t.json, 'token_type')).toBe('Bearer');
  });

  it('never answers 5xx to junk on the wire', async () => {
    const junk: Send[] = [
      { method: 'POST', path: '/oauth/access_token', body: '%%%' },
      { method: 'PUT', path: '/v2/settings', headers: { authorization: `Bearer ${token}` }, body: '\u0000\u0001' },
      { path: '/v2/accounts?page[limit]=%ZZ', headers: { authorization: `Bearer ${token}` } },
      { path: '/%E0%A4%A', headers: { authorization: `Bearer ${token}` } },
      { method: 'OPTIONS', path: '/v2/accounts' },
    ];
    for (const j of junk) {
      const res = await send(server.port, j);
      expect(res.status, j.path).toBeLessThan(500);
      expect(res.json, j.path).toBeDefined();
    }
  });

  it('close() stops the server even with an idle keep-alive connection open', async () => {
    const s = await listen(new Simulator({ seed: 1, wallClock: () => 0 }), 0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true });
    await send(s.port, { path: '/nowhere', agent });
    await s.close();
    await expect(send(s.port, { path: '/nowhere' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    agent.destroy();
  });
});

describe('startServer (the serve command without its signal handling)', () => {
  it('applies --dataset, --accounts and --client-id, and answers with the printed token', async () => {
    const options = parseServeArgs(['--port', '0', '--dataset', 'shared-timestamps', '--accounts', '300', '--client-id', 'ci']);
    if (options === 'help') throw new Error('unexpected help');
    const session = await startServer(options, { cwd: process.cwd() }, () => Date.now());
    try {
      expect(session.info.client_id).toBe('ci');
      const res = await send(session.server.port, { path: '/v2/accounts?page[limit]=100&sort=created_at', headers: { authorization: `Bearer ${session.info.token}` } });
      expect(at(res.json, 'meta.results.total')).toBe(300);
      const first = at(res.json, 'data.0.meta.timestamps.created_at');
      expect(at(res.json, 'data.99.meta.timestamps.created_at')).toBe(first);
    } finally {
      await session.server.close();
    }
  });
});

// ---- The CLI as a child process, from the built dist ----

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'dist/cli/main.js');
/** dist/ is built once per test run by test/global-setup.ts. */
const buildProblem: string | undefined = existsSync(MAIN) ? undefined : 'dist/cli/main.js is missing (test/global-setup.ts builds it)';

/** The command after `try:` in serve's text output. */
function tryLine(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let text = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      text += chunk;
      const line = /^ {2}try: (.*)\n/m.exec(text);
      if (line?.[1] !== undefined) done(line[1]);
    });
    child.once('exit', (code) => fail(new Error(`serve exited (${code}) before printing its try: line: ${text}`)));
  });
}

describe('commerce-sim serve as a child process', () => {
  it('--version prints the package version and exits 0', () => {
    if (buildProblem !== undefined) throw new Error(buildProblem);
    const version: unknown = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).version;
    expect(execFileSync(process.execPath, [MAIN, '--version'], { cwd: ROOT, encoding: 'utf8' })).toBe(`commerce-sim ${String(version)}\n`);
  });

  it('--port 0 --json prints one JSON line whose base_url and token work; SIGTERM stops it with exit 0', async () => {
    if (buildProblem !== undefined) throw new Error(buildProblem);
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--json', '--sim-seed', '7'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      const line = await firstLine(child);
      const info = parseJson(line);
      const baseUrl = at(info, 'base_url');
      const bearer = at(info, 'token');
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(typeof bearer).toBe('string');
      for (const key of ['realm_id', 'user_authentication_info_id', 'password_profile_id', 'admin_token', 'curl']) expect(at(info, key), key).toBeTypeOf('string');
      const port = Number(new URL(String(baseUrl)).port);
      const list = await send(port, { path: '/v2/accounts?page[limit]=1', headers: { authorization: `Bearer ${String(bearer)}` } });
      expect(list.status).toBe(200);
      const create = await send(port, {
        method: 'POST',
        path: `/v2/authentication-realms/${String(at(info, 'realm_id'))}/user-authentication-info/${String(at(info, 'user_authentication_info_id'))}/user-authentication-password-profile-info/`,
        headers: { authorization: `Bearer ${String(bearer)}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          data: { type: 'user_authentication_password_profile_info', password_profile_id: at(info, 'password_profile_id'), username: 'cli@example.com', password: 'cli-password' },
        }),
      });
      expect(create.status).toBe(201);
      const state = await send(port, { path: '/__sim/state', headers: { authorization: `Bearer ${String(at(info, 'admin_token'))}` } });
      expect(at(state.json, 'data.seed')).toBe(7);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it("the curl line serve prints (the `try:` line, and --json's `curl`) works when pasted into a shell", async () => {
    if (buildProblem !== undefined) throw new Error(buildProblem);
    // The status alone: the pasted line, with curl's status code written after it.
    const paste = (line: string) => execFileSync('bash', ['-c', `${line} -sS -o /dev/null -w '%{http_code}'`], { encoding: 'utf8' });
    for (const json of [true, false]) {
      const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...(json ? ['--json'] : [])], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      try {
        const curl = json ? String(at(parseJson(await firstLine(child)), 'curl')) : await tryLine(child);
        expect(curl).toMatch(/^curl /);
        expect(paste(curl), curl).toBe('200');
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }
  });

  it('SIGTERM with a request in flight: it is cut after the grace period at the latest; a second signal cuts it at once; exit 0 either way', async () => {
    if (buildProblem !== undefined) throw new Error(buildProblem);
    // A grace far past the test's timeout: only the second signal can end this run in time.
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--json', '--shutdown-grace', '600000'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    let stderr = '';
    const draining = new Promise<void>((done) => child.stderr?.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), stderr.includes('finishing the answers in flight') && done())));
    try {
      const info = parseJson(await firstLine(child));
      const port = Number(new URL(String(at(info, 'base_url'))).port);
      // A request whose body never finishes: in flight until the server gives up on it.
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((done) => socket.once('connect', () => done()));
      socket.on('error', () => undefined);
      socket.write('POST /v2/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"data":');
      // The server has the request once a read on another connection is answered after it.
      const token = String(at(info, 'token'));
      expect((await fetch(`${String(at(info, 'base_url'))}/v2/accounts?page[limit]=1`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      child.kill('SIGTERM');
      await draining;
      expect(child.exitCode).toBeNull(); // still draining, as it said
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      socket.destroy();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('a bad option exits 2 with a one-line message', async () => {
    if (buildProblem !== undefined) throw new Error(buildProblem);
    const child = spawn(process.execPath, [MAIN, 'serve', '--deviate', 'no.such.rule'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (c: string) => (err += c));
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    expect(code).toBe(2);
    expect(err).toMatch(/--deviate/);
  });
});
