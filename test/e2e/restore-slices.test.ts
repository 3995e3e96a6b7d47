/**
 * A served restore runs in slices (issue 28): the body is parsed, checked, loaded and indexed a few
 * thousand values or records a step, between other requests, which see the current state until the
 * swap; and what it restores is byte for byte what the same restore in process restores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/sim/server.js';
import { Simulator, type SimulatorOptions } from '../../src/sim/simulator.js';
import type { Steps } from '../../src/store/steps.js';

const FIXED_NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const OPTIONS: SimulatorOptions = { seed: 42, accounts: 100, wallClock: () => FIXED_NOW, tokenKey: 'restore-slices-key-0123456789' };
const WRITTEN = 40_000;

/** A snapshot of OPTIONS' simulator holding WRITTEN accounts written by its default client, and a changed setting. */
function bigSnapshot(): string {
  const sim = new Simulator(OPTIONS);
  const token = sim.issueToken('writer', 'read-write');
  const created = sim.handle({
    method: 'POST',
    url: '/v2/accounts',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { type: 'account', name: 'First' } }),
  });
  expect(created.status).toBe(201);
  const snap = JSON.parse(sim.handle({ method: 'GET', url: '/__sim/snapshot', headers: { authorization: `Bearer ${sim.adminToken}` }, body: '' }).body) as {
    projects: { clientId: string; lists: { accounts: { upserts: Record<string, unknown>[] } } }[];
  };
  const project = snap.projects.find((p) => p.clientId === 'writer');
  const first = project?.lists.accounts.upserts[0] ?? {};
  if (project !== undefined)
    project.lists.accounts.upserts = Array.from({ length: WRITTEN }, (_, i) => ({
      ...first,
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      createdMs: FIXED_NOW - i * 1000,
      updatedMs: FIXED_NOW - (i % 977) * 1000,
      attrs: { name: `Name \u00e9 "${(i * 7919) % WRITTEN}"`, legal_name: null, registration_id: `R-${i % 101}`, external_ref: null },
    }));
  // Written with the whitespace and escapes another writer might use: the parse must not mind.
  return JSON.stringify({ ...snap, drop_projects: true }, null, 1).replace(/"Name é/g, '"Name \\u00e9');
}

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(sim: Simulator): Promise<RunningServer> {
  const server = await listen(sim, 0, '127.0.0.1');
  servers.push(server);
  return server;
}

/** The served simulator's slicer, wrapped to count the steps it runs and to say when the first has run (the work under way). */
function countSteps(sim: Simulator): { readonly steps: number; readonly underWay: Promise<void> } {
  const slicer = sim.slicer;
  if (slicer === undefined) throw new Error('listen() installs a slicer');
  let started: () => void = () => undefined;
  const counted = { steps: 0, underWay: new Promise<void>((resolve) => (started = resolve)) };
  sim.slicer = (work) =>
    slicer(
      (function* (): Steps<unknown> {
        for (;;) {
          const next = work.next();
          if (next.done === true) return next.value;
          if (++counted.steps === 1) started();
          yield;
        }
      })(),
    );
  return counted;
}

const post = (server: RunningServer, sim: Simulator, body: string) =>
  fetch(`${server.baseUrl}/__sim/restore`, { method: 'POST', headers: { authorization: `Bearer ${sim.adminToken}`, 'content-type': 'application/json' }, body });

describe('a served restore runs in slices', () => {
  it('a read sent while a large restore is in progress is answered before the restore, from the state before it; the restore takes many steps', async () => {
    const sim = new Simulator(OPTIONS);
    const token = sim.issueToken('writer', 'read-write');
    const server = await serve(sim);
    const counted = countSteps(sim);
    const order: string[] = [];
    const restore = post(server, sim, bigSnapshot()).then(async (res) => {
      order.push(`restore ${res.status}`);
      return res.json() as Promise<unknown>;
    });
    await Promise.race([counted.underWay, restore]);
    const read = await fetch(`${server.baseUrl}/v2/accounts?page[limit]=1`, { headers: { authorization: `Bearer ${token}` } });
    const total = ((await read.json()) as { meta: { results: { total: number } } }).meta.results.total;
    order.push(`read ${total}`);
    await restore;
    expect(order).toEqual(['read 100', 'restore 200']);
    expect(counted.steps).toBeGreaterThan(50);
    const after = await fetch(`${server.baseUrl}/v2/accounts?page[limit]=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await after.json()) as { meta: { results: { total: number } } }).meta.results.total).toBe(100 + WRITTEN);
  });

  it('restores byte for byte what the same restore restores in process: the snapshot after it, and the answers to reads', async () => {
    const body = bigSnapshot();
    const served = new Simulator(OPTIONS);
    const server = await serve(served);
    const counted = countSteps(served);
    // The body reaches the simulator as bytes, never decoded to one string (that alone held the server for a second at 230 MiB).
    const handle = served.handle.bind(served);
    const seen: { body: number; raw: number | undefined }[] = [];
    served.handle = (req, arrival) => {
      seen.push({ body: req.body.length, raw: req.raw?.length });
      return handle(req, arrival);
    };
    expect((await post(server, served, body)).status).toBe(200);
    expect(seen).toEqual([{ body: 0, raw: Buffer.byteLength(body) }]);
    served.handle = handle;
    expect(counted.steps).toBeGreaterThan(50);
    const inProcess = new Simulator({ ...OPTIONS, baseUrl: server.baseUrl });
    const admin = { authorization: `Bearer ${inProcess.adminToken}` };
    expect(inProcess.handle({ method: 'POST', url: '/__sim/restore', headers: { ...admin, 'content-type': 'application/json' }, body }).status).toBe(200);
    const snapshot = await (await fetch(`${server.baseUrl}/__sim/snapshot`, { headers: { authorization: `Bearer ${served.adminToken}` } })).text();
    expect(snapshot).toBe(inProcess.handle({ method: 'GET', url: '/__sim/snapshot', headers: admin, body: '' }).body);
    expect(snapshot.length).toBeGreaterThan(WRITTEN * 100);
    for (const url of [
      '/v2/accounts?sort=-name&page[limit]=20',
      '/v2/accounts?sort=updated_at&filter=gt(updated_at,2025-06-01T11:50:00Z)&page[limit]=20',
      '/v2/accounts?filter=eq(registration_id,R-7)&page[limit]=5&page[offset]=40',
    ]) {
      const a = await (await fetch(`${server.baseUrl}${url}`, { headers: { authorization: `Bearer ${served.issueToken('writer', 'read-write')}` } })).text();
      const b = inProcess.handle({ method: 'GET', url, headers: { authorization: `Bearer ${inProcess.issueToken('writer', 'read-write')}` }, body: '' }).body;
      expect(a).toBe(b);
    }
  });
});
