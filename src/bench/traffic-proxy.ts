/**
 * Part of the bench's traffic section: what the proxy adds. A simulator of 10,000 accounts in one child,
 * each proxy in its own (traffic-proxy-child.ts), and the load from here: an undici Pool whose clients
 * each send their next request as soon as the last answer is read, every request timed. Four paths to
 * the same simulator, in alternating rounds: direct, through the floor (the relay parsing each answer
 * once, judging nothing), through the judging proxy, and through it writing a HAR. The CPU figure is the
 * proxy process's own (every thread), per exchange it relayed, read once its judge has caught up.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { join } from 'node:path';
import { child, fmt, percentile, type Child } from './child.js';

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

const PATHS = ['direct', 'floor', 'judging', 'har'] as const;
type PathName = (typeof PATHS)[number];
type ProxyPath = Exclude<PathName, 'direct'>;

interface Round {
  readonly p50: number;
  readonly p99: number;
  readonly perSecond: number;
  /** CPU µs of the proxy process (every thread) per exchange, judging caught up (0 for direct). */
  readonly cpu: number;
  readonly bad: number;
}

/** The goals of issue 25: CPU per relayed exchange against the floor (the relay parsing each answer once). */
const GOAL: Readonly<Record<ProxyPath, number | undefined>> = { floor: undefined, judging: 1.2, har: 1.6 };

export async function proxyRows(opts: { readonly quick: boolean; readonly step: (what: string) => void; readonly dir: string }): Promise<{ rows: string[]; notes: string[] }> {
  const { quick, step } = opts;
  const sim = await child<SimChild>('./sim-child.js', [String(PROXY_ACCOUNTS)]);
  const { baseUrl, token } = sim.message;
  const proxies: Record<ProxyPath, Child<{ url: string }>> = {
    floor: await child<{ url: string }>('./traffic-proxy-child.js', ['floor', baseUrl]),
    judging: await child<{ url: string }>('./traffic-proxy-child.js', ['judging', baseUrl]),
    har: await child<{ url: string }>('./traffic-proxy-child.js', ['har', baseUrl, join(opts.dir, 'bench.har')]),
  };
  const origins: Record<PathName, string> = { direct: baseUrl, floor: proxies.floor.message.url, judging: proxies.judging.message.url, har: proxies.har.message.url };
  const rounds = quick ? 1 : 3;
  const seconds = quick ? 1 : 3;
  /** Requests each proxy was sent, warm-ups included: each must have been relayed, and judged. */
  const sent: Record<ProxyPath, number> = { floor: 0, judging: 0, har: 0 };

  /** One round of one path: a warm-up, then the timed load between two readings of the proxy's CPU (judging caught up). */
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

  const runs: Record<PathName, Round[]> = { direct: [], floor: [], judging: [], har: [] };
  const single: Record<PathName, Round[]> = { direct: [], floor: [], judging: [], har: [] };
  for (let i = 0; i < rounds; i++) {
    step(`proxy overhead, round ${i + 1} of ${rounds}`);
    for (const path of PATHS) runs[path].push(await measure(path, 50));
    for (const path of PATHS) single[path].push(await measure(path, 1));
  }
  const relayed = { floor: await proxies.floor.ask('relayed'), judging: await proxies.judging.ask('relayed'), har: await proxies.har.ask('relayed') };
  for (const p of Object.values(proxies)) p.stop();
  sim.stop();

  const at = (table: Record<PathName, Round[]>, path: PathName, f: (r: Round) => number) => percentile(table[path].map(f), 0.5);
  const bad = [...Object.values(runs), ...Object.values(single)].flat().reduce((n, r) => n + r.bad, 0);
  const row = (table: Record<PathName, Round[]>, path: PathName, clients: number) => {
    const p50 = at(table, path, (r) => r.p50);
    const added = p50 - at(table, 'direct', (r) => r.p50);
    const cpu = at(table, path, (r) => r.cpu);
    const ratio = cpu / at(table, 'floor', (r) => r.cpu);
    const name =
      path === 'direct'
        ? 'direct to the simulator'
        : path === 'floor'
          ? 'floor: the relay parsing each answer once (`startRelay`)'
          : path === 'judging'
            ? 'judging proxy (`startJudgingProxy`)'
            : 'judging proxy with `--har`';
    const goal = path === 'direct' || path === 'floor' ? '—' : `≤ ${GOAL[path]}× ${ratio <= (GOAL[path] ?? 0) ? '✓' : '✗'}`;
    const cells = path === 'direct' ? ['—', '—', '—'] : [`${added >= 0 ? '+' : '−'}${Math.abs(added).toFixed(2)} ms`, `${fmt(cpu)} µs`, `${ratio.toFixed(2)}×`];
    return `| ${name}, ${clients} client${clients === 1 ? '' : 's'} | ${p50.toFixed(2)} ms | ${at(table, path, (r) => r.p99).toFixed(1)} ms | ${fmt(at(table, path, (r) => r.perSecond))} | ${cells.join(' | ')} | ${goal} |`;
  };
  return {
    rows: [...PATHS.map((p) => row(runs, p, 50)), ...PATHS.map((p) => row(single, p, 1))],
    notes: [
      `Exchanges sent through the floor / the judging proxy / with --har over all rounds and warm-ups: ${fmt(sent.floor)} / ${fmt(sent.judging)} / ${fmt(sent.har)}; relayed and judged: ${fmt(relayed.floor)} / ${fmt(relayed.judging)} / ${fmt(relayed.har)} (every one: the judges' backlog is unbounded here, so nothing is shed).${bad > 0 ? ` Non-200 answers: ${bad}.` : ''}`,
    ],
  };
}

