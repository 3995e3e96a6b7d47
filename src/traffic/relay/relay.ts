/**
 * The relay of `commerce-sim proxy`: a reverse proxy that passes requests and answers on unchanged (bytes,
 * content coding, status, headers less the hop-by-hop ones) over a keep-alive undici Pool, and hands each
 * finished exchange to `onExchange` off the request path, for the traffic judge. `startBareRelay` is the
 * same relay with no capture and no callbacks: the baseline the bench measures the relay against.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { parseBaseUrl } from '../../adapters/http.js';
import { UsageError } from '../../kit-errors.js';
import { DEFAULT_PROXY_PORT, MAX_PORT } from '../../limits.js';
import { wholeValue } from '../../numbers.js';
import { listenError } from '../../sim/listen-error.js';
import type { TrafficEntry } from '../entry.js';
import type { InfraNote } from './answers.js';
import { relayRequest } from './flight.js';
import { RelayState, type Observers, type Upstream } from './state.js';

export type { InfraNote } from './answers.js';

export interface BareRelayOptions {
  /** Base URL of the server relayed to, http or https, e.g. `https://api.example.com` or `http://127.0.0.1:4747`. */
  readonly upstream: string;
  /** Default 4748; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** How long the upstream may take to connect, to send an answer's headers, and between body chunks (default 30,000 ms); past it the client gets a 504. */
  readonly timeoutMs?: number;
  /** `false` accepts an upstream certificate that does not verify (a self-signed test upstream). Default true. */
  readonly rejectUnauthorized?: boolean;
  /** Keep-alive connections to the upstream at most (default 128); more requests at once wait for one. */
  readonly connections?: number;
}

export interface RelayOptions extends BareRelayOptions {
  /** Bytes of each body (request and answer) kept for judging (default 8 MiB); past it the entry is `truncated`, the client still gets every byte. */
  readonly maxCaptureBytes?: number;
  /**
   * Opt-in: the answer is buffered, this is called with its entry before the answer's headers are written,
   * and a returned text (header-safe characters only, cut to 1,024 bytes) goes to the client as one extra
   * header, `x-commerce-sim-findings`. A throw adds no header. Its entry's `durationMs` ends when the
   * upstream's answer is in; `onExchange` gets the same entry with the full duration.
   */
  readonly annotate?: (entry: TrafficEntry) => string | undefined;
  /** Every relayed exchange, after its answer is finished (`setImmediate`); it cannot change the answer, and a throw is counted, not raised. */
  readonly onExchange: (entry: TrafficEntry) => void;
  /** What went wrong that is no answer of the server's: upstream unreachable (502), too slow (504), an answer cut, a client gone. */
  readonly onInfra?: (note: InfraNote) => void;
  /** Read as each request arrives; its value goes on the entry as `simClock` (the simulator's clock, for ground truth). */
  readonly stamp?: () => number;
}

interface RelayStats {
  /** Exchanges whose whole answer went to the client. */
  readonly relayed: number;
  /** Infrastructure notes (502, 504, cuts, clients gone), whether or not `onInfra` was given. */
  readonly infra: number;
  /** Throws of `onExchange`, `annotate` or `onInfra`, swallowed. */
  readonly failedCallbacks: number;
}

export interface Relay {
  /** e.g. `http://127.0.0.1:4748`. */
  readonly url: string;
  readonly port: number;
  /** Stop accepting; requests in flight get their answers (up to 5 s), then connections close and the upstream pool with them. */
  close(): Promise<void>;
  stats(): RelayStats;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_CAPTURE_BYTES = 8 * 1024 * 1024;
/** How long close() waits for answers in flight before cutting their connections. */
const CLOSE_GRACE_MS = 5_000;

export async function startRelay(o: RelayOptions): Promise<Relay> {
  if (typeof o.onExchange !== 'function') throw new UsageError('CLI_USAGE', 'onExchange must be a function');
  const observers: Observers = {
    maxCaptureBytes: wholeValue('maxCaptureBytes', o.maxCaptureBytes, 0, Number.MAX_SAFE_INTEGER) ?? DEFAULT_MAX_CAPTURE_BYTES,
    onExchange: o.onExchange,
    annotate: o.annotate,
    onInfra: o.onInfra,
    stamp: o.stamp,
  };
  return start(o, observers);
}

/** The same relay with no capture and no callbacks: the bench's bare undici pass-through proxy. */
export async function startBareRelay(o: BareRelayOptions): Promise<Relay> {
  return start(o, undefined);
}

async function start(o: BareRelayOptions, observers: Observers | undefined): Promise<Relay> {
  const base = parseBaseUrl(o.upstream);
  const upstream: Upstream = { origin: base.origin, prefix: base.pathname.replace(/\/+$/, ''), host: base.host };
  const port = wholeValue('port', o.port, 0, MAX_PORT) ?? DEFAULT_PROXY_PORT;
  const host = o.host ?? '127.0.0.1';
  const timeoutMs = wholeValue('timeoutMs', o.timeoutMs, 1, Number.MAX_SAFE_INTEGER) ?? DEFAULT_TIMEOUT_MS;
  const pool = new Pool(base.origin, {
    connections: wholeValue('connections', o.connections, 1, Number.MAX_SAFE_INTEGER) ?? 128,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs, rejectUnauthorized: o.rejectUnauthorized ?? true },
  });
  const state = new RelayState(pool, upstream, timeoutMs, observers);
  const server = createServer((req, res) => relayRequest(state, req, res));
  try {
    await listenOn(server, port, host);
  } catch (error) {
    await pool.destroy();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    close: () => (closed ??= shutdown(server, pool, state)),
    stats: () => ({ relayed: state.relayed, infra: state.infra, failedCallbacks: state.failedCallbacks }),
  };
}

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, port, host)));
    server.listen(port, host, () => resolve());
  });
}

async function shutdown(server: Server, pool: Pool, state: RelayState): Promise<void> {
  state.closing = true;
  const portClosed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const drained = await state.drained(CLOSE_GRACE_MS);
  server.closeAllConnections();
  await portClosed;
  await (drained ? pool.close() : pool.destroy());
}
