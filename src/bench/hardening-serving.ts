/**
 * Part of the bench's hardening section (issue 18): how a served simulator serves everyone at once. The
 * first reads after start (no index is built on first use), another client's page while one connection
 * floods pipelined requests, and shutdown: answers held by injected latency and a server busy with
 * costly reads, each answered with Connection: close, within the grace.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { DEFAULT_SHUTDOWN_GRACE_MS } from '../sim/server.js';
import type { Child } from './child.js';
import { fmt, percentile } from './child.js';
import { load } from './load.js';

export interface Served {
  readonly origin: string;
  readonly token: string;
  readonly adminToken: string;
  readonly server: Child<unknown>;
  readonly quick: boolean;
}

async function timedGet(agent: Agent, served: Served, path: string): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  const res = await request(`${served.origin}${path}`, { dispatcher: agent, headers: { authorization: `Bearer ${served.token}` } });
  await res.body.dump();
  return { ms: performance.now() - t, status: res.statusCode };
}

/** The first read of each order and filter after start, beside the median of the next twenty. */
export async function firstReadRows(served: Served, count: number, readyMs: number, step: (what: string) => void): Promise<string[]> {
  step('first reads after start');
  const agent = new Agent({ connections: 1 });
  const rows = [`| start at ${fmt(count)} accounts: port open with every seeded record and index built | ${fmt(readyMs)} ms | — (once, before the port opens) |`];
  const at = (ms: number) => new Date(ms).toISOString();
  const paths: readonly (readonly [string, string])[] = [
    ['page of 100 sorted by name', '/v2/accounts?sort=name&page[limit]=100'],
    ['page of 100 sorted by -created_at, deep', '/v2/accounts?sort=-created_at&page[limit]=100&page[offset]=9000'],
    ['updated_at sync page (sort=updated_at, ge)', `/v2/accounts?sort=updated_at&filter=ge(updated_at,${at(Date.UTC(2024, 3, 1))})&page[limit]=100`],
    ['page of 100 sorted by -name', '/v2/accounts?sort=-name&page[limit]=100'],
  ];
  for (const [what, path] of paths) {
    await served.server.ask('lag');
    const first = await timedGet(agent, served, path);
    const lag = await served.server.ask('lag');
    const rest: number[] = [];
    for (let i = 0; i < 20; i++) rest.push((await timedGet(agent, served, path)).ms);
    rows.push(
      `| first ${what} (status ${first.status}): first / median of the next 20; longest event-loop delay on the first | ${first.ms.toFixed(1)} / ${percentile(rest, 0.5).toFixed(1)} ms; ${lag.toFixed(1)} ms | first ≈ the rest; < 50 ms |`,
    );
  }
  await agent.close();
  return rows;
}

/** Another client's page of 25 while one connection writes `n` pipelined page requests at once (read, or never read). */
export async function floodRows(served: Served, step: (what: string) => void): Promise<string[]> {
  const rows: string[] = [];
  const url = new URL(served.origin);
  const n = 20_000;
  const one = `GET /v2/accounts?page[limit]=100 HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${served.token}\r\n\r\n`;
  for (const reads of [true, false]) {
    step(`pipelining flood (${reads ? 'read' : 'never read'})`);
    const socket: Socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let received = 0;
    if (reads) socket.on('data', (c: Buffer) => (received += c.length));
    else socket.pause();
    socket.on('error', () => undefined);
    const readBefore = await served.server.ask('requests');
    socket.write(one.repeat(n));
    const agent = new Agent({ connections: 1 });
    await served.server.ask('lag');
    const times: number[] = [];
    const until = performance.now() + (served.quick ? 2000 : 4000);
    while (performance.now() < until) times.push((await timedGet(agent, served, '/v2/accounts?page[limit]=25')).ms);
    const lag = await served.server.ask('lag');
    // Of the flooder's requests, those the server has read (parsed): the other client's pages are not.
    const readOfFlood = (await served.server.ask('requests')) - readBefore - times.length;
    socket.destroy();
    await agent.close();
    // Node cleans up what it read of the flooder's requests as the connection goes: the longest delay that puts
    // before everyone else's next request (the found filter's first read, next in this bench, met it).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const leaving = await served.server.ask('lag');
    const shown = `${percentile(times, 0.5).toFixed(1)} / ${percentile(times, 0.99).toFixed(1)} / ${Math.max(...times).toFixed(1)} ms; ${lag.toFixed(1)} ms`;
    rows.push(
      reads
        ? `| another client's page of 25 while one connection pipelines ${fmt(n)} page requests and reads the answers (${fmt(received / 2 ** 20)} MiB read meanwhile): p50 / p99 / max; longest event-loop delay | ${shown} | p99 < 100 ms (was 8-25 s) |`
        : `| another client's page of 25 while one connection pipelines ${fmt(n)} page requests and never reads: p50 / p99 / max; longest event-loop delay | ${shown} | p99 < 100 ms (was 8-25 s) |`,
      ...(reads
        ? []
        : [
            `| of those ${fmt(n)} requests never read, read by the server (parsed and held); the longest event-loop delay as the flooder goes | ${fmt(readOfFlood)}; ${leaving.toFixed(1)} ms | a few hundred; < 50 ms (was all ${fmt(n)}; 185-860 ms) |`,
          ]),
    );
  }
  return rows;
}

