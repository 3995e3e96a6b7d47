/**
 * The raw node:http baseline: the same records in a sorted array, sliced and JSON.stringify'd per request,
 * with no auth, no query grammar, no links and no caching. What the simulator is measured against.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonObject } from '../engine/json.js';

export interface PlainAccount {
  readonly id: string;
  readonly type: 'account';
  readonly name: string | null;
  readonly legal_name: string | null;
  readonly registration_id: string | null;
  readonly external_ref: string | null;
  readonly parent_id: null;
  readonly meta: { readonly timestamps: { readonly created_at: string; readonly updated_at: string } };
  readonly links: { readonly self: string };
}

const dataOf = (body: unknown): Record<string, unknown> => (isJsonObject(body) && isJsonObject(body['data']) ? body['data'] : {});

/** `records` sorted by id. Understands `/accounts?limit=&offset=` and `/accounts?after=<id>&limit=` (binary search, like the simulator). */
export async function startBaseline(records: readonly PlainAccount[]): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 25));
    let start = Number(url.searchParams.get('offset') ?? 0);
    const after = url.searchParams.get('after');
    if (after !== null) {
      let lo = 0;
      let hi = records.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((records[mid] as PlainAccount).id <= after) lo = mid + 1;
        else hi = mid;
      }
      start = lo;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body =
        req.method === 'POST'
          ? JSON.stringify({ data: { ...dataOf(JSON.parse(Buffer.concat(chunks).toString('utf8'))), id: 'x' } })
          : JSON.stringify({ data: records.slice(start, start + limit), meta: { page: { limit, offset: start }, results: { total: records.length } } });
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
