/**
 * One relayed request on its way, as one object: it is undici's dispatch handler for the upstream leg and
 * holds what is captured for judging. The answer is piped to the client chunk by chunk as undici hands it
 * (backpressure both ways: a slow client pauses the upstream); a bounded copy is kept. Node's events reach
 * the flight through module functions that find it on the response (no closures per request). Judging work
 * (decoding, JSON, the entry) happens after the answer is finished, in `setImmediate`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { TrafficEntry } from '../entry.js';
import { CLIENT_GONE, cutAnswer, relayAnswer, upstreamFailure, type InfraKind, type InfraNote, type RelayStatus } from './answers.js';
import { entryOf, type Captured, type EntryContext } from './entry.js';
import { announcesBody, findingsValue, flatHeaders, forwardRequestHeaders, forwardResponseHeaders, withFindings } from './headers.js';
import type { Observers, RelayState } from './state.js';

/** undici's parsed answer headers (its `IncomingHttpHeaders`). */
type ParsedHeaders = Record<string, string | string[] | undefined>;

const FLIGHT = Symbol('flight');
type Carrier = { [FLIGHT]?: Flight };

/** A request read by the relay: numbered, sent upstream (or answered 503 while shutting down). */
export function relayRequest(state: RelayState, req: IncomingMessage, res: ServerResponse): void {
  state.inFlight++;
  const flight = new Flight(state, req, res);
  (res as Carrier)[FLIGHT] = flight;
  res.once('close', onResponseClose);
  if (state.closing) {
    flight.failed = true;
    flight.answer(503, 'The proxy is shutting down; this request was not relayed');
    return;
  }
  state.dispatcher.dispatch({ method: flight.method, path: flight.path, headers: flight.requestHeaders, body: flight.hasBody ? req : null }, flight);
}

function onResponseClose(this: ServerResponse): void {
  (this as Carrier)[FLIGHT]?.closed();
}

function onResponseDrain(this: ServerResponse): void {
  (this as Carrier)[FLIGHT]?.controller?.resume();
}

function onRequestData(this: IncomingMessage, chunk: Buffer): void {
  (this as Carrier)[FLIGHT]?.keepRequest(chunk);
}

function emitExchange(flight: Flight): void {
  const state = flight.state;
  const observers = state.observers;
  if (observers === undefined) return;
  try {
    const durationMs = flight.durationMs;
    const entry = flight.entry === undefined ? entryOf(flight, entryContext(state, observers), durationMs) : { ...flight.entry, durationMs };
    flight.release();
    observers.onExchange(entry);
  } catch {
    // The consumer's error is its own: the relay goes on.
    state.failedCallbacks++;
  }
}

function emitInfra(state: RelayState, note: InfraNote): void {
  try {
    state.observers?.onInfra?.(note);
  } catch {
    state.failedCallbacks++;
  }
}

function entryContext(state: RelayState, observers: Observers): EntryContext {
  return { origin: state.upstream.origin, host: state.upstream.host, maxCaptureBytes: observers.maxCaptureBytes };
}

class Flight implements Dispatcher.DispatchHandler, Captured {
  readonly n: number;
  readonly started = performance.now();
  readonly arrivedAt = Date.now();
  readonly method: string;
  readonly path: string;
  readonly requestHeaders: string[];
  readonly hasBody: boolean;
  controller: Dispatcher.DispatchController | undefined = undefined;
  /** The relay answered itself, or gave up on this exchange: nothing more is relayed or judged. */
  failed = false;
  /** undici handed the whole answer. */
  upstreamDone = false;
  status = 0;
  /** The upstream's reason phrase, relayed as it came (node's own when undici gives none). */
  statusMessage: string | undefined = undefined;
  responseHeaders: string[] = [];
  responseChunks: Buffer[] = [];
  responseKept = 0;
  responseTruncated = false;
  requestChunks: Buffer[] | undefined = undefined;
  requestKept = 0;
  requestTruncated = false;
  /** Built on the path only for `annotate`. */
  entry: TrafficEntry | undefined = undefined;
  /** In front of the simulator: its clock when the request came (ground truth's start). */
  readonly simClock: number | undefined;
  durationMs = 0;

