/**
 * startJudgingProxy in front of startSimulator(): findings as they are made, --annotate's one bounded
 * header naming the failed rules with the body unchanged, infrastructure notes, and the HAR it writes
 * marked complete (check reads it so).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/kit/start-simulator.js';
import { COMPLETE_MARK } from '../../src/traffic/har/format.js';
import { readTrafficLog } from '../../src/traffic/har/read.js';
import type { Finding } from '../../src/traffic/judge/judge.js';
import { startJudgingProxy } from '../../src/traffic/proxy/judging-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-judging-proxy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startJudgingProxy', () => {
  it('annotates an answer with the rules its exchange failed, in one bounded header, the body unchanged', async () => {
    await using sim = await startSimulator({ dataset: 'shared-timestamps', accounts: 320 });
    const found: Finding[] = [];
    const proxy = await startJudgingProxy({ upstream: sim, annotate: true, har: join(dir, 'a.har'), onFinding: (f) => found.push(f) });
    const auth = { authorization: `Bearer ${sim.token}` };
    const first = await fetch(`${proxy.url}/v2/accounts?sort=created_at&page[limit]=100`, { headers: auth });
    expect(first.headers.get('x-commerce-sim-findings')).toBeNull();
    const last = ((await first.json()) as { data: { meta: { timestamps: { created_at: string } } }[] }).data.at(-1)?.meta.timestamps.created_at ?? '';
    const url = `/v2/accounts?sort=created_at&page[limit]=100&filter=gt(created_at,${last})`;
    const viaProxy = await fetch(`${proxy.url}${url}`, { headers: auth });
    const header = viaProxy.headers.get('x-commerce-sim-findings') ?? '';
    expect(header).toContain('client.keyset.timestamp-ge');
    expect(Buffer.byteLength(header)).toBeLessThanOrEqual(1024);
    // Asked directly as the proxy asks (its forwarding headers): the simulator builds its links for the proxy's origin.
    const direct = await fetch(`${sim.baseUrl}${url}`, { headers: { ...auth, 'x-forwarded-host': new URL(proxy.url).host } });
    expect(await viaProxy.text()).toBe(await direct.text());
    const result = await proxy.close();
    expect(found.map((f) => f.ruleId)).toContain('client.keyset.timestamp-ge');
    expect(result.complete).toBe(true);
    expect((await readTrafficLog(join(dir, 'a.har')))?.creatorComment).toBe(COMPLETE_MARK);
    expect(readFileSync(join(dir, 'a.har'), 'utf8')).not.toContain(sim.token);
  });

  it('notes an unreachable upstream as infrastructure: a 502 to the client, no rule judged', async () => {
    const proxy = await startJudgingProxy({ upstream: 'http://127.0.0.1:9' });
    const res = await fetch(`${proxy.url}/v2/accounts`);
    expect(res.status).toBe(502);
    const result = await proxy.close();
    expect(result.entries).toBe(0);
    expect(result.infrastructure[0]?.kind).toBe('unreachable');
    expect(result.complete).toBe(false);
  });
});
