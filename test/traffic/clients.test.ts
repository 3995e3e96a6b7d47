/**
 * The traffic judge on every legal client, as a property (test/support/legal-clients/): plans of legal
 * client behaviours drawn by fast-check, played against the simulator under every dataset and any
 * combination of readings, judged directly with ground truth or written as the HAR of a proxy, a browser,
 * Playwright or mitmproxy and read back as `check` reads it.
 * - No legal client gets a documented client finding (failure or inconclusive); on data that does not
 *   change, no legal walk that reads on contiguously loses or repeats a record by ground truth.
 * - Each documented trap, injected as one more client beside legal ones, fails its own rule and no other;
 *   nothing the legal clients sent is failed; and ground truth counts exactly what the trap lost and repeated.
 * Ground truth is taken on every run (the traffic judged directly beside the HAR a transport writes), and its
 * counts, lost and repeated, are checked on every run whose data does not change and whose ids are shown as stored.
 * Seeded; replay a failure with TRAFFIC_CLIENTS_SEED=<seed> (and TRAFFIC_CLIENTS_RUNS=<n> for more runs).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simTargetOf } from '../../src/adapters/simulator.js';
import { readingsArbitrary } from '../../src/kit/readings-proof.js';
import { describeReadings, type Readings } from '../../src/rules/readings.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { accounts } from '../../src/store/resources.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { readTraffic } from '../../src/traffic/har/read.js';
import { createTrafficJudge, type TrafficResult } from '../../src/traffic/judge/judge.js';
import { observedTarget } from '../../src/traffic/observed-target.js';
import { simulatorTruth } from '../../src/traffic/sessions/ground-truth.js';
import { HAR_SHAPES, writeHarShape, type HarShape } from '../support/legal-clients/har-shapes.js';
import { describePlan, planArbitrary, TRAP_RULES, trapArbitrary, type Plan, type Trap } from '../support/legal-clients/plan.js';
import { play, type ActivityLog } from '../support/legal-clients/run.js';
import { caseSimulator } from '../support/legal-clients/simulator.js';

const SEED = Number(process.env['TRAFFIC_CLIENTS_SEED'] ?? 20261126);
const RUNS = Number(process.env['TRAFFIC_CLIENTS_RUNS'] ?? 60);
const DATASETS = ['default', 'shared-timestamps', 'updates-during-traversal', 'eventual-consistency', 'hostile'] as const;
const STATIC: readonly string[] = ['default', 'shared-timestamps'];
type Transport = 'direct' | HarShape;

interface Case {
  readonly plan: Plan;
  readonly dataset: (typeof DATASETS)[number];
  readonly readings: Readings | undefined;
  readonly transport: Transport;
  readonly seed: number;
}

const caseArbitrary = (plan: fc.Arbitrary<Plan>): fc.Arbitrary<Case> =>
  fc.record({
    plan,
    dataset: fc.constantFrom(...DATASETS),
    readings: fc.option(readingsArbitrary, { nil: undefined, freq: 2 }),
    transport: fc.constantFrom<Transport>('direct', 'direct', ...HAR_SHAPES),
    seed: fc.integer({ min: 1, max: 1_000 }),
  });

/**
 * Plays the plan (and trap) against a fresh simulator; judges the traffic as the case's transport says,
 * and directly with ground truth (`truth`: the same judge when the transport is direct).
 */
