/**
 * A judging proxy in one call, for `commerce-sim proxy` and for a user's own test suite: the relay
 * (./relay.ts) in front of a base URL or a `startSimulator()` instance, every exchange handed to a
 * traffic judge off the request path and, optionally, written to a HAR file. In front of a simulator the
 * judge has ground truth and the traffic is complete (only the proxy reaches it). Findings never change
 * an answer; `annotate` adds one bounded header naming the rules an exchange failed.
 */
import type { StartedSimulator } from '../../kit/start-simulator.js';
import { simulatorTruth } from '../sessions/ground-truth.js';
import { COMPLETE_MARK } from '../har/format.js';
import { openHarWriter, type HarWriter } from '../har/write.js';
import { createTrafficJudge, type Finding, type TrafficJudge, type TrafficResult } from '../judge/judge.js';
import { startJudgeThread } from './judge-thread.js';
import { startRelay, type Relay } from '../relay/relay.js';

export interface JudgingProxyOptions {
  /** A base URL (http or https), or a simulator started with `startSimulator()`. */
  readonly upstream: string | StartedSimulator;
  /** Default 0 (a free port); the CLI's default is 4748. */
  readonly port?: number;
  readonly host?: string;
  /** Write every relayed exchange, secrets redacted, to this HAR file. */
  readonly har?: string;
  /** Add `x-commerce-sim-findings` to answers whose exchange failed a rule (the answer is then buffered). */
  readonly annotate?: boolean;
  /** The traffic holds every request the upstream received (default: true in front of a simulator, false otherwise). */
  readonly complete?: boolean;
  /** Each finding as it is made. */
  readonly onFinding?: (finding: Finding) => void;
  /** Upstream unreachable or too slow: each note as it happens (the result holds them too). */
  readonly onInfra?: (note: { readonly kind: string; readonly message: string; readonly at: string }) => void;
  /** Each relayed exchange, after the judge saw it (the CLI counts them for `--requests`). */
  readonly onRelayed?: (count: number) => void;
  readonly timeoutMs?: number;
  readonly rejectUnauthorized?: boolean;
  /** In front of a URL: text handed to the judge's thread and not yet judged, at most (default 32 MiB); past it whole clients go unjudged until it catches up. */
  readonly maxBacklogBytes?: number;
  /** Client rules whose every finding is deliberate (a negative test suite behind the proxy): counted apart, never failures. */
  readonly expect?: readonly string[];
}

export interface JudgingProxy {
  /** Where clients send their requests, e.g. `http://127.0.0.1:4748`. */
  readonly url: string;
  /** Where the judge runs: a worker thread (in front of a URL, without --annotate), or the relay's own thread. */
  readonly judging: 'thread' | 'inline';
  /** Exchanges relayed and judged so far. */
  readonly relayed: number;
  /** Bytes of exchanges handed to the judge's thread and not judged yet (0 when the judge runs inline). */
  pending(): number;
  /** Stops relaying (answers in flight are finished), closes the HAR, ends every walk and returns the judge's result. */
  close(): Promise<TrafficResult>;
}

export async function startJudgingProxy(options: JudgingProxyOptions): Promise<JudgingProxy> {
  const sim = typeof options.upstream === 'string' ? undefined : options.upstream;
  const upstream = sim === undefined ? (options.upstream as string) : sim.baseUrl;
  let current: string[] | undefined;
  // In front of the simulator the traffic is complete, unless the simulator changes its own data (a dataset's
  // adversity: updates, inserts, deletes between reads, a consistency window): a writer no traffic shows.
  const selfChanging = () => sim?.simulator.project(sim.clientId).changesItself() === true;
  const complete = options.complete ?? (sim === undefined ? false : () => !selfChanging());
  const annotate = options.annotate === true;
  // In front of a URL the judge runs in a worker thread: judging never holds the relay's event loop. The
  // simulator's ground truth and --annotate (an answer waits for its verdict) keep it on this thread.
  const threaded =
    sim === undefined && !annotate
      ? startJudgeThread({
          complete: options.complete === true,
          ...(options.expect === undefined ? {} : { expect: options.expect }),
          ...(options.onFinding === undefined ? {} : { onFinding: options.onFinding }),
          ...(options.maxBacklogBytes === undefined ? {} : { maxBacklogBytes: options.maxBacklogBytes }),
        })
      : undefined;
  const truth = sim === undefined ? undefined : simulatorTruth(sim.simulator, sim.clientId);
  const judge = createTrafficJudge({
    complete,
    ...(options.expect === undefined ? {} : { expect: options.expect }),
    ...(truth === undefined ? {} : { groundTruth: truth }),
    onFinding: (f) => {
      if (f.status === 'fail') current?.push(f.ruleId);
      options.onFinding?.(f);
    },
  });
  const har: HarWriter | undefined =
    options.har === undefined
      ? undefined
      : await openHarWriter(options.har, {
          creator: { name: 'commerce-sim proxy', version: '1', ...(sim === undefined || selfChanging() ? {} : { comment: COMPLETE_MARK }) },
          ...(sim === undefined ? {} : { secrets: [sim.token, sim.adminToken] }),
        });
  let relayed = 0;
  let writes: Promise<void> = Promise.resolve();
  const observe = (entry: Parameters<TrafficJudge['observe']>[0]) => {
    current = [];
    try {
      judge.observe(entry);
      return current;
    } finally {
      current = undefined;
    }
  };
  const relay: Relay = await startRelay({
    upstream,
    port: options.port ?? 0,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: options.rejectUnauthorized }),
    ...(truth === undefined ? {} : { stamp: () => truth.clock() }),
    ...(annotate
      ? {
          annotate: (entry) => {
            const failed = observe(entry);
            return failed.length === 0 ? undefined : [...new Set(failed)].join(' ');
          },
        }
      : {}),
    onExchange: (entry) => {
      if (threaded !== undefined) threaded.observe(entry);
      else if (!annotate) observe(entry);
      relayed++;
      if (har !== undefined) writes = writes.then(() => har.write(entry)).catch(() => undefined);
      options.onRelayed?.(relayed);
    },
    onInfra: (note) => {
      const n = { kind: note.kind, message: `${note.method} ${note.url}: ${note.message}`, at: note.at };
      if (threaded !== undefined) threaded.note(n);
      else judge.note(n);
      options.onInfra?.(n);
    },
  });
  let closing: Promise<TrafficResult> | undefined;
  return {
    url: relay.url,
    judging: threaded === undefined ? 'inline' : 'thread',
    get relayed() {
      return relayed;
    },
    pending: () => threaded?.backlog() ?? 0,
    close: () =>
      (closing ??= (async () => {
        await relay.close();
        await writes;
        await har?.close();
        return threaded === undefined ? judge.finish() : threaded.finish();
      })()),
  };
}