  constructor(
    readonly state: RelayState,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
  ) {
    this.n = ++state.sequence;
    this.method = req.method ?? 'GET';
    this.path = state.upstream.prefix + originForm(req.url ?? '/');
    this.requestHeaders = forwardRequestHeaders(req.rawHeaders, { address: req.socket.remoteAddress, proto: 'http' });
    this.simClock = state.observers?.stamp?.();
    this.hasBody = announcesBody(req.rawHeaders);
    // The upstream's Date is relayed; node adds none of its own.
    res.sendDate = false;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.failed) {
      controller.abort(new Error(CLIENT_GONE));
      return;
    }
    // Called just before undici starts reading the body: both listeners see every chunk.
    if (this.hasBody && this.state.observers !== undefined && this.requestChunks === undefined) {
      this.requestChunks = [];
      (this.req as Carrier)[FLIGHT] = this;
      this.req.on('data', onRequestData);
    }
  }

  keepRequest(chunk: Buffer): void {
    const chunks = this.requestChunks;
    const max = this.state.observers?.maxCaptureBytes ?? 0;
    if (chunks === undefined || this.requestTruncated) return;
    const room = max - this.requestKept;
    if (chunk.length <= room) {
      chunks.push(chunk);
      this.requestKept += chunk.length;
      return;
    }
    if (room > 0) chunks.push(chunk.subarray(0, room));
    this.requestKept = max;
    this.requestTruncated = true;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: ParsedHeaders, statusMessage?: string): void {
    if (this.failed || statusCode < 200) return;
    const raw = controller.rawHeaders;
    this.status = statusCode;
    this.statusMessage = statusMessage;
    this.responseHeaders = forwardResponseHeaders(Array.isArray(raw) ? raw : flatHeaders(headers));
    // `annotate`: the answer waits for the whole body and the findings.
    if (this.state.observers?.annotate !== undefined) return;
    const res = this.res;
    if (this.state.closing) res.shouldKeepAlive = false;
    writeHead(res, statusCode, statusMessage, this.responseHeaders);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.failed) return;
    const observers = this.state.observers;
    if (observers !== undefined) {
      if (observers.annotate !== undefined) {
        this.responseChunks.push(chunk);
        return;
      }
      this.keepResponse(chunk, observers.maxCaptureBytes);
    }
    const res = this.res;
    if (!res.write(chunk) && !res.destroyed) {
      controller.pause();
      res.once('drain', onResponseDrain);
    }
  }

  private keepResponse(chunk: Buffer, max: number): void {
    if (this.responseTruncated) return;
    const room = max - this.responseKept;
    if (chunk.length <= room) {
      this.responseChunks.push(chunk);
      this.responseKept += chunk.length;
      return;
    }
    if (room > 0) this.responseChunks.push(chunk.subarray(0, room));
    this.responseKept = max;
    this.responseTruncated = true;
  }

  onResponseEnd(): void {
    if (this.failed) return;
    this.upstreamDone = true;
    const observers = this.state.observers;
    if (observers?.annotate !== undefined) this.deliverAnnotated(observers, observers.annotate);
    else this.res.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.failed) return;
    this.failed = true;
    const res = this.res;
    const upstream = this.state.upstream.origin;
    if (res.destroyed) {
      this.note('aborted', CLIENT_GONE);
    } else if (res.headersSent) {
      const cut = cutAnswer(error, upstream);
      res.destroy();
      this.note(cut.kind, cut.message);
    } else {
      const failure = upstreamFailure(error, upstream, this.state.timeoutMs);
      this.answer(failure.status, failure.detail);
      this.note(failure.kind, failure.detail);
    }
  }

  /** The relay's own answer (502, 503, 504). */
  answer(status: RelayStatus, detail: string): void {
    const res = this.res;
    const answer = relayAnswer(status, detail);
    if (this.state.closing) res.shouldKeepAlive = false;
    res.sendDate = true;
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }

  /** `annotate`: the entry is built now, the findings asked for, then the answer goes as one write. */
  private deliverAnnotated(observers: Observers, annotate: (entry: TrafficEntry) => string | undefined): void {
    const state = this.state;
    let headers = this.responseHeaders;
    try {
      const entry = entryOf(this, entryContext(state, observers), performance.now() - this.started);
      this.entry = entry;
      const findings = findingsValue(annotate(entry));
      if (findings !== undefined) headers = withFindings(headers, findings);
    } catch {
      state.failedCallbacks++;
    }
    const res = this.res;
    if (res.destroyed) return;
    if (state.closing) res.shouldKeepAlive = false;
    writeHead(res, this.status, this.statusMessage, headers);
    const chunks = this.responseChunks;
    res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }

  /** The response closed: either its answer was handed to the client in full, or the client went first. */
  closed(): void {
    const state = this.state;
    if (this.upstreamDone && this.res.writableFinished) {
      state.relayed++;
      if (state.observers !== undefined) {
        this.durationMs = performance.now() - this.started;
        setImmediate(emitExchange, this);
      }
    } else if (!this.failed) {
      this.failed = true;
      if (!this.upstreamDone) this.controller?.abort(new Error(CLIENT_GONE));
      this.note('aborted', CLIENT_GONE);
    }
    state.settled();
  }

  /** Drops the captured bytes once the entry is built. */
  release(): void {
    this.responseChunks = [];
    this.requestChunks = undefined;
  }

  private note(kind: InfraKind, message: string): void {
    const state = this.state;
    state.infra++;
    if (state.observers?.onInfra === undefined) return;
    setImmediate(emitInfra, state, { kind, method: this.method, url: this.req.url ?? '/', message, at: new Date().toISOString() } satisfies InfraNote);
  }
}

function writeHead(res: ServerResponse, status: number, reason: string | undefined, headers: string[]): void {
  if (reason === undefined) res.writeHead(status, headers);
  else res.writeHead(status, reason, headers);
}

/** A request target in absolute form (`GET http://host/path`) as path plus query; origin form as it is. */
function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return `/${url}`;
  }
}
