/**
 * A fixed corpus of traffic and what the traffic judge makes of it, for the verdicts-unchanged guard
 * (test/traffic/verdicts-unchanged.test.ts). Everything is played in process against seeded simulators with
 * virtual clocks, so the same code gives the same traffic byte for byte:
 * - the shipped suite, judged as marked, unmarked (its deliberate requests become client failures), read
 *   back from the proxy's HAR, and in front of simulators deviating from documented rules;
 * - seeded plans of legal clients, each with a documented trap beside them (test/support/legal-clients/),
 *   judged with ground truth;
 * - the clients and traps written from the document alone (test/support/doc-clients/), through a fetch
 *   that reaches the simulator in process, with ground truth.
 * A result is summarised as plain data: every finding (rule, level, party, status, message, expected,
 * actual, walk, evidence and a digest of the redacted exchanges), the tallies, the walks with ground truth,
 * deliberate counts, infrastructure notes.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { simTargetOf } from '../../src/adapters/simulator.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { readingsArbitrary } from '../../src/kit/readings-proof.js';
import { TargetError, type Target } from '../../src/port.js';
import { ruleById } from '../../src/rules/catalogue.js';
import type { RuleId } from '../../src/rules/ids.js';
import type { Readings } from '../../src/rules/readings.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { resolveDataset } from '../../src/store/adversity-profiles.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { readTraffic } from '../../src/traffic/har/read.js';
import { caseSimulator } from './legal-clients/simulator.js';
import { createTrafficJudge, judgeTraffic, type TrafficJudgeOptions, type TrafficResult } from '../../src/traffic/judge/judge.js';
import { observedTarget } from '../../src/traffic/observed-target.js';
import { simulatorTruth } from '../../src/traffic/sessions/ground-truth.js';
// @ts-expect-error: plain JavaScript, written apart from the project (no types)
import { legal as docLegal, traps as docTraps } from './doc-clients/index.mjs';
import { writeHarShape } from './legal-clients/har-shapes.js';
import { planArbitrary, trapArbitrary, type Plan, type Trap } from './legal-clients/plan.js';
import { play } from './legal-clients/run.js';

/** A judged result as the baseline keeps it. */
export type Summary = Record<string, unknown>;

const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

export function summarise(r: TrafficResult): Summary {
  return {
    entries: r.entries,
    clients: r.clients,
    complete: r.complete,
    findings: r.findings.map((f) => ({
      ruleId: f.ruleId,
      level: f.level,
      party: f.party,
      status: f.status,
      message: f.message,
      ...(f.status !== 'fail' || f.expected === undefined ? {} : { expected: f.expected }),
      ...(f.status !== 'fail' || f.actual === undefined ? {} : { actual: f.actual }),
      ...(f.walk === undefined ? {} : { walk: f.walk }),
      evidence: f.evidence,
      exchanges: digest(f.exchanges),
    })),
    // passed/failed/inconclusive/skipped, one short string a rule.
    tallies: Object.fromEntries([...r.tallies.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, t]) => [id, `${t.passed}/${t.failed}/${t.inconclusive}/${t.skipped}`])),
    walks: r.walks,
    walksTotal: r.walksTotal,
    infrastructure: r.infrastructure,
    ...(r.shed === undefined ? {} : { shed: r.shed }),
    ...(r.deliberate === undefined ? {} : { deliberate: { byRule: Object.fromEntries(r.deliberate.byRule), kept: r.deliberate.kept } }),
  };
}

/** A wall clock that moves only when a client sleeps (and a millisecond per request, so waits are measurable). */
class VirtualWall {
  t = Date.UTC(2026, 0, 1);
  readonly now = (): number => this.t++;
  readonly sleep = (ms: number): Promise<void> => {
    this.t += ms;
    return Promise.resolve();
  };
}

const WALL = Date.UTC(2025, 5, 1);

