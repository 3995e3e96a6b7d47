/**
 * The served simulator's edges (issue 10): shutdown answers what is in flight with Connection: close and
 * ends within a bound; the restore route takes snapshots far above the 1 MiB body limit, for the admin
 * token only.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';
import { MAX_BODY_BYTES } from '../../src/sim/messages.js';

const sim = () => new Simulator({ seed: 42, wallClock: () => Date.now(), accounts: 50 });

/** Everything the socket receives until it closes (or the time is up). */
function collect(socket: Socket, ms: number): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    const done = () => resolve(text);
    socket.once('close', done);
    setTimeout(done, ms).unref();
  });
}

async function open(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return socket;
}

/** A served simulator, a read-write token and one open connection whose bytes are being collected. */
async function connected(waitMs: number) {
  const s = sim();
  const token = s.issueToken('a', 'read-write');
  const server = await listen(s, 0, '127.0.0.1');
  const socket = await open(server.port);
  return { token, server, socket, received: collect(socket, waitMs) };
}

describe('graceful shutdown', () => {
  it('a request in flight when close() starts is answered, with Connection: close; close() then resolves', async () => {
    const { token, server, socket, received } = await connected(5000);
    const body = JSON.stringify({ data: { type: 'account', name: 'In flight' } });
    // Headers and half the body now; the rest after shutdown has begun.
    socket.write(`POST /v2/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((r) => setTimeout(r, 50));
    const closed = server.close();
    await new Promise((r) => setTimeout(r, 50));
    socket.write(body.slice(10));
    const text = await received;
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 201/);
    expect(text.toLowerCase()).toContain('connection: close');
  });

  it('idle keep-alive connections are closed at once, so close() does not wait for their timeout', async () => {
    const { token, server, socket, received } = await connected(10_000);
    socket.write(`GET /v2/accounts?page[limit]=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 100));
    const started = process.hrtime.bigint();
    await server.close();
    const text = await received;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(socket.destroyed || socket.readableEnded).toBe(true);
    // Well inside the 5 s keep-alive timeout (a bound on shutdown, not a speed figure).
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(4000);
  });
});