/** A judging proxy as `commerce-sim proxy` runs it, under steady load: 50 clients for `seconds`, its RSS read every 5 s; what it could not judge is counted. */
export async function memoryRows(opts: { readonly quick: boolean; readonly step: (what: string) => void }): Promise<string[]> {
  const seconds = opts.quick ? 10 : 60;
  opts.step(`proxy memory, 50 clients for ${seconds} s`);
  const sim = await child<SimChild>('./sim-child.js', [String(PROXY_ACCOUNTS)]);
  const proxy = await child<{ url: string }>('./traffic-proxy-child.js', ['default', sim.message.baseUrl]);
  const pool = new Pool(proxy.message.url, { connections: 50 });
  const samples: number[] = [];
  let exchanges = 0;
  const load = timedLoad(pool, 50, seconds, sim.message.token).then((r) => (exchanges = r.latencies.length));
  for (let t = 5; t <= seconds; t += 5) {
    await new Promise((r) => setTimeout(r, 5_000));
    samples.push((await proxy.ask('rss')) / 2 ** 20);
  }
  await load;
  await pool.close();
  const after = (await proxy.ask('rss')) / 2 ** 20;
  const judged = await proxy.ask('judged');
  proxy.stop();
  sim.stop();
  const peak = Math.max(...samples, after);
  const first = samples[0] ?? 0;
  const last = samples.at(-1) ?? 0;
  const flat = last <= first * 1.15 + 16;
  return [
    `| RSS of the judging proxy at 50 clients, every 5 s over ${seconds} s (${fmt(exchanges)} exchanges relayed; the judge kept up with ${fmt(judged)}, whole clients of the rest shed) | ${samples.map((x) => fmt(x)).join(', ')} MiB | flat ${flat ? '✓' : '✗'} |`,
    `| its peak RSS (after the load: ${fmt(after)} MiB) | ${fmt(peak)} MiB | ≤ 400 MiB ${peak <= 400 ? '✓' : '✗'} |`,
    `| exchanges judged at 50 clients over ${seconds} s (issue 34: no client shed) | ${fmt(judged)} of ${fmt(exchanges)} | every one ${judged >= exchanges ? '✓' : '✗'} |`,
  ];
}
