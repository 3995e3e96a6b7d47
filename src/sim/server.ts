/**
 * The node:http adapter: reads the body (413 past its limit, without buffering the rest), hands a plain
 * request to the simulator, writes the plain response in order as the connection takes it
 * (write-gate.ts), and shuts down gracefully. Nothing else happens here.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { entryView, Journal, type JournalEntry } from './journal.js';
import { whenWritable } from './write-gate.js';
import { listenError } from './listen-error.js';
import { error } from './respond.js';
import type { Arrival, Simulator } from './simulator.js';
import { bodyLimit, MAX_BODY_BYTES, type SimResponse } from './messages.js';
import { BufferPool, writeParts } from './body-parts.js';
import { bearer } from './tokens.js';
import { sliced } from './slicer.js';
import { zlib } from '../zlib.js';

/**
 * Header names arrive lower-cased from node:http, repeated ones already joined or dropped by node; only
 * `set-cookie` comes as a list, and the simulator reads it nowhere. So node's own object is passed, not copied.
 */
function headersOf(raw: IncomingHttpHeaders): Record<string, string> {
  return raw as Record<string, string>;
}

/** Buffers list pages are assembled in, back in the pool once their answer is handed to the socket. */
const pool = new BufferPool();

type Cut = 'reset' | 'truncate' | undefined;

/**
 * One request on its way through the adapter, a single object per request: the simulator's `Arrival`
 * (when it came, its journal entry) plus when it started by the monotonic clock and how long injected
 * latency held its answer.
 */
interface Pending extends Arrival {
  readonly started: number;
  heldMs: number;
}

/** Settles a request's journal entry with what its client met (the server's one function, not one per request). */
type Settle = (pending: Pending, cut: Cut) => void;

function write(res: ServerResponse, response: SimResponse, close: boolean, cut: Cut, lifecycle: Lifecycle, pending: Pending | undefined, settle: Settle): void {
  if (res.destroyed || res.headersSent) {
    lifecycle.answered(res);
    // The client went first: its entry is settled (and logged) as the simulator meant to answer it.
    if (pending !== undefined) settle(pending, cut);
    return;
  }
  if (cut === 'reset') {
    res.socket?.destroy();
    if (pending !== undefined) settle(pending, 'reset');
    return;
  }
  // Flat header array: node skips building and re-validating a header object.
  const headers: string[] = [];
  for (const k in response.headers) headers.push(k, response.headers[k] ?? '');
  const parts = response.parts;
  let pooled: Buffer | undefined;
  let text: Buffer;
  if (parts !== undefined) {
    pooled = pool.take(parts.size);
    text = pooled.subarray(0, writeParts(parts, pooled));
  } else text = Buffer.from(response.body, 'utf8');
  const body = response.compress === true ? zlib().gzipSync(text) : text;
  if (response.compress === true) headers.push('content-encoding', 'gzip', 'vary', 'accept-encoding');
  headers.push('content-length', String(body.length));
  if (close && response.headers['connection'] === undefined) headers.push('connection', 'close');
  res.writeHead(response.status, headers);
  if (cut === 'truncate') {
    // The Content-Length promises the whole body; half comes, then the connection ends (and settles what it owed).
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
      res.socket?.destroy();
      if (pending !== undefined) settle(pending, 'truncate');
    });
    return;
  }
  // 'finish': node has handed the bytes to the socket, so the buffer may take the next answer and shutdown
  // may count this one answered (a connection that goes first settles it instead).
  res.end(body, () => {
    if (pooled !== undefined) pool.give(pooled);
    lifecycle.answered(res);
    if (pending !== undefined) settle(pending, undefined);
  });
}

/**
 * Room for a large body, outside what V8 counts as its external memory (issue 36). An ordinary buffer of
 * 230 MiB counts at once, and V8 answers that with a mark-compact of the whole heap (a million seeded
 * records) while the body is still arriving: atomic pauses of 61-184 ms (once 1,351 ms) in the restore's
 * first second. A SharedArrayBuffer's memory is not counted per isolate (V8 leaves shared backing stores
 * out of that accounting), so no collection is started for it; it is freed by the next mark-compact
 * after the restore lets go of it.
 */
