/**
 * What the relay tests share: a raw HTTP client that shows an answer as it came on the wire (header lines
 * in order and case, body bytes with their content coding), tiny node:http upstreams for the odd cases,
 * and collectors that resolve when the relay's callbacks have been called.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Runs `close` after the current test, last registered first. */
export function later(close: () => Promise<void>): void {
  closers.push(close);
}

export interface RawAnswer {
  readonly status: number;
  readonly statusMessage: string;
  /** Header lines as they came: name, value, name, value, ... */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
}

export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** One request with node:http (no decompression, no header folding), on a fresh connection. */
export function raw(base: string, r: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${r.path}`, { method: r.method ?? 'GET', headers: r.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

/**
 * `r` asked directly as the relay at `relay.url` asks its upstream: with the forwarding headers naming the
 * relay's origin, so the upstream (the simulator builds its links for them) answers the same bytes.
 */
export function asFrom(relay: { readonly url: string }, r: RawRequest): RawRequest {
  return { ...r, headers: { ...(r.headers ?? {}), 'x-forwarded-host': new URL(relay.url).host, 'x-forwarded-proto': 'http' } };
}

/** Header lines that belong to one connection (or to the moment) and so may differ between two answers. */
const PER_CONNECTION = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/** The header lines two answers must share, in order and case. */
export function endToEnd(rawHeaders: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    if (!PER_CONNECTION.has(name.toLowerCase())) out.push([name, rawHeaders[i + 1] ?? '']);
  }
  return out;
}

/** Every value of a header in an answer, case-insensitively. */
export function headerValues(rawHeaders: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if ((rawHeaders[i] ?? '').toLowerCase() === name) out.push(rawHeaders[i + 1] ?? '');
  return out;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Upstream {
  readonly url: string;
  readonly server: Server;
  /** Connections the upstream accepted. */
  connections(): number;
  /** Requests the upstream received. */
  requests(): number;
}

function track(server: Server, handler: Handler): () => { connections: number; requests: number } {
  const counts = { connections: 0, requests: 0 };
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    counts.connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    counts.requests++;
    handler(req, res);
  });
  later(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return () => counts;
}

async function listening(server: Server, scheme: 'http' | 'https', counts: () => { connections: number; requests: number }): Promise<Upstream> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `${scheme}://127.0.0.1:${port}`, server, connections: () => counts().connections, requests: () => counts().requests };
}

/** A node:http upstream on a free loopback port, closed after the test. */
export async function upstream(handler: Handler): Promise<Upstream> {
  const server = createServer();
  return listening(server, 'http', track(server, handler));
}

export interface SelfSigned {
  readonly key: string;
  readonly cert: string;
}

/** A throw-away self-signed certificate for 127.0.0.1 made with the machine's openssl, or the reason there is none. */
export function selfSigned(): SelfSigned | string {
  const dir = mkdtempSync(join(tmpdir(), 'relay-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    // prettier-ignore
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } catch (error) {
    return `no self-signed certificate could be made with openssl (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An https upstream with the given certificate. */
export async function httpsUpstream(tls: SelfSigned, handler: Handler): Promise<Upstream> {
  const server = createHttpsServer({ key: tls.key, cert: tls.cert });
  return listening(server, 'https', track(server, handler));
}

/** Collects what a callback is given; `next(n)` resolves once it holds n items. */
export class Collector<T> {
  readonly items: T[] = [];
  private waiting: { n: number; resolve: () => void }[] = [];

  readonly push = (item: T): void => {
    this.items.push(item);
    for (const w of this.waiting.filter((x) => this.items.length >= x.n)) w.resolve();
    this.waiting = this.waiting.filter((x) => this.items.length < x.n);
  };

  next(n: number): Promise<T[]> {
    if (this.items.length >= n) return Promise.resolve(this.items);
    return new Promise((resolve) => this.waiting.push({ n, resolve: () => resolve(this.items) }));
  }
}

/** A promise and its resolver, to hold an upstream's answer until the test lets it go. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
