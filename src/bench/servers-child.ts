/**
 * Child process of the bench: the simulator server, the raw-slicer baseline or the static floor (one per
 * process, so no heap or collector weighs on another), on the same seeded records. The floor answers
 * every request with bytes the simulator gave for it, fetched once: node:http's own cost, nothing else.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Simulator } from '../sim/simulator.js';
import { listen } from '../sim/server.js';
import { accounts } from '../store/resources.js';
import { iso } from '../store/clock.js';
import { startBaseline, type PlainAccount } from './baseline.js';

const mode = process.argv[2] === 'baseline' ? 'baseline' : process.argv[2] === 'static' ? 'static' : 'sim';
const count = Number(process.argv[3] ?? 100_000);

async function simulator(): Promise<Record<string, string>> {
  const sim = new Simulator({ seed: 42, accounts: count, wallClock: () => Date.now() });
  const running = await listen(sim, 0, '127.0.0.1');
  const project = sim.project('bench');
  project.list(accounts).index('id', 'asc');
  project.list(accounts).index('created_at', 'asc');
  const ids = sim.seededIds();
  return { origin: running.baseUrl, token: sim.issueToken('bench', 'read-write'), ...ids };
}

async function baseline(): Promise<Record<string, string>> {
  // The same records as plain objects; the simulator that generated them is dropped.
  const records: PlainAccount[] = new Simulator({ seed: 42, accounts: count, wallClock: () => 0 })
    .project('bench')
    .list(accounts)
    .index('id', 'asc')
    .map((r) => ({
      id: r.id,
      type: 'account',
      name: r.attrs['name'] ?? null,
      legal_name: r.attrs['legal_name'] ?? null,
      registration_id: r.attrs['registration_id'] ?? null,
      external_ref: r.attrs['external_ref'] ?? null,
      parent_id: null,
      meta: { timestamps: { created_at: iso(r.createdMs), updated_at: iso(r.updatedMs) } },
      links: { self: `http://127.0.0.1:4747/v2/accounts/${r.id}` },
    }));
  const server = await startBaseline(records);
  return { origin: server.origin, deep: records[Math.floor(records.length * 0.9)]?.id ?? '' };
}

/** Busy for `us` µs of this process's CPU time (user + system), as if it did that much work. */
function spin(us: number): void {
  const start = process.cpuUsage();
  for (;;) {
    const { user, system } = process.cpuUsage(start);
    if (user + system >= us) return;
  }
}

/**
 * How the floor writes an answer: `end` as the simulator does (writeHead with a flat header array, then
 * `res.end(buffer)`, one writev of head and body), `cork` with the socket corked across both, `string`
 * the body as a latin1 string node appends to its head (one write). Issue 36 item 4 compares them.
 */
type WritePath = 'end' | 'cork' | 'string';

/**
 * argv[3]: JSON `{origin, token, answers: [{key, method, path, body?, spinUs?, write?}]}` — what to fetch from the
 * simulator; with `spinUs`, that answer is sent after that much CPU work (the floor with the simulator's
 * own work added, to tell node:http's share of a slower server from the simulator's).
 */
async function staticFloor(): Promise<Record<string, string>> {
  const spec = JSON.parse(process.argv[3] ?? '{}') as { origin: string; token: string; answers: { key: string; method: string; path: string; body?: string; spinUs?: number; write?: WritePath }[] };
  const answers = new Map<string, { status: number; headers: string[]; body: Buffer; latin1: string; spinUs: number; write: WritePath }>();
  for (const a of spec.answers) {
    const res = await fetch(`${spec.origin}${a.path}`, {
      method: a.method,
      headers: { authorization: `Bearer ${spec.token}`, 'content-type': 'application/json' },
      ...(a.body === undefined ? {} : { body: a.body }),
    });
    const body = Buffer.from(await res.arrayBuffer());
    answers.set(a.key, {
      status: res.status,
      headers: ['content-type', res.headers.get('content-type') ?? 'application/json', 'content-length', String(body.length)],
      body,
      latin1: body.toString('latin1'),
      spinUs: a.spinUs ?? 0,
      write: a.write ?? 'end',
    });
  }
  const server = createServer((req, res) => {
    const answer = answers.get(`${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0] ?? '/'}`) ?? {
      status: 404,
      headers: ['content-length', '0'],
      body: Buffer.alloc(0),
      latin1: '',
      spinUs: 0,
      write: 'end' as const,
    };
    const send = () => {
      if (answer.spinUs > 0) spin(answer.spinUs);
      res.writeHead(answer.status, answer.headers);
      switch (answer.write) {
        case 'end':
          res.end(answer.body);
          break;
        case 'cork': {
          // The socket corked across the head and the body, uncorked on the next tick: one writev.
          const socket = res.socket;
          socket?.cork();
          res.end(answer.body);
          if (socket !== null) process.nextTick(() => socket.uncork());
          break;
        }
        case 'string':
          // One write of head and body: node appends a latin1 string body to its head.
          res.end(answer.latin1, 'latin1');
          break;
      }
    };
    if (req.method === 'POST') {
      req.resume();
      req.on('end', send);
    } else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

process.send?.(mode === 'sim' ? await simulator() : mode === 'static' ? await staticFloor() : await baseline());
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
  // The monotonic clock in µs, as a CPU profile's sample times read it (profile-list.ts marks its window with it).
  if (m === 'mark') process.send?.(Number(process.hrtime.bigint() / 1000n));
  if (m === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.(user + system);
  }
});
