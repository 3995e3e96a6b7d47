/**
 * A small simulator builds its seeded data on first use (issue 35's cold start): whatever comes first
 * after startSimulator() (a restore, a reset or a snapshot, over HTTP or through the kit) must act on
 * the whole data and be seen whole by the next read. Expected bytes come from a second simulator: the
 * one the snapshot was taken from, or one whose every record and index was built before its first read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Snapshot, type StartedSimulator } from '../../src/index.js';
import { drain } from '../../src/store/steps.js';

const started: StartedSimulator[] = [];
const start = async (options?: Parameters<typeof startSimulator>[0]) => {
  const sim = await startSimulator(options);
  started.push(sim);
  return sim;
};
afterEach(async () => {
  for (const sim of started.splice(0)) await sim.close();
});

/** A simulator with every seeded record and index built now, as a large one is before its port opens. */
const warmed = async (options?: Parameters<typeof startSimulator>[0]) => {
  const sim = await start(options);
  drain(sim.simulator.warm());
  return sim;
};

/** The answer's status and body, its own base URL taken out (each simulator has its port). */
const read = async (sim: StartedSimulator, path: string): Promise<string> => {
  const res = await fetch(`${sim.baseUrl}${path}`, { headers: { authorization: `Bearer ${sim.token}` } });
  return `${res.status} ${(await res.text()).replaceAll(sim.baseUrl, 'BASE')}`;
};

const admin = async (sim: StartedSimulator, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sim.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sim.adminToken}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, text: await res.text() };
};

/** Reads over several collections, sorts, filters and pages, among them collections nobody read before. */
const READS = [
  '/v2/accounts?page[limit]=100',
  '/v2/accounts?sort=-updated_at&page[limit]=7',
  '/v2/accounts?filter=like(name,*a*)&page[limit]=5',
  '/v2/orders?page[offset]=7&page[limit]=9',
  '/v2/files?sort=-created_at',
  '/pcm/catalogs?filter=gt(name,M)',
  '/v2/authentication-realms',
];

const readAll = async (sim: StartedSimulator) => {
  const out: string[] = [];
  for (const path of READS) out.push(`${path} ${await read(sim, path)}`);
  return out;
};

/** A snapshot with writes of every kind (a created, a changed and a deleted account), of `seed`'s dataset. */
async function writtenSnapshot(seed: number): Promise<{ source: StartedSimulator; snapshot: Snapshot }> {
  const source = await start({ seed });
  const write = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${source.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${source.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.status === 204 ? undefined : ((await res.json()) as { data: { id: string } });
  };
  await write('POST', '/v2/accounts', { data: { type: 'account', name: 'Restored account' } });
  const seeded = JSON.parse((await read(source, '/v2/accounts?page[limit]=2')).slice(4)) as { data: { id: string }[] };
  const [first, second] = seeded.data;
  await write('PUT', `/v2/accounts/${first?.id ?? ''}`, { data: { type: 'account', name: 'Renamed by the snapshot' } });
  await write('DELETE', `/v2/accounts/${second?.id ?? ''}`);
  return { source, snapshot: await source.snapshot() };
}

describe('right after startSimulator(), before anything read the data', () => {
  it.each([
    ['of another dataset (built off to the side)', 7],
    ['of the same dataset (its collections built by the restore)', 42],
  ])('a restore over HTTP %s is what the next read sees', async (_name, seed) => {
    const { source, snapshot } = await writtenSnapshot(seed);
    const expected = await readAll(source);
    const sim = await start();
    const restored = await admin(sim, 'POST', '/__sim/restore', { ...snapshot, drop_projects: true });
    expect(restored.status).toBe(200);
    expect(await readAll(sim)).toEqual(expected);
  });

  it('a restore through the kit is what the next read sees', async () => {
    const { source, snapshot } = await writtenSnapshot(7);
    const expected = await readAll(source);
    const sim = await start();
    await sim.restore(snapshot);
    expect(await readAll(sim)).toEqual(expected);
  });

  it('a restore then a reset: the seeded data of the restored dataset, as a simulator of it built in full answers', async () => {
    const { snapshot } = await writtenSnapshot(7);
    const reference = await warmed({ seed: 7 });
    const sim = await start();
    await sim.restore(snapshot);
    await sim.reset();
    expect(await readAll(sim)).toEqual(await readAll(reference));
  });

  it('a reset, over HTTP or through the kit, leaves the seeded data as a simulator built in full answers it', async () => {
    const reference = await warmed();
    const expected = await readAll(reference);
    const overHttp = await start();
    expect((await admin(overHttp, 'POST', '/__sim/reset')).status).toBe(200);
    expect(await readAll(overHttp)).toEqual(expected);
    const kit = await start();
    await kit.reset();
    expect(await readAll(kit)).toEqual(expected);
  });

  it('a snapshot, over HTTP or through the kit, is byte for byte the snapshot of a simulator built in full', async () => {
    const reference = await warmed();
    const expected = await admin(reference, 'GET', '/__sim/snapshot');
    expect(expected.status).toBe(200);
    const overHttp = await start();
    expect(await admin(overHttp, 'GET', '/__sim/snapshot')).toEqual(expected);
    const kit = await start();
    expect(JSON.stringify(await kit.snapshot())).toBe(JSON.stringify(JSON.parse(expected.text)));
  });

  it('a snapshot taken first restores into a changed simulator as the data it held', async () => {
    const sim = await start();
    const snapshot = await sim.snapshot();
    const expected = await readAll(await warmed());
    const res = await fetch(`${sim.baseUrl}/v2/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { type: 'account', name: 'Gone after the restore' } }),
    });
    expect(res.status).toBe(201);
    await sim.restore(snapshot);
    expect(await readAll(sim)).toEqual(expected);
  });
});
