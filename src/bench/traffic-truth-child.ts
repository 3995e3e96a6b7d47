/**
 * Child process of the bench's traffic section: the judge's ground truth over a large simulator. A
 * simulator of `count` accounts (argv[2]), a judge with `simulatorTruth(sim)`, and 100 clients (100
 * tokens of the one client id, so 100 sessions) each walking by id from its own starting id, 20 pages of
 * 100, interleaved: every walk is open at once. Each exchange is `sim.handle`'s answer, observed as the
 * proxy would hand it over. Sends the figures: RSS, peak RSS, and what the walks' start and end passes
 * over the records (ground-truth.ts) cost.
 */
import { performance } from 'node:perf_hooks';
import { isListRecord } from '../client/records.js';
import { isJsonObject } from '../engine/json.js';
import { toExchange, type TargetRequest } from '../port.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../sim/simulator.js';
import { accounts } from '../store/resources.js';
import { simulatorTruth, type GroundTruth } from '../traffic/sessions/ground-truth.js';
import { createTrafficJudge } from '../traffic/judge/judge.js';

export interface TruthFigures {
  readonly count: number;
  readonly walks: number;
  readonly pages: number;
  /** RSS after a full collection with the simulator built and its id index made, before any walk. */
  readonly simRssMiB: number;
  /** Peak RSS of the process before the first walk (building the simulator), and at the end. */
  readonly peakBeforeMiB: number;
  readonly peakMiB: number;
  /** ms of each walk's start pass and end pass (records matching and visible). */
  readonly startMs: readonly number[];
  readonly endMs: readonly number[];
  /** ms of all observe() and finish() calls, passes included. */
  readonly judgeMs: number;
  /** Walks the result gives a ground-truth count for, and one of them. */
  readonly counted: number;
  readonly example: string;
}

const WALKS = 100;
const PAGES = 20;
const count = Number(process.argv[2] ?? 1_000_000);
const MiB = 2 ** 20;
const gc = (globalThis as { gc?: () => void }).gc;

/** `inner`, with each walk's start and end pass timed into `startMs` and `endMs`. */
function timed(inner: GroundTruth, startMs: number[], endMs: number[]): GroundTruth {
  return {
    clock: () => inner.clock(),
    startWalk(read, entry) {
      const t = performance.now();
      const tracker = inner.startWalk(read, entry);
      startMs.push(performance.now() - t);
      return {
        page: (ex, r, e) => tracker.page(ex, r, e),
        also: (ex) => tracker.also(ex),
        finish(end) {
          const t2 = performance.now();
          const truth = tracker.finish(end);
          endMs.push(performance.now() - t2);
          return truth;
        },
      };
    },
  };
}

const sim = new Simulator({ seed: 42, accounts: count, wallClock: () => Date.now() });
const ids = sim.project(DEFAULT_CLIENT_ID).list(accounts).index('id', 'asc');
const tokens = Array.from({ length: WALKS }, () => sim.issueToken(DEFAULT_CLIENT_ID, 'read-only'));
// Walk k starts at the k-th hundredth of the ids: the walks read different records.
const cursors: (string | undefined)[] = Array.from({ length: WALKS }, (_, k) => ids[Math.floor((k * ids.length) / WALKS)]?.id);
gc?.();
const simRssMiB = process.memoryUsage().rss / MiB;
const peakBeforeMiB = process.resourceUsage().maxRSS / 1024;

const startMs: number[] = [];
const endMs: number[] = [];
const judge = createTrafficJudge({ complete: true, groundTruth: timed(simulatorTruth(sim), startMs, endMs) });
let judgeMs = 0;
let pages = 0;
for (let p = 0; p < PAGES; p++) {
  for (let k = 0; k < WALKS; k++) {
    const request: TargetRequest = {
      method: 'GET',
      url: `/v2/accounts?sort=id&page[limit]=100&filter=gt(id,${cursors[k] ?? ''})`,
      headers: { authorization: `Bearer ${tokens[k] ?? ''}` },
    };
    const startedAt = new Date().toISOString();
    const res = sim.handle({ method: request.method, url: request.url, headers: { ...request.headers }, body: '' });
    const exchange = toExchange(request, { status: res.status, headers: res.headers, body: res.body });
    const body = exchange.json;
    const data = isJsonObject(body) && Array.isArray(body['data']) ? body['data'].filter(isListRecord) : [];
    cursors[k] = data[data.length - 1]?.id ?? cursors[k];
    const t = performance.now();
    judge.observe({ exchange, origin: 'http://sim', startedAt, source: `walk ${k + 1} page ${p + 1}` });
    judgeMs += performance.now() - t;
    pages++;
  }
}
const t = performance.now();
const result = judge.finish();
judgeMs += performance.now() - t;
const counted = result.walks.filter((w) => w.truth !== undefined);
const figures: TruthFigures = {
  count,
  walks: result.walksTotal,
  pages,
  simRssMiB,
  peakBeforeMiB,
  peakMiB: process.resourceUsage().maxRSS / 1024,
  startMs,
  endMs,
  judgeMs,
  counted: counted.length,
  example: counted[0]?.truth?.summary ?? '',
};
process.send?.(figures);
process.disconnect?.();