export function restoreBuffer(bytes: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(bytes));
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

/** How long close() waits, by default, for answers still being written before cutting their connections. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 5_000;

/** Requests of one connection read and not yet answered; `open` false once the connection closed. */
interface Owed {
  count: number;
  open: boolean;
}
const OWED = Symbol('owed');
type Tracked = ServerResponse & { [OWED]?: Owed | undefined };

/**
 * Where the server is in its life: serving, or shutting down. From the moment shutdown begins every answer
 * closes its connection, answers held by injected latency go at once, and a request read after that
 * moment is answered 503; `drain()` resolves once every request read before it has had its answer handed
 * to node (or lost its connection). Counted per connection, not with listeners per request: this runs on
 * every request.
 */
export class Lifecycle {
  closing = false;
  /** Once closing: when long work still running stops (sim/slicer.ts), leaving the rest of the grace to write answers. */
  finishBy = Infinity;

  /** `graceMs`: how long shutdown gives answers before it cuts their connections (close()). */
  constructor(private readonly graceMs = DEFAULT_SHUTDOWN_GRACE_MS) {}

  private inFlight = 0;
  private readonly delayed = new Set<() => void>();
  private idle: (() => void) | undefined;
  private readonly bySocket = new WeakMap<Socket, Owed>();

  /** A request read while serving: shutdown waits until `answered(res)`, or until its connection closes. */
  received(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    let owed = this.bySocket.get(socket);
    if (owed === undefined) {
      const created: Owed = { count: 0, open: true };
      owed = created;
      this.bySocket.set(socket, created);
      // Node never closes the answers queued behind a pipelined one when the connection goes: the socket's close settles them.
      socket.once('close', () => {
        created.open = false;
        this.settle(created.count);
        created.count = 0;
      });
    }
    owed.count++;
    this.inFlight++;
    (res as Tracked)[OWED] = owed;
  }

  /** Requests read and not yet answered, on every connection. */
  get owed(): number {
    return this.inFlight;
  }

  /** A connection that has had a request and owes no answer now: idle between requests (keep-alive). */
  idleAfterUse(socket: Socket): boolean {
    const owed = this.bySocket.get(socket);
    return owed !== undefined && owed.count === 0;
  }

  /** The answer to `res` is handed to node (or will never be); idempotent. */
  answered(res: ServerResponse): void {
    const tracked = res as Tracked;
    const owed = tracked[OWED];
    if (owed === undefined) return;
    tracked[OWED] = undefined;
    if (!owed.open) return;
    owed.count--;
    this.settle(1);
  }

  private settle(n: number): void {
    this.inFlight -= n;
    if (this.closing && this.inFlight === 0) this.idle?.();
  }

  /** Run `fire` after `ms` (injected latency), or at once when shutdown begins: `heldMs` says how long it waited. */
  delay(ms: number, fire: (heldMs: number) => void): void {
    const start = performance.now();
    let timedOut = false;
    const run = () => {
      clearTimeout(timer);
      this.delayed.delete(run);
      // The timer fires a little late, never early: held the latency asked, unless shutdown cut it short.
      fire(timedOut ? ms : Math.min(ms, Math.round(performance.now() - start)));
    };
    const timer = setTimeout(() => {
      timedOut = true;
      run();
    }, ms);
    timer.unref();
    this.delayed.add(run);
  }

  /** Begin shutdown; resolves when every request read before now is answered. */
  drain(): Promise<void> {
    this.closing = true;
    // A tenth of the grace, at most half a second, is left to write what the work answers.
    this.finishBy = performance.now() + this.graceMs - Math.min(500, this.graceMs / 10);
    for (const run of [...this.delayed]) run();
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }
}

/**
 * `serve --log`: one line per request once its answer is handed over (or its connection cut), with the
 * journal's entry and the ms from received to answered (injected latency included), secrets already redacted.
 */
