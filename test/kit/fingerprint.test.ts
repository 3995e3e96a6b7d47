/**
 * A deployment's readings, learned and played back. The round trip as a property: the simulator playing
 * any combination of readings is fingerprinted, by the shipped suite and the property suites, back to
 * exactly that combination, but for the points the suite cannot observe (listed in `unobservable`). Over
 * HTTP the wire's points are seen too, `run` writes them beside its report, and `serve --readings` and
 * `startSimulator({ readings })` play that file. The seed is printed; FINGERPRINT_SEED / FINGERPRINT_RUNS.
 */
import * as fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { run } from '../../src/cli/run.js';
import { parseServeArgs, startServer } from '../../src/cli/serve.js';
import { fingerprinted } from '../../src/kit/fingerprint-target.js';
import { loadSuite } from '../../src/kit/mutation.js';
import { coveringReadings, readingsArbitrary } from '../../src/kit/readings-proof.js';
import { startSimulator } from '../../src/kit/start-simulator.js';
import { runProperties } from '../../src/properties/runner.js';
import { properties } from '../../src/properties/registry.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { fingerprintOf, observedReadings } from '../../src/rules/fingerprint.js';
import { describeReadings, READING_NAMES, withDefaults, type ReadingName } from '../../src/rules/readings.js';
import type { Scenario } from '../../src/scenarios/format.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { listen } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';
import { toExchange } from '../../src/port.js';
import { captureIo } from '../support/cli-io.js';

const SEED = Number(process.env['FINGERPRINT_SEED'] ?? 20261126);
const RUNS = Number(process.env['FINGERPRINT_RUNS'] ?? 10);

/** The points the suite cannot observe in process: the wire's (no compression or connection without one). */
const IN_PROCESS_BLIND: readonly ReadingName[] = ['compression', 'connection'];