async function judged(c: Case, trap?: Trap): Promise<{ result: TrafficResult; truth: TrafficResult; logs: ActivityLog[]; sim: Simulator; sent: Map<string, TrafficEntry> }> {
  const sim = await caseSimulator(c, trap);
  const truth = simulatorTruth(sim);
  const direct = c.transport === 'direct';
  const judge = createTrafficJudge({ complete: true, groundTruth: truth });
  const entries: TrafficEntry[] = [];
  const sent = new Map<string, TrafficEntry>();
  const current: { log: ActivityLog | undefined } = { log: undefined };
  let wall = Date.UTC(2026, 0, 1);
  const target = observedTarget(
    simTargetOf(sim),
    (e) => {
      current.log?.sources.push(e.source);
      sent.set(e.source, e);
      judge.observe(e);
      if (!direct) entries.push(e);
    },
    { now: () => wall, stamp: () => truth.clock() },
  );
  const tokens = Array.from({ length: c.plan.clients.length + 1 }, () => sim.issueToken(DEFAULT_CLIENT_ID, 'read-write'));
  const sleep = (ms: number) => {
    wall += ms;
    return Promise.resolve();
  };
  const logs = await play(c.plan, { target, tokens, now: () => sim.project(DEFAULT_CLIENT_ID).clock.now(), sleep, current, ids: sim.seededIds() }, trap);
  const withTruth = judge.finish();
  if (direct) return { result: withTruth, truth: withTruth, logs, sim, sent };
  const dir = await mkdtemp(join(tmpdir(), 'legal-clients-'));
  try {
    const file = await writeHarShape(dir, entries, c.transport as HarShape);
    const fromHar = createTrafficJudge({ complete: true });
    for await (const e of readTraffic(file)) fromHar.observe(e);
    return { result: fromHar.finish(), truth: withTruth, logs, sim, sent };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const documentedClient = (r: TrafficResult) => r.findings.filter((f) => f.party === 'client' && f.level === 'documented');
const shown = (c: Case, trap?: Trap) =>
  `dataset ${c.dataset}, seed ${c.seed}, ${c.transport}, readings ${c.readings === undefined ? 'default' : describeReadings(c.readings)}\n  ${describePlan(c.plan, trap)}`;

/**
 * Ids shown as the store holds them. Ground truth reads a page's ids as stored ids: under a reading that
 * shows them otherwise (prefixed, numeric, upper-case) it finds none of a walk's records ("243 visible, 0
 * received once, 243 never" for a legal walk), a gap of ground truth left to its owner; its counts are
 * checked where ids are shown as stored.
 */
const idsAsStored = (c: Case, label = 'accounts'): boolean =>
  c.readings === undefined || (c.readings['ids.case'] === 'lower' && (c.readings['ids.format'] === 'uuid' || (c.readings['ids.format'] === 'per-collection' && label.startsWith('accounts'))));

/** Where the HAR reader numbers entries its own way, a source is its position: the n-th request of the traffic. */
const positionOf = (source: string): number => Number(/(\d+)$/.exec(source)?.[1] ?? Number.NaN);

describe('the traffic judge on legal clients', () => {
  it('gives no legal client a documented finding, and ground truth shows no loss or repeat on unchanging data', async () => {
    console.log(`legal clients property: seed ${SEED}, ${RUNS} runs (replay with TRAFFIC_CLIENTS_SEED=${SEED})`);
    await fc.assert(
      fc.asyncProperty(caseArbitrary(planArbitrary), async (c) => {
        const { result, truth, logs } = await judged(c);
        const found = documentedClient(result);
        if (found.length > 0) throw new Error(`documented client findings on legal clients (${shown(c)}):\n${found.map((f) => `  ${f.ruleId} (${f.status}): ${f.message}`).join('\n')}`);
        // Ground truth judged every walk of the collection it knows.
        expect(
          truth.walks.filter((w) => w.truth === undefined).map((w) => w.label),
          shown(c),
        ).toEqual([]);
        if (!STATIC.includes(c.dataset) || !idsAsStored(c)) return;
        // A walk that reads on without jumping neither loses nor repeats a record (jumps and a grid's pages skip pages by the user's choice).
        const contiguous = new Set(logs.filter((l) => l.kind !== 'jumps' && l.kind !== 'grid').flatMap((l) => l.sources));
        // Per collection: under ids.format=per-collection only accounts keep the stored form. A repeat is excused where
        // a record was created or deleted during an offset walk (§4.3: offsets over changing data may repeat).
        const wrong = truth.walks.filter((w) => contiguous.has(w.from) && idsAsStored(c, w.label) && ((w.truth?.never ?? 0) > 0 || ((w.truth?.twice ?? 0) > 0 && (w.truth?.excused ?? 0) === 0)));
        expect(
          wrong.map((w) => `${w.label}: ${w.truth?.summary ?? ''}`),
          shown(c),
        ).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 600_000);

  it('fails each documented trap, injected beside legal clients, by its own rule; ground truth counts what it lost and repeated', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary(planArbitrary), trapArbitrary, async (c, trap) => {
        const { result, truth, logs, sim, sent } = await judged(c, trap);
        const log = logs.find((l) => l.kind === `trap ${trap.kind}`);
        // The data must give the trap its occasion (a second page, a short page, a page granted less than asked).
        fc.pre(log?.committed === true);
        const rules = trapRules(
          trap,
          (log?.sources ?? []).map((source) => sent.get(source)?.exchange.response.body ?? ''),
        );
        const mine = new Set((log?.sources ?? []).map(positionOf));
        const fails = documentedClient(result).filter((f) => f.status === 'fail');
        // Its own rule, and no other.
        expect([...new Set(fails.map((f) => f.ruleId))], shown(c, trap)).toEqual(rules);
        // Every documented failure rests on the trap's own requests.
        const strays = fails.filter((f) => f.evidence.some((e) => !mine.has(positionOf(e))));
        expect(
          strays.map((f) => `${f.ruleId}: ${f.message}`),
          shown(c, trap),
        ).toEqual([]);
        if (!STATIC.includes(c.dataset) || !idsAsStored(c) || log === undefined || trap.kind === 'hard-offset') return;
        const walk = truth.walks.filter((w) => mine.has(positionOf(w.from))).sort((a, b) => b.pages - a.pages)[0];
        expect(walk?.truth, shown(c, trap)).toMatchObject(expectedTruth(log, sim, trap));
      }),
      { seed: SEED + 1, numRuns: RUNS, endOnFailure: true },
    );
  }, 600_000);
});

/**
 * The rules a trap breaks, from the answers it got (`bodies`, in order): its own; and a gt step after a
 * full page whose records all share the value carried (§4.3's shared timestamps) breaks the shared-timestamp
 * rule too.
 */
function trapRules(trap: Trap, bodies: readonly string[]): string[] {
  const own = TRAP_RULES[trap.kind];
  if (trap.kind !== 'gt-timestamp') return [own];
  /** The page's records' values of the trap's field, wherever the deployment shows timestamps (meta.timestamps, meta, beside id, attributes). */
  const values = (body: string): string[] => {
    const data = (JSON.parse(body) as { data?: Record<string, unknown>[] }).data ?? [];
    const at = (r: unknown, k: string): Record<string, unknown> =>
      typeof r === 'object' && r !== null && typeof (r as Record<string, unknown>)[k] === 'object' ? ((r as Record<string, unknown>)[k] as Record<string, unknown>) : {};
    return data.map((r) => {
      const v = at(at(r, 'meta'), 'timestamps')[trap.field] ?? at(r, 'meta')[trap.field] ?? r[trap.field] ?? at(r, 'attributes')[trap.field];
      if (typeof v !== 'string') throw new Error(`no ${trap.field} in ${JSON.stringify(r)}`);
      return v;
    });
  };
  // Every page but the last was followed by a gt step.
  const uniformThenGt = bodies.slice(0, -1).some((body) => {
    const v = values(body);
    return v.length === trap.limit && v.length >= 2 && v[0] === v.at(-1);
  });
  return uniformThenGt ? [own, 'client.keyset.shared-timestamp'] : [own];
}

/**
 * What the trapped walk lost and repeated, worked out from the client's own log and the store (the data
 * does not change but for the legal clients' creates): a record never received was lost when the walk read to its end, or when it lies
 * before the furthest record received, in the walk's order (by id for the keyset traps).
 */
function expectedTruth(log: ActivityLog, sim: Simulator, trap: Trap): { never: number; twice: number } {
  // The legal clients' creates after the walk began came during it: not records it should have met.
  const all = [...sim.project(DEFAULT_CLIENT_ID).list(accounts).values()].filter((r) => r.createdMs <= (log.startedAt ?? 0)).map((r) => r.id);
  const twice = [...log.received.values()].filter((n) => n >= 2).length;
  const missing = all.filter((id) => !log.received.has(id));
  if (log.reachedEnd) return { never: missing.length, twice };
  const byId = trap.kind === 'unsorted-keyset' || trap.kind === 'id-short-stop';
  if (!byId) throw new Error(`a ${trap.kind} trap that did not read to its end`);
  const furthest = [...log.received.keys()].sort().at(-1) ?? '';
  return { never: missing.filter((id) => id < furthest).length, twice };
}
