/**
 * Clients written from the API document alone, by helpers who never saw the judge or its rules
 * (test/support/clients/: a browser-like back-office UI, a batch exporter, an incremental sync), put
 * through a judging proxy: in front of the simulator under several datasets (ground truth: records lost),
 * and in front of the independently written third server. None may get a documented client finding; the
 * exporter and the sync lose no record. What the judge made of each is in docs/guides/traffic.md ("Clients written apart from the judge").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { startSimulator, type StartedSimulator } from '../../src/kit/start-simulator.js';
import { startJudgingProxy } from '../../src/traffic/proxy/judging-proxy.js';
import type { TrafficResult } from '../../src/traffic/judge/judge.js';
// @ts-expect-error: plain JavaScript, written apart from the project (no types)
import { run as browserApp } from '../support/clients/browser-app.mjs';
// @ts-expect-error: plain JavaScript, written apart from the project (no types)
import { run as batchExporter } from '../support/clients/batch-exporter.mjs';
// @ts-expect-error: plain JavaScript, written apart from the project (no types)
import { sync as incrementalSync } from '../support/clients/incremental-sync.mjs';

type ClientRun = (base: string, token: string, now: () => number) => Promise<unknown>;

const instant = (): Promise<void> => Promise.resolve();

const CLIENTS: Readonly<Record<string, ClientRun>> = {
  'browser app': async (baseUrl, token) => {
    for (const sort of [undefined, 'created_at', 'name']) await browserApp({ baseUrl, token, sleep: instant, pageSize: 150, sort, clicks: 2, jumpTo: 4 });
  },
  'batch exporter': (baseUrl, token, now) => batchExporter({ baseUrl, token, sleep: instant, now, pageSize: 150 }),
  'incremental sync': async (baseUrl, token, now) => {
    const first = await incrementalSync({ baseUrl, token, sleep: instant, now, pageSize: 37 });
    await incrementalSync({ baseUrl, token, sleep: instant, now, pageSize: 37 }, first);
  },
};

const documentedClient = (r: TrafficResult) => r.findings.filter((f) => f.party === 'client' && f.level === 'documented').map((f) => `${f.ruleId} (${f.status}): ${f.message}`);
const serverFailures = (r: TrafficResult) => r.findings.filter((f) => f.party === 'server' && f.level === 'documented' && f.status === 'fail').map((f) => `${f.ruleId}: ${f.message}`);

async function throughProxy(sim: StartedSimulator, client: ClientRun): Promise<TrafficResult> {
  const proxy = await startJudgingProxy({ upstream: sim });
  try {
    await client(proxy.url, sim.token, () => sim.simulator.project(sim.clientId).clock.now());
  } finally {
    // close() is kept: the result comes back the same to every caller.
    await proxy.close();
  }
  return proxy.close();
}

describe('clients written from the document alone, judged', () => {
  for (const dataset of ['default', 'shared-timestamps', 'eventual-consistency']) {
    for (const [name, client] of Object.entries(CLIENTS)) {
      it(`${name}, simulator (${dataset}): no documented client finding, and ${name === 'browser app' ? 'a UI that stops is not failed' : 'no record lost'}`, async () => {
        await using sim = await startSimulator({ dataset, accounts: 300, counts: { orders: 120, files: 80 } });
        const r = await throughProxy(sim, client);
        expect(documentedClient(r)).toEqual([]);
        expect(serverFailures(r)).toEqual([]);
        expect(r.walks.length).toBeGreaterThan(0);
        if (name !== 'browser app') {
          expect(r.walks.filter((w) => (w.truth?.never ?? 0) > 0).map((w) => `${w.label}: ${w.truth?.summary ?? ''}`)).toEqual([]);
        }
      }, 120_000);
    }
  }

  it('the three, in front of the independently written server: no documented client finding', async () => {
    const server = await startThird();
    try {
      for (const [name, client] of Object.entries(CLIENTS)) {
        const proxy = await startJudgingProxy({ upstream: server.info.base_url });
        await client(proxy.url, server.info.token, () => Date.now());
        const r = await proxy.close();
        expect(documentedClient(r), name).toEqual([]);
        expect(r.entries, name).toBeGreaterThan(5);
      }
    } finally {
      await stop(server.child);
    }
  }, 240_000);
});

const THIRD = new URL('../support/third-server/server.mjs', import.meta.url).pathname;

async function startThird(): Promise<{ child: ChildProcess; info: { base_url: string; token: string } }> {
  const child = spawn(process.execPath, [THIRD, '--port', '0', '--seed', '7', '--reading', 'resets=off'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the third server exited with ${String(code)}`)));
  });
  return { child, info: JSON.parse(line) as { base_url: string; token: string } };
}

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
