/**
 * Clients written from the API document alone by someone who never saw the judge (test/support/doc-clients/,
 * a second set after test/support/clients/): twelve legal clients and fourteen traps, each run through a
 * judging proxy in front of the simulator (ground truth on) under several datasets. A legal client gets no
 * documented client finding and no documented server failure, and a reader that reads everything loses
 * no record by ground truth; each trap gets exactly the findings its mistake calls for, where the data
 * gives it the occasion. What the judge made of each is in docs/guides/traffic.md ("Clients written apart from the judge").
 */
import { describe, expect, it } from 'vitest';
import { startSimulator, type StartedSimulator } from '../../src/kit/start-simulator.js';
import { startJudgingProxy } from '../../src/traffic/proxy/judging-proxy.js';
import type { TrafficResult } from '../../src/traffic/judge/judge.js';
// @ts-expect-error: plain JavaScript, written apart from the project (no types)
import { legal, traps } from '../support/doc-clients/index.mjs';

interface DocClient {
  readonly name: string;
  readonly run: (options: Record<string, unknown>) => Promise<unknown>;
  readonly collections?: readonly string[];
}

const LEGAL = legal as readonly DocClient[];
const TRAPS = traps as readonly DocClient[];
const instant = (): Promise<void> => Promise.resolve();

async function throughProxy(sim: StartedSimulator, client: DocClient): Promise<TrafficResult> {
  const proxy = await startJudgingProxy({ upstream: sim });
  try {
    await client.run({ baseUrl: proxy.url, token: sim.token, ids: sim.ids, sleep: instant, now: () => sim.simulator.project(sim.clientId).clock.now() });
  } finally {
    await proxy.close();
  }
  return proxy.close();
}

const documentedClient = (r: TrafficResult) => r.findings.filter((f) => f.party === 'client' && f.level === 'documented').map((f) => `${f.ruleId} (${f.status}): ${f.message}`);
const serverFailures = (r: TrafficResult) => r.findings.filter((f) => f.party === 'server' && f.level === 'documented' && f.status === 'fail').map((f) => `${f.ruleId}: ${f.message}`);
const lost = (r: TrafficResult) => r.walks.filter((w) => (w.truth?.never ?? 0) > 0).map((w) => `${w.label} #${w.n}: ${w.truth?.summary ?? ''}`);

const DATASETS = ['default', 'shared-timestamps', 'eventual-consistency', 'updates-during-traversal'] as const;
/** The UI grid jumps between pages by the user's choice: what it passes over is not lost. */
const READS_EVERYTHING = (c: DocClient) => c.collections !== undefined && c.name !== 'ui-grid-jumps';

describe('clients written from the document alone (second set), judged', () => {
  for (const dataset of DATASETS) {
    it(`legal clients, simulator (${dataset}): no documented client finding, no server failure, nothing lost`, async () => {
      await using sim = await startSimulator({ dataset, accounts: 240, counts: { orders: 180, files: 120 } });
      const problems: string[] = [];
      for (const client of LEGAL) {
        const r = await throughProxy(sim, client);
        for (const line of [...documentedClient(r), ...serverFailures(r)]) problems.push(`${client.name}: ${line}`);
        if (READS_EVERYTHING(client) && (dataset === 'default' || dataset === 'shared-timestamps')) for (const line of lost(r)) problems.push(`${client.name}: lost ${line}`);
        if (r.entries === 0) problems.push(`${client.name}: no traffic`);
      }
      expect(problems).toEqual([]);
    }, 240_000);
  }
});

