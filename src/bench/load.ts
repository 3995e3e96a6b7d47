/**
 * A closed-loop load generator: N keep-alive connections, each sending its next request as soon as the
 * last answer has arrived. It is a bare HTTP/1.1 client on node:net (it reads the status line and
 * Content-Length, and skips the body) so that on a 2-core machine the servers, not the client, are what
 * gets measured. Both servers of a comparison are loaded with it.
 */
import { connect, type Socket } from 'node:net';

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

const HEADER_END = Buffer.from('\r\n\r\n');

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const url = new URL(spec.origin);
  const fixed =
    Object.entries(spec.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') + `host: ${url.host}\r\n`;
  let requests = 0;
  let non2xx = 0;
  let i = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(spec.seconds * 1e9));

  const connection = () =>
    new Promise<void>((resolve, reject) => {
      const socket: Socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
      let pending: Buffer = Buffer.alloc(0);
      let bodyLeft = -1;
      const send = () => {
        if (process.hrtime.bigint() >= deadline) {
          socket.end();
          resolve();
          return;
        }
        const r = spec.request(i++);
        const body = r.body ?? '';
        const length = r.body === undefined ? '' : `content-length: ${Buffer.byteLength(body)}\r\n`;
        socket.write(`${r.method} ${r.path} HTTP/1.1\r\n${fixed}${length}\r\n${body}`);
      };
      socket.on('connect', send);
      socket.on('error', reject);
      // The server closed it (Connection: close, shutdown): this connection is done, not pending for ever.
      socket.on('close', () => resolve());
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        for (;;) {
          if (bodyLeft < 0) {
            const end = pending.indexOf(HEADER_END);
            if (end < 0) return;
            const head = pending.toString('latin1', 0, end);
            const status = Number(head.slice(9, 12));
            if (status < 200 || status >= 300) non2xx++;
            const match = /\r\ncontent-length:\s*(\d+)/i.exec(head);
            bodyLeft = match === null ? 0 : Number(match[1]);
            pending = pending.subarray(end + 4);
          }
          if (pending.length < bodyLeft) return;
          pending = pending.subarray(bodyLeft);
          bodyLeft = -1;
          requests++;
          send();
        }
      });
    });

  await Promise.all(Array.from({ length: spec.connections }, connection));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { requests, seconds, perSecond: requests / seconds, non2xx };
}