/** The shipped suite's traffic against a simulator (deviating from `deviate`). */
async function suiteTraffic(deviate: readonly RuleId[] = []): Promise<TrafficEntry[]> {
  const sim = new Simulator({ deviate, wallClock: () => WALL });
  const wall = new VirtualWall();
  const entries: TrafficEntry[] = [];
  const target = observedTarget(simTargetOf(sim), (e) => entries.push(e), { now: wall.now });
  await runScenarios(await loadSuite(), { target, ruleById, concurrency: 1, allowWrites: true });
  return entries;
}

const unmarked = (entries: readonly TrafficEntry[]): TrafficEntry[] =>
  entries.map((e) => {
    const { 'x-commerce-sim-expect': _gone, ...headers } = e.exchange.request.headers ?? {};
    return { ...e, exchange: { ...e.exchange, request: { ...e.exchange.request, headers } } };
  });

/** `entries` written as the proxy writes its HAR and read back as `check` reads it. */
async function throughHar(entries: readonly TrafficEntry[], options: TrafficJudgeOptions): Promise<TrafficResult> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-corpus-'));
  try {
    const file = await writeHarShape(dir, entries, 'proxy');
    return await judgeTraffic(readTraffic(file), options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Deviations judged on the suite's traffic: one per family of rules the judge holds (exchange, walk, session scope). */
const CORPUS_DEVIATIONS: readonly RuleId[] = [
  'pagination.meta.present',
  'pagination.limit.default',
  'pagination.limit.max',
  'pagination.page.total',
  'pagination.offset.records',
  'sort.ascending',
  'filter.gt',
  'filter.ge',
  'large-data.keyset.timestamp',
  'large-data.deletes-invisible',
  'auth.required',
  'create.password.not-returned',
];

export async function suiteCorpus(): Promise<Record<string, Summary>> {
  const out: Record<string, Summary> = {};
  const entries = await suiteTraffic();
  out['suite'] = summarise(await judgeTraffic(entries, { complete: true }));
  out['suite unmarked'] = summarise(await judgeTraffic(unmarked(entries), { complete: true }));
  out['suite from its HAR, incomplete'] = summarise(await throughHar(entries, {}));
  out['suite, small budget'] = summarise(await judgeTraffic(entries, { complete: true, maxHeldBytes: 256 * 1024 }));
  for (const id of CORPUS_DEVIATIONS) out[`suite --deviate ${id}`] = summarise(await judgeTraffic(await suiteTraffic([id]), { complete: true }));
  return out;
}

const DATASETS = ['default', 'shared-timestamps', 'updates-during-traversal', 'eventual-consistency', 'hostile'] as const;

interface Case {
  readonly plan: Plan;
  readonly trap: Trap;
  readonly dataset: (typeof DATASETS)[number];
  readonly readings: Readings | undefined;
  readonly seed: number;
}

/** Seeded plans of legal clients, each with a trap beside them, played and judged with ground truth. */
export async function legalClientsCorpus(runs: number, seed = 20260601): Promise<Record<string, Summary>> {
  const cases = fc.sample(
    fc.record({
      plan: planArbitrary,
      trap: trapArbitrary,
      dataset: fc.constantFrom(...DATASETS),
      readings: fc.option(readingsArbitrary, { nil: undefined, freq: 2 }),
      seed: fc.integer({ min: 1, max: 1_000 }),
    }),
    { seed, numRuns: runs },
  ) as Case[];
  const out: Record<string, Summary> = {};
  for (const [i, c] of cases.entries()) {
    const sim = await caseSimulator(c, c.trap);
    const truth = simulatorTruth(sim);
    const judge = createTrafficJudge({ complete: true, groundTruth: truth });
    const wall = new VirtualWall();
    const current = { log: undefined };
    const target = observedTarget(simTargetOf(sim), (e) => judge.observe(e), { now: wall.now, stamp: () => truth.clock() });
    const tokens = Array.from({ length: c.plan.clients.length + 1 }, () => sim.issueToken(DEFAULT_CLIENT_ID, 'read-write'));
    await play(c.plan, { target, tokens, now: () => sim.project(DEFAULT_CLIENT_ID).clock.now(), sleep: wall.sleep, current, ids: sim.seededIds() }, c.trap);
    out[`legal clients #${i} (${c.dataset}, trap ${c.trap.kind})`] = summarise(judge.finish());
  }
  return out;
}

interface DocClient {
  readonly name: string;
  readonly run: (options: Record<string, unknown>) => Promise<unknown>;
}

/** A fetch that reaches `target` in process whatever the URL's origin (links name the simulator's own), as the doc clients call it. */
function fetchOf(target: Target): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const body = typeof init?.body === 'string' ? init.body : undefined;
    const path = `${url.pathname}${url.search}`;
    try {
      const r = await target.send({
        method: init?.method ?? 'GET',
        url: path,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(headers['authorization'] === undefined ? { auth: 'none' as const } : {}),
      });
      return new Response(r.status === 204 || r.status === 304 ? null : r.body, { status: r.status, headers: r.headers });
    } catch (error) {
      if (error instanceof TargetError) throw new TypeError('fetch failed', { cause: error });
      throw error;
    }
  }) as typeof fetch;
}

