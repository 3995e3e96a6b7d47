/**
 * Shutdown finishes what it started (issue 36): `serve` at 1,000,000 accounts, full scans of every record
 * in flight, then SIGTERM. The reads running or waiting when the signal comes are finished within the
 * grace and answered whole, with Connection: close; none is answered 503. Asserted on what the clients
 * receive (statuses, whole bodies, the same page), never on time.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { at, parseJson } from '../sim/helpers.js';
import { firstLine } from '../support/first-line.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'dist/cli/main.js');

/** One answer as received: status, headers (lower-cased names), the body's bytes and whether they are all there. */
interface Received {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly whole: boolean;
}

/** The first answer in `bytes`, or undefined while its head or its Content-Length of body has not all come. */
function answerIn(bytes: Buffer): Received | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length']);
  const body = bytes.subarray(end + 4);
  if (body.length < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8'), whole: body.length === length };
}

/** A GET on a connection of its own: resolves with the first answer as soon as it is whole; `closed` when the server closes. */
function exchange(port: number, request: string) {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  let bytes = Buffer.alloc(0);
  const answered = new Promise<Received>((done, fail) => {
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      const got = answerIn(bytes);
      if (got !== undefined) done(got);
    });
    socket.once('close', () => fail(new Error(`closed before a whole answer: ${bytes.toString('latin1').slice(0, 200)}`)));
  });
  answered.catch(() => undefined);
  const closed = new Promise<Received | undefined>((done) => socket.once('close', () => done(answerIn(bytes))));
  socket.once('connect', () => socket.write(request));
  return { answered, closed };
}

describe('serve at 1,000,000 accounts: SIGTERM with full scans in flight', () => {
  it('finishes every read it had started or queued, whole and with Connection: close, instead of answering 503', { timeout: 240_000 }, async () => {
    expect(existsSync(MAIN), 'dist/cli/main.js is missing (test/global-setup.ts builds it)').toBe(true);
    // A grace longer than the test: the reads are finished whatever the machine's load, and shutdown waits for nothing else.
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--json', '--accounts', '1000000', '--shutdown-grace', '600000'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      const info = parseJson(await firstLine(child));
      const port = Number(new URL(String(at(info, 'base_url'))).port);
      // A full scan: a pattern tested on every one of the 1,000,000 records, in slices between other requests.
      const request = `GET /v2/accounts?filter=like(name,*1*)&page[limit]=100 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${String(at(info, 'token'))}\r\n\r\n`;
      // Eight at once: four run (taking turns), the other four wait for them, so reads are running and waiting when the signal comes.
      const reads = Array.from({ length: 8 }, () => exchange(port, request));
      const first = await Promise.race(reads.map((r) => r.answered));
      expect(first.status).toBe(200);
      child.kill('SIGTERM');
      const answers = await Promise.all(reads.map((r) => r.closed));
      expect(await exited).toBe(0);
      const page = JSON.parse(first.body) as { data: unknown[]; meta: { results: { total: number } } };
      expect(page.data).toHaveLength(100);
      expect(page.meta.results.total).toBeGreaterThan(100_000);
      for (const got of answers) {
        expect(got?.status).toBe(200);
        expect(got?.whole).toBe(true);
        // The same read of the same data: the same page, byte for byte.
        expect(got?.body).toBe(first.body);
      }
      // Answers written after shutdown began close their connection: those reads were in flight at the signal, and were finished.
      expect(answers.filter((got) => got?.headers['connection'] === 'close').length).toBeGreaterThanOrEqual(4);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
