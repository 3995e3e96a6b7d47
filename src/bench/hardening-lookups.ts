/**
 * Part of the bench's hardening section (issue 28): the lookups a client makes at scale, which a work
 * budget once refused (400) at 1,000,000 accounts, answered with the right records; then four of them at
 * once while another client reads pages, whose p99 is the goal.
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { Child } from './child.js';
import { fmt, percentile } from './child.js';
import { load } from './load.js';

export interface LookupTarget {
  readonly origin: string;
  readonly token: string;
  readonly count: number;
  readonly quick: boolean;
  readonly server: Child<unknown>;
}

interface ListBody {
  readonly data: readonly { readonly name: string; readonly registration_id: string }[];
  readonly meta: { readonly results: { readonly total: number } };
}

/** The three lookups, each with what its answer must hold. */
const LOOKUPS: readonly (readonly [string, string, (body: ListBody) => boolean])[] = [
  ['eq(registration_id,REG-00000001)', 'filter=eq(registration_id,REG-00000001)', (b) => b.data.length === 1 && b.data[0]?.registration_id === 'REG-00000001'],
  ['like(name,*Outfitters 77*)', 'filter=like(name,*Outfitters%2077*)', (b) => b.meta.results.total > 0 && b.data.every((r) => r.name.includes('Outfitters 77'))],
  ['eq(name,no-such-account)', 'filter=eq(name,no-such-account)', (b) => b.meta.results.total === 0 && b.data.length === 0],
];

export async function lookupRows(target: LookupTarget, step: (what: string) => void): Promise<string[]> {
  const agent = new Agent({ connections: 1 });
  const headers = { authorization: `Bearer ${target.token}` };
  const rows: string[] = [];
  step('lookups over every record');
  for (const [what, query, holds] of LOOKUPS) {
    const path = `/v2/accounts?${query}&page[limit]=100`;
    await target.server.ask('lag');
    const times: number[] = [];
    let status = 0;
    let right = true;
    for (let i = 0; i < (target.quick ? 2 : 3); i++) {
      const t = performance.now();
      const res = await request(`${target.origin}${path}`, { dispatcher: agent, headers, bodyTimeout: 600_000, headersTimeout: 600_000 });
      const text = await res.body.text();
      times.push(performance.now() - t);
      status = res.statusCode;
      right &&= status === 200 && holds(JSON.parse(text) as ListBody);
    }
    const lag = await target.server.ask('lag');
    rows.push(
      `| ${what} at ${fmt(target.count)} accounts (status ${status}, ${right ? 'the right records' : 'WRONG RECORDS'}; median over HTTP); longest event-loop delay | ${percentile(times, 0.5).toFixed(0)} ms; ${lag.toFixed(1)} ms | 200 with the right records (was 400); < 50 ms |`,
    );
  }

  step('a page beside four lookups');
  const seconds = target.quick ? 3 : 8;
  await target.server.ask('lag');
  let turn = 0;
  const heavy = load({
    origin: target.origin,
    connections: 4,
    seconds,
    headers,
    request: () => ({ method: 'GET', path: `/v2/accounts?${LOOKUPS[turn++ % LOOKUPS.length]?.[1] ?? ''}&page[limit]=100` }),
  });
  const light: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    const res = await request(`${target.origin}/v2/accounts?page[limit]=25`, { dispatcher: agent, headers });
    await res.body.dump();
    light.push(performance.now() - t);
  }
  const done = await heavy;
  const lag = await target.server.ask('lag');
  rows.push(
    `| another client's page of 25 beside 4 connections sending these lookups (${done.perSecond.toFixed(1)} lookups/s, ${fmt(done.non2xx)} not 2xx): p50 / p99; longest event-loop delay | ${percentile(light, 0.5).toFixed(1)} / ${percentile(light, 0.99).toFixed(1)} ms; ${lag.toFixed(1)} ms | p99 ≤ 100 ms; < 50 ms |`,
  );
  await agent.close();
  return rows;
}