describe('a deployment’s readings, fingerprinted', () => {
  let scenarios: Scenario[];
  beforeAll(async () => {
    scenarios = await loadSuite();
    console.log(`fingerprint round trip: seed ${SEED} (replay with FINGERPRINT_SEED=${SEED}), ${RUNS} random combinations after the covering ones`);
  });

  it('gives back exactly the combination the simulator plays, but for the points the suite cannot observe', async () => {
    const covering = coveringReadings();
    await fc.assert(
      fc.asyncProperty(readingsArbitrary, async (readings) => {
        const sim = await createSimTarget({ readings, wallClock: () => Date.UTC(2025, 0, 1) });
        const prints = fingerprinted(sim);
        try {
          await runScenarios(scenarios, { target: prints.target, ruleById, concurrency: 1 });
          await runProperties(properties, { target: prints.target, ruleById, seed: SEED, runs: 15, allowWrites: true });
        } finally {
          await sim.close();
        }
        const print = prints.result();
        const blind = IN_PROCESS_BLIND;
        const wrong = READING_NAMES.filter((n) => !blind.includes(n)).flatMap((n) => {
          const o = print[n];
          return o.kind === 'observed' && o.value === readings[n]
            ? []
            : [`${n}: played ${readings[n]}, fingerprinted ${o.kind === 'observed' ? o.value : o.kind} (${o.kind === 'not-observed' ? o.reason : o.evidence})`];
        });
        if (wrong.length > 0) throw new Error(`under ${describeReadings(readings)}:\n${wrong.join('\n')}`);
        // The points the suite cannot observe are said to be so, never guessed.
        for (const n of blind) expect(print[n].kind, n).toBe('not-observed');
      }),
      { seed: SEED, numRuns: covering.length + RUNS, examples: covering.map((r) => [r]), endOnFailure: true },
    );
  }, 600_000);

  it('says "none of the known readings" with the evidence when an answer fits none, and "not observed" with what was missing', () => {
    const page = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      toExchange({ method: 'GET', url: '/v2/accounts?page[limit]=2' }, { status: 200, headers, body: JSON.stringify(body) });
    const odd = fingerprintOf(
      [
        page({ data: [{ id: 'a-1', created_at: '2024-01-01T00:00:00.1Z' }], paging: { page: { limit: 2, offset: 0, current: 1, total: 1 }, results: { total: 1 } } }, { 'content-type': 'text/json' }),
        toExchange({ method: 'GET', url: '/v2/nowhere' }, { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'no' }) }),
      ],
      { origin: 'http://127.0.0.1:4747', wire: false },
    );
    expect(odd['meta.position']).toMatchObject({ kind: 'unknown', evidence: expect.stringContaining('page at paging.page') as unknown });
    expect(odd['timestamps.precision']).toMatchObject({ kind: 'unknown', evidence: expect.stringContaining('00.1Z') as unknown });
    expect(odd['media-type']).toMatchObject({ kind: 'unknown', evidence: expect.stringContaining('text/json') as unknown });
    expect(odd['errors.format']).toMatchObject({ kind: 'unknown', evidence: expect.stringContaining('members message') as unknown });
    expect(odd['usernames']).toMatchObject({ kind: 'not-observed', reason: expect.stringContaining('repeating a username') as unknown });
    expect(observedReadings(odd)).toEqual({ 'meta.numbers': 'number', links: 'absent', 'page.current': 'one-based', 'timestamps.placement': 'top' });
  });

  it('over HTTP: run fingerprints the wire too, writes readings.json, and serve --readings and startSimulator({ readings }) play it', async () => {
    const played = { compression: 'on-request', connection: 'close', 'media-type': 'application/vnd.api+json', 'meta.position': 'deep', 'ids.case': 'upper', usernames: 'conflict' } as const;
    const sim = new Simulator({ readings: played, wallClock: () => Date.now() });
    const server = await listen(sim, 0, '127.0.0.1');
    const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-fingerprint-'));
    try {
      const c = captureIo({ cwd: dir, env: { T: sim.issueToken('fp', 'read-write') } });
      const code = await run(
        [
          '--target',
          server.baseUrl,
          '--token-env',
          'T',
          '--allow-writes',
          '--report',
          dir,
          '--var',
          `realm_id=${sim.seededIds().realm_id}`,
          '--var',
          `user_authentication_info_id=${sim.seededIds().user_authentication_info_id}`,
          '--var',
          `password_profile_id=${sim.seededIds().password_profile_id}`,
        ],
        c.io,
      );
      expect(code, c.out()).toBe(0);
      expect(c.out()).toMatch(/readings: \d+ observed, 0 none of the known, \d+ not observed \(readings\.json\)/);
      const file = join(dir, 'latest', 'readings.json');
      const written = JSON.parse(readFileSync(file, 'utf8')) as { readings: Record<string, string>; notes: { notObserved: Record<string, string> } };
      expect(written.readings).toMatchObject(played);
      const report = readFileSync(join(dir, 'latest', 'report.md'), 'utf8');
      expect(report).toContain('## Readings observed');
      expect(report).toMatch(/\| `compression` \| `on-request` \|/);

      const options = parseServeArgs(['--port', '0', '--readings', file, '--reading', 'connection=keep-alive']);
      if (options === 'help') throw new Error('help');
      const session = await startServer(options, { cwd: dir }, () => Date.now());
      try {
        expect(session.info.readings).toEqual({ ...observedReadings(fingerprintOf([], { origin: '', wire: false })), ...withoutDefaults({ ...written.readings, connection: 'keep-alive' }) });
      } finally {
        await session.server.close();
      }
      await using started = await startSimulator({ readings: file });
      expect(started.simulator.readings).toEqual(withDefaults(written.readings));
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** The members of a choice that differ from the public API's, as serve reports them. */
function withoutDefaults(choice: Record<string, string>): Record<string, string> {
  const all = withDefaults(choice);
  const plain = withDefaults({});
  return Object.fromEntries(READING_NAMES.filter((n) => all[n] !== plain[n]).map((n) => [n, all[n]]));
}