/** Headers of one connection, left out of what the target is sent: the same request on another port is the same request. */
const HOP: ReadonlySet<string> = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

/**
 * A loopback HTTP server in front of `target` (the doc clients that speak node:http): one request at a time,
 * as the clients send them; an injected reset or cut closes the socket. The simulator keeps its own base URL
 * in what it answers, so the traffic does not depend on the port.
 */
async function serverOf(target: Target): Promise<{ url: string; close(): Promise<void> }> {
  const body = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  const server = createServer((req, res) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const text = await body(req);
      try {
        const r = await target.send({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers,
          ...(text === '' ? {} : { body: text }),
          ...(headers['authorization'] === undefined ? { auth: 'none' as const } : {}),
        });
        res.writeHead(r.status, r.headers);
        res.end(r.body);
      } catch {
        req.socket.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The clients and traps written from the document alone, each its own traffic, judged with ground truth. */
export async function docClientsCorpus(): Promise<Record<string, Summary>> {
  const out: Record<string, Summary> = {};
  for (const dataset of ['default', 'shared-timestamps'] as const) {
    for (const [kind, clients] of [
      ['legal', docLegal as readonly DocClient[]],
      ['trap', docTraps as readonly DocClient[]],
    ] as const) {
      for (const client of clients) {
        const resolved = await resolveDataset(dataset);
        const sim = new Simulator({
          seed: 7,
          profile: resolved.profile,
          counts: { ...(resolved.counts ?? {}), accounts: 240, orders: kind === 'trap' ? 10_200 : 180, files: 120 },
          adversity: resolved.adversity,
          wallClock: () => WALL,
        });
        const truth = simulatorTruth(sim);
        const judge = createTrafficJudge({ complete: true, groundTruth: truth });
        const wall = new VirtualWall();
        const target = observedTarget(simTargetOf(sim), (e) => judge.observe(e), { now: wall.now, stamp: () => truth.clock() });
        const server = await serverOf(target);
        const token = sim.issueToken(DEFAULT_CLIENT_ID, 'read-write');
        const f = fetchOf(target);
        try {
          await client.run({ baseUrl: server.url, token, ids: sim.seededIds(), sleep: wall.sleep, now: () => sim.project(DEFAULT_CLIENT_ID).clock.now(), fetch: f });
          // The client goes on to something else: where it stopped is in the traffic.
          await f(`${server.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } });
        } finally {
          await server.close();
        }
        out[`doc ${kind} ${client.name} (${dataset})`] = summarise(judge.finish());
      }
    }
  }
  return out;
}