export type RequestLog = (entry: JournalEntry, ms: number) => void;

export interface ServerOptions {
  readonly log?: RequestLog;
  /** Lines saying how building the seeded data goes, when it takes long (serve prints them on stderr). */
  readonly progress?: (line: string) => void;
  /** How long shutdown waits for answers still being written (slow readers) before cutting; default 5,000 ms. */
  readonly graceMs?: number;
}

const SHUTTING_DOWN = error('unavailable', 'The simulator is shutting down; this request was not processed');

export function createSimServer(sim: Simulator, lifecycle: Lifecycle = new Lifecycle(), options: ServerOptions = {}): Server {
  // Whether to close is read when the answer is written: an answer held by latency past the start of shutdown closes too.
  const { log } = options;
  /** The journal's entry settled with what the client met, and logged: times from when the request came. */
  const settle: Settle = (pending, cut) => {
    const entry = pending.entry;
    if (entry === undefined) return;
    const ms = performance.now() - pending.started;
    Journal.settle(entry, { answeredMs: entry.receivedMs + Math.round(ms), heldMs: pending.heldMs, cut });
    if (log !== undefined) log(entryView(entry), ms);
  };
  const reply = (res: ServerResponse, response: SimResponse, close = false, pending?: Pending): ServerResponse => {
    // Work done in slices between other requests (a reseed): its answer comes when the work is done.
    if (response.deferred !== undefined) {
      void response.deferred.then((later) => reply(res, later, close, pending));
      return res;
    }
    const transport = response.transport;
    if (transport !== undefined && transport.delayMs > 0)
      lifecycle.delay(transport.delayMs, (heldMs) => {
        if (pending !== undefined) pending.heldMs = heldMs;
        write(res, response, close || lifecycle.closing, transport.cut, lifecycle, pending, settle);
      });
    else write(res, response, close || lifecycle.closing, transport?.cut, lifecycle, pending, settle);
    return res;
  };
  const answer = (req: IncomingMessage, res: ServerResponse, body: string, pending: Pending, raw?: Uint8Array) =>
    whenWritable(req.socket, () => {
      const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: headersOf(req.headers), body, ...(raw === undefined ? {} : { raw }) };
      // Simulator.handle never throws: whatever goes wrong inside is already a JSON error.
      return reply(res, sim.handle(request, pending), false, pending);
    });
  const server = createServer((req, res) => {
    if (lifecycle.closing) {
      // Read after shutdown began: a clear answer, not a silent close (and the port stays open until it is written).
      lifecycle.received(req, res);
      req.resume();
      whenWritable(req.socket, () => reply(res, SHUTTING_DOWN, true));
      return;
    }
    lifecycle.received(req, res);
    // The journal's received time: the injected wall clock read as the request came, durations from performance.now().
    const pending: Pending = { receivedMs: sim.now(), entry: undefined, started: performance.now(), heldMs: 0 };
    // No body announced (a GET, say): answer now instead of a tick later, after the stream's 'end'.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      req.resume();
      answer(req, res, '', pending);
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
    // A body past the usual limit (a restore) stays bytes, copied as it comes into one buffer of the
    // announced length: decoding hundreds of megabytes to one string would hold every other client.
    const bytes = limit > MAX_BODY_BYTES && declared > 0 ? restoreBuffer(declared) : undefined;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      if (size + chunk.length > limit || (bytes !== undefined && size + chunk.length > bytes.length)) {
        refused = true;
        chunks.length = 0;
        tooLarge();
        return;
      }
      if (bytes === undefined) chunks.push(chunk);
      else chunk.copy(bytes, size);
      size += chunk.length;
    });
    req.on('end', () => {
      if (refused) return;
      if (limit > MAX_BODY_BYTES) {
        const raw = bytes === undefined ? Buffer.concat(chunks) : bytes.subarray(0, size);
        chunks.length = 0;
        answer(req, res, '', pending, raw);
        return;
      }
      const body = chunks.length === 0 ? '' : chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
      chunks.length = 0;
      answer(req, res, body, pending);
    });
    req.on('error', () => {
      res.destroy();
      lifecycle.answered(res);
    });
  });
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Shutdown closes the port once no connection has come for this long (and every answer owed is written). */
const QUIET_MS = 100;

