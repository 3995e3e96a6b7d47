/**
 * §4.3 step 3 read to the letter, three ways, against the simulator with many records sharing a created_at,
 * through a judging proxy (ground truth on): each reads every record, gets no client finding, and ground
 * truth counts nothing received twice or never; the re-reads are counted as waste on the walk. A reader
 * that re-reads a page of one value and gives up is warned (assumed: a client may stop where it likes), and
 * ground truth counts what it left as not read.
 */
import { describe, expect, it } from 'vitest';
import { startSimulator, type StartedSimulator } from '../../src/kit/start-simulator.js';
import { startJudgingProxy } from '../../src/traffic/proxy/judging-proxy.js';
import type { TrafficResult } from '../../src/traffic/judge/judge.js';

interface Page {
  readonly records: readonly { readonly id: string; readonly created: string }[];
}

async function read(base: string, token: string, query: string): Promise<Page> {
  const res = await fetch(`${base}/v2/orders?${query}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data: { id: string; meta: { timestamps: { created_at: string } } }[] };
  return { records: body.data.map((r) => ({ id: r.id, created: r.meta.timestamps.created_at })) };
}

type Reader = (base: string, token: string) => Promise<Set<string>>;

const LIMIT = 20;
const first = (r: Page) => r.records[0]?.created;
const last = (r: Page) => r.records.at(-1)?.created;

/** Paging further: the same ge filter with page[offset] stepping on (the first page's own filter: ge of its first value). */
const offsetStepping: Reader = async (base, token) => {
  const seen = new Set<string>();
  let filter: string | undefined;
  let offset = 0;
  for (;;) {
    const page = await read(base, token, `sort=created_at&page[limit]=${LIMIT}${filter === undefined ? '' : `&filter=ge(created_at,${filter})`}${offset === 0 ? '' : `&page[offset]=${offset}`}`);
    for (const r of page.records) seen.add(r.id);
    if (page.records.length < LIMIT) return seen;
    if (first(page) === last(page)) {
      filter ??= first(page);
      offset += page.records.length;
    } else {
      filter = last(page);
      offset = page.records.filter((r) => r.created === last(page)).length;
    }
  }
};

/** Step 3 to the letter: ge(<last value of the previous page>) at offset 0, which re-reads a page of one value; then stepping on by page[offset]. */
const literalReread: Reader = async (base, token) => {
  const seen = new Set<string>();
  let value: string | undefined;
  let offset = 0;
  let previous: Page | undefined;
  for (;;) {
    const page = await read(base, token, `sort=created_at&page[limit]=${LIMIT}${value === undefined ? '' : `&filter=ge(created_at,${value})`}${offset === 0 ? '' : `&page[offset]=${offset}`}`);
    for (const r of page.records) seen.add(r.id);
    if (page.records.length < LIMIT) return seen;
    const sameAgain = previous !== undefined && page.records.every((r, i) => r.id === previous?.records[i]?.id);
    if (first(page) === last(page) && (sameAgain || offset > 0)) offset += page.records.length;
    else {
      value = last(page);
      offset = 0;
    }
    previous = page;
  }
};

/** ge(<new value>) at page[offset] = the records of that value already held (every record of it read so far). */
const heldOffset: Reader = async (base, token) => {
  const seen = new Set<string>();
  const byValue = new Map<string, number>();
  let value: string | undefined;
  for (;;) {
    const offset = value === undefined ? 0 : (byValue.get(value) ?? 0);
    const page = await read(base, token, `sort=created_at&page[limit]=${LIMIT}${value === undefined ? '' : `&filter=ge(created_at,${value})`}${offset === 0 ? '' : `&page[offset]=${offset}`}`);
    for (const r of page.records) {
      if (!seen.has(r.id)) byValue.set(r.created, (byValue.get(r.created) ?? 0) + 1);
      seen.add(r.id);
    }
    if (page.records.length < LIMIT) return seen;
    value = last(page);
  }
};

async function judged(sim: StartedSimulator, reader: Reader): Promise<{ result: TrafficResult; seen: Set<string> }> {
  const proxy = await startJudgingProxy({ upstream: sim });
  const seen = await reader(proxy.url, sim.token);
  await fetch(`${proxy.url}/v2/settings`, { headers: { authorization: `Bearer ${sim.token}` } });
  return { result: await proxy.close(), seen };
}

describe('§4.3 step 3 read literally, three ways, on runs of one created_at', () => {
  it.each([
    ['page[offset] stepping on', offsetStepping, false],
    ['ge(<value>) again at offset 0, then stepping on', literalReread, true],
    ['ge(<new value>) at page[offset] = the records of it held', heldOffset, false],
  ] as const)(
    '%s: every order read, no client finding, ground truth counts none twice or never',
    async (_name, reader, rereads) => {
      await using sim = await startSimulator({ dataset: 'shared-timestamps', counts: { orders: 400 } });
      const { result, seen } = await judged(sim, reader);
      expect(seen.size).toBe(400);
      expect(result.findings.filter((f) => f.party === 'client').map((f) => `${f.ruleId}: ${f.message}`)).toEqual([]);
      const orders = result.walks.filter((w) => w.label.startsWith('orders'));
      expect(orders.map((w) => [w.truth?.visible, w.truth?.once, w.truth?.twice, w.truth?.never])).toEqual([[400, 400, 0, 0]]);
      // The re-reads are waste, counted on the walk (an order of a run re-read is never a repeat).
      expect((orders[0]?.reread ?? 0) > 0).toBe(rereads);
    },
    60_000,
  );

  it('warns of a reader that re-reads a page of one value, gets nothing new and gives up (assumed), and counts what it left', async () => {
    await using sim = await startSimulator({ dataset: 'shared-timestamps', counts: { orders: 400 } });
    const givesUp: Reader = async (base, token) => {
      const seen = new Set<string>();
      let value: string | undefined;
      for (;;) {
        const page = await read(base, token, `sort=created_at&page[limit]=${LIMIT}${value === undefined ? '' : `&filter=ge(created_at,${value})`}`);
        const fresh = page.records.filter((r) => !seen.has(r.id));
        for (const r of page.records) seen.add(r.id);
        // "No progress": a naive loop guard that ends the export.
        if (page.records.length < LIMIT || fresh.length === 0) return seen;
        value = last(page);
      }
    };
    const { result, seen } = await judged(sim, givesUp);
    expect(seen.size).toBeLessThan(400);
    expect(result.findings.filter((f) => f.party === 'client').map((f) => [f.ruleId, f.level, f.status])).toEqual([['client.keyset.run-abandoned', 'assumed', 'fail']]);
    // Ground truth: what it left of the run and beyond is not read (it stopped there), nothing received twice.
    const orders = result.walks.filter((w) => w.label.startsWith('orders'));
    expect(orders.map((w) => [w.truth?.visible, w.truth?.unread, w.truth?.never, w.truth?.twice])).toEqual([[400, 400 - seen.size, 0, 0]]);
  }, 60_000);
});