/** A token for `clientId` from the token endpoint (the bench's simulators run in open mode). */
async function freshToken(origin: string, clientId: string): Promise<string> {
  const res = await request(`${origin}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&client_id=${clientId}&client_secret=x`,
  });
  return ((await res.body.json()) as { access_token: string }).access_token;
}

/** Send one request on a fresh connection and collect everything until it closes (or `ms` pass). */
function rawExchange(origin: string, text: string, ms: number): { sent: Promise<void>; answer: Promise<string> } {
  const url = new URL(origin);
  const socket = connect(Number(url.port), url.hostname);
  let answer = '';
  const sent = new Promise<void>((resolve) => socket.once('connect', () => socket.write(text, () => resolve())));
  return {
    sent,
    answer: new Promise((resolve) => {
      socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
      socket.on('error', () => undefined);
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(answer);
      }, ms);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(answer);
      });
    }),
  };
}

/** Of the answers: how many are whole (a status line), how many carry Connection: close, and their statuses. */
function tally(answers: readonly string[]): { whole: number; closing: number; statuses: string } {
  const statuses = new Map<string, number>();
  let whole = 0;
  let closing = 0;
  for (const a of answers) {
    const status = /^HTTP\/1\.1 (\d{3})/.exec(a)?.[1];
    if (status === undefined) continue;
    whole++;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (/\r\nconnection: close\r\n/i.test(a)) closing++;
  }
  return { whole, closing, statuses: [...statuses].map(([s, k]) => `${k}×${s}`).join(', ') || 'none' };
}

/**
 * Shutdown (what serve does on SIGTERM) with 50 requests in flight: on `served` held by 3 s of injected
 * latency, then on a server busy with `costly` reads from four connections. The server exits after each.
 */
export async function shutdownRows(served: Served, label: string, costly: string | undefined, step: (what: string) => void): Promise<string[]> {
  step(`shutdown ${label}`);
  const url = new URL(served.origin);
  // A client with no writes of its own: the costliest read was measured over the seeded records alone.
  const token = costly === undefined ? served.token : await freshToken(served.origin, 'shutdown-bench');
  const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n\r\n`;
  let heavy: Promise<unknown> | undefined;
  if (costly === undefined) {
    const res = await request(`${served.origin}/__sim/adversity?client_id=bench`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${served.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ latency_ms: 3000 }),
    });
    await res.body.dump();
  } else
    heavy = load({ origin: served.origin, connections: 4, seconds: 3, headers: { authorization: `Bearer ${served.token}` }, request: () => ({ method: 'GET', path: costly }) }).catch(() => undefined);
  // Busy: the 50 are themselves costly reads, so most still wait for the CPU when shutdown begins.
  const path = (i: number) => costly ?? `/v2/accounts?page[limit]=25&page[offset]=${i * 25}`;
  const exchanges = Array.from({ length: 50 }, (_, i) => rawExchange(served.origin, get(path(i)), DEFAULT_SHUTDOWN_GRACE_MS + 5000));
  await Promise.all(exchanges.map((e) => e.sent));
  await new Promise((r) => setTimeout(r, costly === undefined ? 200 : 20));
  const closeMs = await served.server.ask('close');
  const got = tally(await Promise.all(exchanges.map((e) => e.answer)));
  await heavy;
  const what = costly === undefined ? '50 requests each held by 3,000 ms of injected latency' : '50 of the costliest filter still run in flight, 4 more connections sending it';
  return [
    `| shutdown (serve's SIGTERM) ${label} with ${what}: answered whole (statuses); of them with Connection: close (answers written after shutdown began); close() took | ${got.whole} (${got.statuses}); ${got.closing}; ${fmt(closeMs)} ms | 50, none reset; —; < ${fmt(DEFAULT_SHUTDOWN_GRACE_MS)} ms (was: latency past 2.5 s none answered; busy 5 of 50, ~20 s) |`,
  ];
}
