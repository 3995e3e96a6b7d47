/**
 * The node:http adapter: reads the body (413 past its limit, without buffering the rest), hands a plain
 * request to the simulator, writes the plain response in order as the connection takes it
 * (write-gate.ts), and shuts down gracefully. Nothing else happens here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import type { JournalEntry } from './journal.js';
import { whenWritable } from './write-gate.js';
import { error } from './respond.js';
import type { Simulator } from './simulator.js';
import { bodyLimit, MAX_BODY_BYTES, type SimResponse } from './messages.js';
import { bearer } from './tokens.js';

/** Header names arrive lower-cased from node:http; repeated ones are joined (the simulator reads single values). */
function headersOf(req: IncomingMessage): Record<string, string> {
  const raw = req.headers;
  const out: Record<string, string> = {};
  for (const k in raw) {
    const v = raw[k];
    if (v !== undefined) out[k] = typeof v === 'string' ? v : v.join(', ');
  }
  return out;
}

function send(res: ServerResponse, response: SimResponse, close = false): ServerResponse {
  const transport = response.transport;
  if (transport !== undefined && transport.delayMs > 0) {
    // Injected latency: a timer, never a wait on the event loop; the gate holds later answers meanwhile.
    setTimeout(() => write(res, response, close, transport.cut), transport.delayMs).unref();
    return res;
  }
  write(res, response, close, transport?.cut);
  return res;
}

function write(res: ServerResponse, response: SimResponse, close: boolean, cut: 'reset' | 'truncate' | undefined): void {
  if (res.destroyed) return;
  if (cut === 'reset') {
    res.socket?.destroy();
    return;
  }
  // Flat header array: node skips building and re-validating a header object.
  const headers: string[] = [];
  for (const k in response.headers) headers.push(k, response.headers[k] ?? '');
  const text = Buffer.from(response.body, 'utf8');
  const body = response.compress === true ? gzipSync(text) : text;
  if (response.compress === true) headers.push('content-encoding', 'gzip', 'vary', 'accept-encoding');
  headers.push('content-length', String(body.length));
  if (close && response.headers['connection'] === undefined) headers.push('connection', 'close');
  res.writeHead(response.status, headers);
  if (cut === 'truncate') {
    // The Content-Length promises the whole body; half comes, then the connection ends.
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
    return;
  }
  res.end(body);
}

/** The body limit of this request: the restore route's larger one only for the admin token. */
function limitOf(sim: Simulator, req: IncomingMessage): number {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const limit = bodyLimit(req.method ?? 'GET', q < 0 ? url : url.slice(0, q), sim.restoreBodyLimit);
  if (limit <= MAX_BODY_BYTES) return limit;
  const authorization = req.headers.authorization;
  return authorization === undefined || bearer({ authorization }) !== sim.adminToken ? MAX_BODY_BYTES : limit;
}

/** Whether the server is shutting down: every answer then closes its connection. */
export interface Lifecycle {
  closing: boolean;
}

/** `serve --log`: one line per request (the journal's entry and the time taken), secrets already redacted. */
export type RequestLog = (entry: JournalEntry, ms: number) => void;

export interface ServerOptions {
  readonly log?: RequestLog;
}

export function createSimServer(sim: Simulator, lifecycle: Lifecycle = { closing: false }, options: ServerOptions = {}): Server {
  const reply = (res: ServerResponse, response: SimResponse, close = false) => send(res, response, close || lifecycle.closing);
  const { log } = options;
  const answer = (req: IncomingMessage, res: ServerResponse, body: string) =>
    whenWritable(req.socket, () => {
      const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: headersOf(req), body };
      // Simulator.handle never throws: whatever goes wrong inside is already a JSON error.
      if (log === undefined) return reply(res, sim.handle(request));
      const started = performance.now();
      let entry: JournalEntry | undefined;
      const sent = reply(
        res,
        sim.handle(request, (e) => (entry = e)),
      );
      if (entry !== undefined) log(entry, performance.now() - started);
      return sent;
    });
  const server = createServer((req, res) => {
    // No body announced (a GET, say): answer now instead of a tick later, after the stream's 'end'.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      req.resume();
      answer(req, res, '');
      return;
    }
    const limit = limitOf(sim, req);
    const tooLarge = () => reply(res, error('payload-too-large', `Request bodies are limited to ${limit} bytes`), true);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      tooLarge();
      req.resume();
      return;
    }
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const body = chunks.length === 0 ? '' : chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
      chunks.length = 0;
      answer(req, res, body);
    });
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = 5_000;
  return server;
}

/** How long close() waits for requests in flight before cutting their connections. */
const CLOSE_GRACE_MS = 2_000;

export interface RunningServer {
  readonly server: Server;
  readonly baseUrl: string;
  readonly port: number;
  /** Stop: answers in flight complete (with Connection: close), idle connections close, the rest is cut after a grace period. */
  close(): Promise<void>;
  /** Cut every connection now (a second Ctrl-C during close()). */
  cut(): void;
}

/** Listen (port 0 picks a free one), then point the simulator's links at the real address. */
export async function listen(sim: Simulator, port: number, host: string, options: ServerOptions = {}): Promise<RunningServer> {
  const lifecycle: Lifecycle = { closing: false };
  const server = createSimServer(sim, lifecycle, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${shownHost}:${address.port}`;
  sim.baseUrl = baseUrl;
  return {
    server,
    baseUrl,
    port: address.port,
    cut: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        // Answers still to come say Connection: close, so no client sends a next request into a closing socket.
        lifecycle.closing = true;
        // A client holding a request open must not hold the shutdown: what is left is cut after a grace period.
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        cut.unref();
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
