/**
 * The judging proxy in front of a URL judges in a worker thread (the built package: a thread runs the
 * compiled file). Findings still arrive as they are made and the result is the judge's, the answers
 * unchanged.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as Kit from '../../src/index.js';
import type * as Traffic from '../../src/traffic/index.js';

const DIST = resolve(import.meta.dirname, '../../dist');

describe('the judge thread', () => {
  it('judges a URL upstream off the relay thread: findings as they happen, the same result', async () => {
    const kit = (await import(pathToFileURL(resolve(DIST, 'index.js')).href)) as typeof Kit;
    const traffic = (await import(pathToFileURL(resolve(DIST, 'traffic/index.js')).href)) as typeof Traffic;
    await using sim = await kit.startSimulator({ dataset: 'shared-timestamps', accounts: 320 });
    const seen: string[] = [];
    const proxy = await traffic.startJudgingProxy({ upstream: sim.baseUrl, onFinding: (f) => seen.push(f.ruleId) });
    expect(proxy.judging).toBe('thread');
    const auth = { authorization: `Bearer ${sim.token}` };
    const first = await fetch(`${proxy.url}/v2/accounts?sort=created_at&page[limit]=100`, { headers: auth });
    const last = ((await first.json()) as { data: { meta: { timestamps: { created_at: string } } }[] }).data.at(-1)?.meta.timestamps.created_at ?? '';
    const url = `/v2/accounts?sort=created_at&page[limit]=100&filter=gt(created_at,${last})`;
    const viaProxy = await (await fetch(`${proxy.url}${url}`, { headers: auth })).text();
    // Asked directly as the proxy asks (its forwarding headers): the simulator builds its links for the proxy's origin.
    expect(viaProxy).toBe(await (await fetch(`${sim.baseUrl}${url}`, { headers: { ...auth, 'x-forwarded-host': new URL(proxy.url).host } })).text());
    const result = await proxy.close();
    expect(result.entries).toBe(2);
    expect(result.complete).toBe(false);
    expect(result.tallies.get('client.keyset.timestamp-ge')?.failed).toBe(1);
    expect(result.findings.map((f) => f.ruleId)).toContain('client.keyset.timestamp-ge');
    expect(seen).toContain('client.keyset.timestamp-ge');
  });

  it('sheds whole clients when judging falls behind, relays every answer, and says how many exchanges of how many clients went unjudged', async () => {
    const kit = (await import(pathToFileURL(resolve(DIST, 'index.js')).href)) as typeof Kit;
    const traffic = (await import(pathToFileURL(resolve(DIST, 'traffic/index.js')).href)) as typeof Traffic;
    await using sim = await kit.startSimulator({ accounts: 200 });
    // A backlog of at most one page: the first client's first exchange is judged, the rest wait or are shed.
    const proxy = await traffic.startJudgingProxy({ upstream: sim.baseUrl, maxBacklogBytes: 60_000 });
    const tokens = [sim.token, sim.simulator.issueToken(sim.clientId, 'read-only'), sim.simulator.issueToken(sim.clientId, 'read-only')];
    let answered = 0;
    await Promise.all(
      tokens.map(async (token) => {
        for (let i = 0; i < 20; i++) {
          const res = await fetch(`${proxy.url}/v2/accounts?page[limit]=100&page[offset]=${i * 5}`, { headers: { authorization: `Bearer ${token}` } });
          if (res.status === 200 && ((await res.json()) as { data: unknown[] }).data.length > 0) answered++;
        }
      }),
    );
    const result = await proxy.close();
    expect(answered).toBe(60);
    expect(result.shed?.clients ?? 0).toBeGreaterThan(0);
    // Every exchange was either judged or counted as shed, whole clients at a time.
    expect(result.entries + (result.shed?.exchanges ?? 0)).toBe(60);
    expect(result.clients + (result.shed?.clients ?? 0)).toBeGreaterThanOrEqual(3);
  });
});