/** What the judge owes each trap, by dataset: exactly these client rules failed (documented or assumed), and what ground truth shows. */
const TRAP_FINDINGS: Readonly<Record<string, Readonly<Record<'default' | 'shared-timestamps', { readonly fails: readonly string[]; readonly truth?: 'lost' | 'repeated' }>>>> = {
  'create-seven-char-password': { default: { fails: ['client.create.password-length'] }, 'shared-timestamps': { fails: ['client.create.password-length'] } },
  'create-seven-char-multibyte-password': { default: { fails: ['client.create.password-length'] }, 'shared-timestamps': { fails: ['client.create.password-length'] } },
  'create-hyphenated-type': { default: { fails: ['client.create.type'] }, 'shared-timestamps': { fails: ['client.create.type'] } },
  'create-without-authorization': { default: { fails: ['client.create.authorization'] }, 'shared-timestamps': { fails: ['client.create.authorization'] } },
  'create-without-password-profile-id': { default: { fails: ['client.create.fields'] }, 'shared-timestamps': { fails: ['client.create.fields'] } },
  'create-without-v2': { default: { fails: ['client.create.path'] }, 'shared-timestamps': { fails: ['client.create.path'] } },
  'create-unwrapped-fields': { default: { fails: ['client.create.body'] }, 'shared-timestamps': { fails: ['client.create.body'] } },
  // gt is the mistake wherever it is sent; it loses records only where they share timestamps.
  'walk-created-at-gt': {
    default: { fails: ['client.keyset.timestamp-ge'] },
    'shared-timestamps': { fails: ['client.keyset.shared-timestamp', 'client.keyset.timestamp-ge'], truth: 'lost' },
  },
  'keyset-unsorted-first-page': {
    default: { fails: ['client.keyset.sort-matches-filter'], truth: 'lost' },
    'shared-timestamps': { fails: ['client.keyset.sort-matches-filter'], truth: 'lost' },
  },
  'id-walk-stops-short-page': { default: { fails: ['client.keyset.id-stop'] }, 'shared-timestamps': { fails: ['client.keyset.id-stop'] } },
  'orders-offset-past-limit': { default: { fails: ['client.offset.hard-limit'] }, 'shared-timestamps': { fails: ['client.offset.hard-limit'] } },
  // Its mistake needs a page of one timestamp: without one it never makes it.
  'ge-walk-skips-tied-page': { default: { fails: [] }, 'shared-timestamps': { fails: ['client.keyset.shared-timestamp', 'client.keyset.timestamp-ge'], truth: 'lost' } },
  // Offsets of 1, 2, 3 are overlapping pages to the judge (a reader may overlap on purpose): no client rule can tell; ground truth shows the repeats.
  'offset-counted-in-pages': { default: { fails: [], truth: 'repeated' }, 'shared-timestamps': { fails: [], truth: 'repeated' } },
  // One page that asked 500 and got 100, then the client stops: it may have meant one page (a UI does), so the rule is assumed.
  'page-limit-over-maximum': { default: { fails: ['client.limit.clamped-stop'] }, 'shared-timestamps': { fails: ['client.limit.clamped-stop'] } },
};

describe('traps written from the document alone (second set), judged', () => {
  for (const dataset of ['default', 'shared-timestamps'] as const) {
    it(`each trap gets exactly the findings its mistake calls for, simulator (${dataset}, 10,200 orders)`, async () => {
      await using sim = await startSimulator({ dataset, accounts: 240, counts: { orders: 10_200, files: 120 } });
      expect(TRAPS.map((t) => t.name).sort()).toEqual(Object.keys(TRAP_FINDINGS).sort());
      const got: Record<string, { fails: string[]; truth?: 'lost' | 'repeated' }> = {};
      for (const trap of TRAPS) {
        const proxy = await startJudgingProxy({ upstream: sim });
        await trap.run({ baseUrl: proxy.url, token: sim.token, ids: sim.ids, sleep: instant, now: () => sim.simulator.project(sim.clientId).clock.now() });
        // The client goes on to something else: where it stopped is in the traffic.
        await fetch(`${proxy.url}/v2/settings`, { headers: { authorization: `Bearer ${sim.token}` } });
        const r = await proxy.close();
        const fails = [...new Set(r.findings.filter((f) => f.party === 'client' && f.status === 'fail').map((f) => f.ruleId))].sort();
        const lostAny = r.walks.some((w) => (w.truth?.never ?? 0) > 0);
        const repeatedAny = r.walks.some((w) => (w.truth?.twice ?? 0) > 0);
        got[trap.name] = { fails, ...(lostAny ? { truth: 'lost' as const } : repeatedAny ? { truth: 'repeated' as const } : {}) };
        expect(r.findings.filter((f) => f.party === 'client' && f.status === 'inconclusive').map((f) => `${trap.name}: ${f.ruleId}: ${f.message}`)).toEqual([]);
      }
      const expected = Object.fromEntries(Object.entries(TRAP_FINDINGS).map(([name, by]) => [name, { ...by[dataset], fails: [...by[dataset].fails].sort() }]));
      expect(got).toEqual(expected);
    }, 300_000);
  }
});