export interface RunningServer {
  readonly server: Server;
  readonly baseUrl: string;
  readonly port: number;
  /**
   * Stop: every request read before now gets its whole answer with Connection: close (injected latency cut
   * short), requests read after it a JSON 503 with Connection: close, idle connections close at once;
   * whatever is still being written when the grace runs out is cut. Resolves when the port is closed.
   */
  close(): Promise<void>;
  /** Cut every connection now (a second Ctrl-C during close()). */
  cut(): void;
}

/**
 * From this many seeded records, every record and index is built before the port opens, so no first read
 * pays for them (a second at a million). Fewer are built by the first read of each collection, in a few
 * ms (store/seeded-bases.ts: the one way to them builds on first use): a test file's simulator answers
 * sooner than it would build them all (issue 35's cold start), with the same bytes.
 */
export const WARM_BEFORE_LISTEN = 10_000;

/** Every seeded record and index built before the port opens, for a dataset large enough to need it. */
function warm(sim: Simulator, progress: ((line: string) => void) | undefined): void {
  if (sim.budget.seeded < WARM_BEFORE_LISTEN) return;
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  let nextLine = started + 2000;
  const steps = sim.warm();
  let step = steps.next();
  while (step.done !== true) {
    if (progress !== undefined && performance.now() >= nextLine) {
      progress(`seeding the data and its indexes… ${seconds()} s`);
      nextLine += 2000;
    }
    step = steps.next();
  }
  if (progress !== undefined && performance.now() - started >= 500) progress(`seeded ${step.value.toLocaleString('en-US')} records and their indexes in ${seconds()} s`);
}

/** Build the seeded data of a large dataset, listen (port 0 picks a free one), then point the simulator's links at the real address. */
export async function listen(sim: Simulator, port: number, host: string, options: ServerOptions = {}): Promise<RunningServer> {
  const lifecycle = new Lifecycle(options.graceMs);
  warm(sim, options.progress);
  sim.slicer = sliced(lifecycle);
  sim.wire = true;
  const server = createSimServer(sim, lifecycle, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, port, host)));
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${shownHost}:${address.port}`;
  sim.baseUrl = baseUrl;
  // Per connection, not per request: shutdown must tell a connection just accepted from one idle after use.
  const connections = new Set<Socket>();
  let lastConnection = performance.now();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    lastConnection = performance.now();
    socket.once('close', () => connections.delete(socket));
  });
  let closed: Promise<void> | undefined;
  return {
    server,
    baseUrl,
    port: address.port,
    cut: () => server.closeAllConnections(),
    close: () =>
      (closed ??= (async () => {
        let grace: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          let stopping = false;
          const stop = () => {
            if (stopping) return;
            stopping = true;
            server.close(() => resolve());
            server.closeIdleConnections();
          };
          // The port stays open while answers are owed, so a request arriving meanwhile is told 503, not refused;
          // then until no connection has come for a moment and every 503 is written: a busy server accepts and
          // reads connections late, and closing the port or such a connection would reset it unread.
          const quiet = () => {
            if (stopping) return;
            if (lifecycle.owed > 0 || performance.now() - lastConnection < QUIET_MS) setTimeout(quiet, 10).unref();
            else stop();
          };
          void lifecycle.drain().then(quiet);
          // Past the grace, whatever is still being written (a client that does not read) is cut.
          grace = setTimeout(() => {
            server.closeAllConnections();
            stop();
          }, options.graceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
          grace.unref();
          // Idle keep-alive connections close at once; one accepted and not yet read is left for its request.
          for (const socket of connections) if (lifecycle.idleAfterUse(socket)) socket.destroy();
        });
        clearTimeout(grace);
      })()),
  };
}
