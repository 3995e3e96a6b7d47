/**
 * The traffic judge in a worker thread, so that judging never holds the relay's event loop: the proxy
 * hands each finished exchange over (its request and answer as text, never the parsed body) and gets the
 * findings back as they are made. Used in front of a URL; in front of the simulator the judge needs the
 * simulator's store (ground truth) and stays on the main thread. The worker is this same file.
 *
 * The backlog is bounded: the worker counts what it has judged in shared memory, and when what waits
 * for it passes the bound, the proxy sheds whole clients (origin and credential): their exchanges are
 * relayed but no longer judged, the judge forgets what it held of them (a half-seen walk would be judged
 * wrongly), and the result says how many exchanges of how many clients went unjudged. Once the judge has
 * caught up (a quarter of the bound), shed clients are taken back, afresh, as traffic captured mid-way is.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { toExchange, type TargetRequest, type TargetResponse } from '../../port.js';
import type { TrafficEntry } from '../entry.js';
import { createTrafficJudge } from '../judge/judge.js';
import type { Finding, InfraNote, TrafficResult } from '../judge/result.js';
import { sessionKey } from '../judge/shard.js';

/** An entry as it crosses to the thread: text only. */
interface Carried {
  readonly request: TargetRequest;
  readonly response: TargetResponse;
  readonly origin: string;
  readonly startedAt?: string;
  readonly durationMs?: number;
  readonly source: string;
  readonly truncated?: true;
  readonly undecodable?: string;
}

type ToThread =
  { readonly kind: 'entry'; readonly entry: Carried } | { readonly kind: 'forget'; readonly key: string } | { readonly kind: 'note'; readonly note: InfraNote } | { readonly kind: 'finish' };
type FromThread = { readonly kind: 'finding'; readonly finding: Finding } | { readonly kind: 'result'; readonly result: TrafficResult };

/** What may wait for the judge before clients are shed: bytes of text handed over and not yet judged. */
export const DEFAULT_MAX_BACKLOG_BYTES = 32 * 2 ** 20;
/** Clients remembered as shed; past it every new client is shed too (the judge is far behind anyway). */
const MAX_SHED_CLIENTS = 100_000;

export interface ThreadedJudge {
  observe(entry: TrafficEntry): void;
  note(note: InfraNote): void;
  /** Bytes handed over and not yet judged. */
  backlog(): number;
  finish(): Promise<TrafficResult>;
}

const SELF = fileURLToPath(import.meta.url);

/** A judge in a worker thread, or undefined where none can start (run from TypeScript sources, as the tests do). */
export function startJudgeThread(options: {
  readonly complete: boolean;
  readonly onFinding?: (f: Finding) => void;
  readonly maxBacklogBytes?: number;
  readonly expect?: readonly string[];
}): ThreadedJudge | undefined {
  if (!SELF.endsWith('.js') || !existsSync(SELF)) return undefined;
  // Bytes judged so far, counted by the worker in shared memory.
  const judged = new BigInt64Array(new SharedArrayBuffer(8));
  const worker = new Worker(SELF, { workerData: { complete: options.complete, findings: options.onFinding !== undefined, judged, expect: options.expect ?? [] } });
  const maxBacklog = options.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES;
  let posted = 0;
  /** Clients shed now; and every client ever shed, counted for the result. */
  const shed = new Set<string>();
  const everShed = new Set<string>();
  let shedAll = false;
  let shedExchanges = 0;
  let settle: ((r: TrafficResult) => void) | undefined;
  let failed: ((e: unknown) => void) | undefined;
  const done = new Promise<TrafficResult>((resolve, reject) => {
    settle = resolve;
    failed = reject;
  });
  worker.on('message', (m: FromThread) => {
    if (m.kind === 'finding') options.onFinding?.(m.finding);
    else settle?.(m.result);
  });
  worker.once('error', (e) => failed?.(e));
  const post = (m: ToThread) => worker.postMessage(m);
  const judgedBytes = () => Number(Atomics.load(judged, 0));
  const backlog = () => posted - judgedBytes();
  return {
    observe(entry) {
      const key = sessionKey(entry);
      const waiting = backlog();
      // Caught up: the clients shed are judged again from their next exchange on.
      if ((shed.size > 0 || shedAll) && waiting <= maxBacklog / 4) {
        shed.clear();
        shedAll = false;
      }
      if (shedAll || shed.has(key)) {
        shedExchanges++;
        return;
      }
      const { request, response } = entry.exchange;
      const bytes = sizeOf(request, response);
      if (waiting + bytes > maxBacklog) {
        // Behind: this client goes unjudged, whole, until the judge catches up; relaying goes on.
        if (shed.size >= MAX_SHED_CLIENTS) shedAll = true;
        else shed.add(key);
        if (everShed.size < MAX_SHED_CLIENTS) everShed.add(key);
        shedExchanges++;
        post({ kind: 'forget', key });
        return;
      }
      posted += bytes;
      post({
        kind: 'entry',
        entry: {
          request,
          response,
          origin: entry.origin,
          source: entry.source,
          ...(entry.startedAt === undefined ? {} : { startedAt: entry.startedAt }),
          ...(entry.durationMs === undefined ? {} : { durationMs: entry.durationMs }),
          ...(entry.truncated === undefined ? {} : { truncated: entry.truncated }),
          ...(entry.undecodable === undefined ? {} : { undecodable: entry.undecodable }),
        },
      });
    },
    note: (note) => post({ kind: 'note', note }),
    backlog,
    async finish() {
      post({ kind: 'finish' });
      try {
        const result = await done;
        const clients = everShed.size;
        return shedExchanges === 0 ? result : { ...result, shed: { exchanges: shedExchanges + (result.shed?.exchanges ?? 0), clients: clients + (result.shed?.clients ?? 0) } };
      } finally {
        await worker.terminate();
      }
    },
  };
}

/** What an entry's texts weigh, as the backlog counts them. */
function sizeOf(request: TargetRequest, response: TargetResponse): number {
  return 256 + request.url.length + (request.body?.length ?? 0) + response.body.length;
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const data = workerData as { complete: boolean; findings: boolean; judged: BigInt64Array; expect: readonly string[] };
  const judge = createTrafficJudge({
    complete: data.complete,
    expect: data.expect,
    ...(data.findings ? { onFinding: (finding: Finding) => port.postMessage({ kind: 'finding', finding } satisfies FromThread) } : {}),
  });
  let total = 0;
  port.on('message', (m: ToThread) => {
    if (m.kind === 'entry') {
      const { request, response, ...rest } = m.entry;
      judge.observe({ ...rest, exchange: toExchange(request, response) });
      total += sizeOf(request, response);
      Atomics.store(data.judged, 0, BigInt(total));
    } else if (m.kind === 'forget') judge.forget(m.key);
    else if (m.kind === 'note') judge.note(m.note);
    else port.postMessage({ kind: 'result', result: judge.finish() } satisfies FromThread);
  });
}
