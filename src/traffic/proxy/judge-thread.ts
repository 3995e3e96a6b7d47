/**
 * The traffic judge in a worker thread, so that judging never holds the relay's event loop: the proxy
 * hands each finished exchange over (its request and answer as text, never the parsed body) and gets the
 * findings back as they are made. Used in front of a URL; in front of the simulator the judge needs the
 * simulator's store (ground truth) and stays on the main thread. The worker is this same file.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { toExchange, type TargetRequest, type TargetResponse } from '../../port.js';
import type { TrafficEntry } from '../entry.js';
import { createTrafficJudge } from '../judge/judge.js';
import type { Finding, InfraNote, TrafficResult } from '../judge/result.js';

/** An entry as it crosses to the thread: text only. */
interface Carried {
  readonly request: TargetRequest;
  readonly response: TargetResponse;
  readonly origin: string;
  readonly startedAt?: string;
  readonly durationMs?: number;
  readonly source: string;
  readonly truncated?: true;
}

type ToThread = { readonly kind: 'entry'; readonly entry: Carried } | { readonly kind: 'note'; readonly note: InfraNote } | { readonly kind: 'finish' };
type FromThread = { readonly kind: 'finding'; readonly finding: Finding } | { readonly kind: 'result'; readonly result: TrafficResult };

export interface ThreadedJudge {
  observe(entry: TrafficEntry): void;
  note(note: InfraNote): void;
  finish(): Promise<TrafficResult>;
}

const SELF = fileURLToPath(import.meta.url);

/** A judge in a worker thread, or undefined where none can start (run from TypeScript sources, as the tests do). */
export function startJudgeThread(options: { readonly complete: boolean; readonly onFinding?: (f: Finding) => void }): ThreadedJudge | undefined {
  if (!SELF.endsWith('.js') || !existsSync(SELF)) return undefined;
  const worker = new Worker(SELF, { workerData: { complete: options.complete, findings: options.onFinding !== undefined } });
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
  return {
    observe(entry) {
      const { request, response } = entry.exchange;
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
        },
      });
    },
    note: (note) => post({ kind: 'note', note }),
    async finish() {
      post({ kind: 'finish' });
      try {
        return await done;
      } finally {
        await worker.terminate();
      }
    },
  };
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const data = workerData as { complete: boolean; findings: boolean };
  const judge = createTrafficJudge({ complete: data.complete, ...(data.findings ? { onFinding: (finding: Finding) => port.postMessage({ kind: 'finding', finding } satisfies FromThread) } : {}) });
  port.on('message', (m: ToThread) => {
    if (m.kind === 'entry') {
      const { request, response, ...rest } = m.entry;
      judge.observe({ ...rest, exchange: toExchange(request, response) });
    } else if (m.kind === 'note') judge.note(m.note);
    else port.postMessage({ kind: 'result', result: judge.finish() } satisfies FromThread);
  });
}