describe('a shutdown that answers everyone', () => {
  /** A served simulator whose client `a` gets every answer `latencyMs` late. */
  async function slow(latencyMs: number, graceMs?: number) {
    const s = sim();
    const token = s.issueToken('a', 'read-write');
    const set = s.handle({ method: 'PUT', url: '/__sim/adversity?client_id=a', headers: { authorization: `Bearer ${s.adminToken}` }, body: JSON.stringify({ latency_ms: latencyMs }) });
    expect(set.status).toBe(200);
    const server = await listen(s, 0, '127.0.0.1', graceMs === undefined ? {} : { graceMs });
    return { s, token, server };
  }
  const get = (token: string) => `GET /v2/accounts?page[limit]=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`;

  it('answers held by injected latency longer than the grace go out at once, whole and with Connection: close', async () => {
    const { token, server } = await slow(60_000, 200);
    // Shutdown begins once the server has read all twenty (a loaded machine may take longer than any fixed wait).
    let read = 0;
    const allRead = new Promise<void>((done) => server.server.on('request', () => ++read === 20 && done()));
    const sockets = await Promise.all(Array.from({ length: 20 }, () => open(server.port)));
    const received = sockets.map((socket) => collect(socket, 10_000));
    for (const socket of sockets) socket.write(get(token));
    await allRead;
    await server.close();
    for (const text of await Promise.all(received)) {
      expect(text).toMatch(/^HTTP\/1\.1 200/);
      expect(text.toLowerCase()).toContain('connection: close');
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1]);
      expect(Buffer.byteLength(text.slice(text.indexOf('\r\n\r\n') + 4), 'latin1')).toBe(length);
    }
  });

  it('a request read after shutdown began gets a JSON 503 with Connection: close, not a silent close', async () => {
    // A request held open (half its body sent) keeps the port open while the other client asks.
    const { token, server } = await slow(0);
    const holder = await open(server.port);
    const held = collect(holder, 10_000);
    const body = JSON.stringify({ data: { type: 'account', name: 'Held' } });
    holder.write(`POST /v2/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    const late = await open(server.port);
    const lateText = collect(late, 10_000);
    await new Promise((r) => setTimeout(r, 50));
    const closed = server.close();
    await new Promise((r) => setTimeout(r, 50));
    late.write(get(token));
    const text = await lateText;
    expect(text).toMatch(/^HTTP\/1\.1 503/);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ errors: [{ status: 503 }] });
    holder.write(body.slice(5));
    expect(await held).toMatch(/^HTTP\/1\.1 201/);
    await closed;
  });

  it('a connection the server has not yet accepted when shutdown begins gets its 503, not a reset', async () => {
    // A busy server accepts new connections late: closing the port at once would reset those still waiting.
    const { token, server } = await slow(0);
    // Connected by the kernel in this same tick, so shutdown begins before the server has accepted it.
    const fresh = connect(server.port, '127.0.0.1');
    fresh.on('error', () => undefined);
    fresh.write(get(token));
    const text = collect(fresh, 10_000);
    const closed = server.close();
    expect(await text).toMatch(/^HTTP\/1\.1 503/);
    await closed;
  });

  it('ends within the grace when a client pipelines and never reads', async () => {
    const { token, server } = await slow(0, 300);
    const socket = await open(server.port);
    socket.pause();
    socket.write(get(token).replace('page[limit]=1', 'page[limit]=100').repeat(500));
    await new Promise((r) => setTimeout(r, 200));
    // Answers are owed that the client will never take: the grace (300 ms) ends them, well inside this bound.
    const outcome = await Promise.race([server.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 5_000))]);
    expect(outcome).toBe('closed');
    socket.destroy();
  });
});

describe('restore bodies', () => {
  /** A valid restore body of well over 1 MiB: a snapshot with thousands of written accounts. */
  function bigSnapshot(): string {
    const s = sim();
    const base = JSON.parse(s.handle({ method: 'GET', url: '/__sim/snapshot', headers: { authorization: `Bearer ${s.adminToken}` }, body: '' }).body) as { projects: Record<string, unknown>[] };
    const upserts = Array.from({ length: 12_000 }, (_, i) => ({
      id: `acc-${String(i).padStart(8, '0')}`,
      createdMs: Date.UTC(2024, 0, 1) + i,
      updatedMs: Date.UTC(2024, 0, 1) + i,
      attrs: { name: `Written ${i}`, legal_name: `Written ${i} Ltd`, registration_id: null, external_ref: null },
    }));
    const project = {
      clientId: 'big',
      settings: { page_length: 25, page_offset_limit: 10_000, filter_limit: 10 },
      adversity: (base.projects[0] as Record<string, unknown>)['adversity'],
      now: Date.UTC(2025, 0, 1),
      lists: { accounts: { upserts, deletes: [] } },
      profileInfos: {},
    };
    return JSON.stringify({ ...base, projects: [...base.projects, project], drop_projects: true });
  }

  it('a restore body over 1 MiB is taken with the admin token and refused 413 without it; other routes keep 1 MiB', async () => {
    const s = sim();
    const token = s.issueToken('a', 'read-write');
    const server = await listen(s, 0, '127.0.0.1');
    try {
      const body = bigSnapshot();
      expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_BODY_BYTES);
      const post = (path: string, bearer: string, text: string) =>
        fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: text });
      const refused = await post('/__sim/restore', token, body);
      expect(refused.status).toBe(413);
      const taken = await post('/__sim/restore', s.adminToken, body);
      expect(taken.status).toBe(200);
      const read = await fetch(`${server.baseUrl}/v2/accounts?filter=eq(name,Written 11999)`, { headers: { authorization: `Bearer ${s.issueToken('big', 'read-only')}` } });
      expect(JSON.stringify(await read.json())).toContain('Written 11999');
      expect((await post('/v2/accounts', s.adminToken, body)).status).toBe(413);
    } finally {
      await server.close();
    }
  });
});
