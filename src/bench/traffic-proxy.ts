/**
 * Part of the bench's traffic section: what the proxy adds. A simulator of 10,000 accounts in one child,
 * each proxy in its own (traffic-proxy-child.ts), and the load from here: an undici Pool whose clients
 * each send their next request as soon as the last answer is read, every request timed. Three paths to
 * the same simulator, in alternating rounds: direct, through the bare relay (the baseline) and through
 * the judging proxy. The CPU figure is the proxy process's own, per exchange it relayed.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { child, fmt, percentile } from './child.js';

interface SimChild {
  baseUrl: string;
  token: string;
}

export const PROXY_ACCOUNTS = 10_000;
const PATH = '/v2/accounts?page[limit]=100';

interface Timed {
  readonly latencies: number[];
  readonly perSecond: number;
  readonly bad: number;
}

/** `clients` closed-loop clients on one Pool for `seconds`: each request's latency to its last body byte. */
async function timedLoad(pool: Pool, clients: number, seconds: number, token: string): Promise<Timed> {
  const latencies: number[] = [];
  let bad = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const t = performance.now();
      const res = await pool.request({ method: 'GET', path: PATH, headers: { authorization: `Bearer ${token}` } });
      await res.body.dump({ limit: 1 << 20 });
      latencies.push(performance.now() - t);
      if (res.statusCode !== 200) bad++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { latencies, perSecond: latencies.length / ((performance.now() - started) / 1000), bad };
}

const PATHS = ['direct', 'bare', 'judging'] as const;
type PathName = (typeof PATHS)[number];

interface Round {
  readonly p50: number;
  readonly p99: number;
  readonly perSecond: number;
  /** CPU µs of the proxy process per exchange (0 for direct). */
  readonly cpu: number;
  readonly bad: number;
}

export async function proxyRows(opts: { readonly quick: boolean; readonly step: (what: string) => void }): Promise<{ rows: string[]; notes: string[] }> {
  const { quick, step } = opts;
  const sim = await child<SimChild>('./sim-child.js', [String(PROXY_ACCOUNTS)]);
  const { baseUrl, token } = sim.message;
  const bare = await child<{ url: string }>('./traffic-proxy-child.js', ['bare', baseUrl], ['--expose-gc']);
  const judging = await child<{ url: string }>('./traffic-proxy-child.js', ['judging', baseUrl], ['--expose-gc']);
  const origins: Record<PathName, string> = { direct: baseUrl, bare: bare.message.url, judging: judging.message.url };
  const proxies = { bare, judging } as const;
  const rounds = quick ? 1 : 3;
  const seconds = quick ? 1 : 3;
  /** Requests each proxy was sent, warm-ups included: each must have been relayed, and judged. */
  const sent = { bare: 0, judging: 0 };

  /** One round of one path: a warm-up, then the timed load between two readings of the proxy's CPU. */
  const measure = async (path: PathName, clients: number): Promise<Round> => {
    const pool = new Pool(origins[path], { connections: clients });
    const warm = await timedLoad(pool, clients, quick ? 0.3 : 1, token);
    const proxy = path === 'direct' ? undefined : proxies[path];
    const before = (await proxy?.cpu()) ?? 0;
    const r = await timedLoad(pool, clients, clients === 1 ? seconds / 2 : seconds, token);
    const used = ((await proxy?.cpu()) ?? 0) - before;
    await pool.close();
    if (path !== 'direct') sent[path] += warm.latencies.length + r.latencies.length;
    return { p50: percentile(r.latencies, 0.5), p99: percentile(r.latencies, 0.99), perSecond: r.perSecond, cpu: used / r.latencies.length, bad: r.bad };
  };

  const runs: Record<PathName, Round[]> = { direct: [], bare: [], judging: [] };
  const single: Record<PathName, Round[]> = { direct: [], bare: [], judging: [] };
  for (let i = 0; i < rounds; i++) {
    step(`proxy overhead, round ${i + 1} of ${rounds}`);
    for (const path of PATHS) runs[path].push(await measure(path, 50));
    for (const path of PATHS) single[path].push(await measure(path, 1));
  }
  const relayed = { bare: await bare.ask('relayed'), judging: await judging.ask('relayed') };
  const rss = { bare: await bare.ask('rss'), judging: await judging.ask('rss') };
  bare.stop();
  judging.stop();
  sim.stop();

  const at = (table: Record<PathName, Round[]>, path: PathName, f: (r: Round) => number) => percentile(table[path].map(f), 0.5);
  const bad = [...Object.values(runs), ...Object.values(single)].flat().reduce((n, r) => n + r.bad, 0);
  const row = (table: Record<PathName, Round[]>, path: PathName, clients: number) => {
    const p50 = at(table, path, (r) => r.p50);
    const added = p50 - at(table, 'direct', (r) => r.p50);
    const cpu = at(table, path, (r) => r.cpu);
    const name = path === 'direct' ? 'direct to the simulator' : path === 'bare' ? 'bare relay (`startBareRelay`, the baseline)' : 'judging proxy (`startJudgingProxy`)';
    const goal = path === 'judging' && clients === 50 ? 'p50 added ≤ 1 ms; CPU ≤ 1.5× bare' : '—';
    const cells = path === 'direct' ? ['—', '—', '—'] : [`${added >= 0 ? '+' : '−'}${Math.abs(added).toFixed(2)} ms`, `${fmt(cpu)} µs`, `${(cpu / at(table, 'bare', (r) => r.cpu)).toFixed(2)}×`];
    return `| ${name}, ${clients} client${clients === 1 ? '' : 's'} | ${p50.toFixed(2)} ms | ${at(table, path, (r) => r.p99).toFixed(1)} ms | ${fmt(at(table, path, (r) => r.perSecond))} | ${cells.join(' | ')} | ${goal} |`;
  };
  return {
    rows: [...PATHS.map((p) => row(runs, p, 50)), ...PATHS.map((p) => row(single, p, 1))],
    notes: [
      `Exchanges sent through the bare relay / the judging proxy over all rounds and warm-ups: ${fmt(sent.bare)} / ${fmt(sent.judging)}; relayed (and by the judging proxy judged): ${fmt(relayed.bare)} / ${fmt(relayed.judging)}. RSS of each proxy process after them: ${fmt(rss.bare / 2 ** 20)} / ${fmt(rss.judging / 2 ** 20)} MiB.${bad > 0 ? ` Non-200 answers: ${bad}.` : ''}`,
    ],
  };
}
