/** A closed-loop load generator on undici: N connections, each sending the next request as soon as the last answered. */
import { Pool } from 'undici';

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly non2xx: number;
}

export interface LoadSpec {
  readonly origin: string;
  readonly connections: number;
  readonly seconds: number;
  /** Builds the i-th request (path + query, method, body). */
  readonly request: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string };
  readonly headers: Readonly<Record<string, string>>;
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1 });
  let requests = 0;
  let non2xx = 0;
  let i = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(spec.seconds * 1e9));
  const worker = async () => {
    while (process.hrtime.bigint() < deadline) {
      const r = spec.request(i++);
      const res = await pool.request({ origin: spec.origin, method: r.method, path: r.path, headers: spec.headers, ...(r.body === undefined ? {} : { body: r.body }) });
      await res.body.dump();
      if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
      requests++;
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await pool.close();
  return { requests, seconds, perSecond: requests / seconds, non2xx };
}
