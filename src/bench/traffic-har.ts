/**
 * Large HAR files for the traffic reader's bench and its bounded-memory test: `count` list reads with
 * bodies of about `bodyBytes`, written as a stream (never whole in memory). Every tenth record carries escaped
 * quotes, a backslash and non-ASCII text, so the reader's scanner meets what real bodies hold.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** An account as the simulator serves it; every tenth name has quotes, a backslash and non-ASCII letters. */
function record(i: number): unknown {
  const id = `${(0x10000000 + i).toString(16)}-f3a8-47bd-af5b-e276b052cf64`;
  return {
    id,
    type: 'account',
    name: i % 10 === 0 ? `Zoë "Echo" \\ Traders ${i}` : `Echo Traders ${i}`,
    legal_name: `Echo Traders ${i} Ltd`,
    registration_id: `REG-${String(i).padStart(8, '0')}`,
    external_ref: `ext-${(i * 2654435761) % 4294967296}`,
    parent_id: null,
    meta: { timestamps: { created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:01:30.000Z' } },
    links: { self: `https://api.example.com/v2/accounts/${id}` },
  };
}

/** A HAR of `count` list reads of about `bodyBytes` each, written as a stream (never whole in memory). */
export async function writeLargeHar(file: string, count: number, bodyBytes: number): Promise<void> {
  const out = createWriteStream(file);
  const perPage = Math.max(1, Math.round(bodyBytes / JSON.stringify(record(0)).length));
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"pages":[],"entries":[');
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ data: Array.from({ length: perPage }, (_, k) => record(i * perPage + k)), meta: { page: { current: i + 1 } } });
    const entry = {
      startedDateTime: '2026-11-20T10:00:00.000Z',
      time: 12.5,
      request: {
        method: 'GET',
        url: `https://api.example.com/v2/accounts?page[limit]=${perPage}&page[offset]=${i * perPage}`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'accept', value: 'application/json' }],
        queryString: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'content-type', value: 'application/json' }],
        content: { size: body.length, mimeType: 'application/json', text: body },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 12.5, receive: 0 },
    };
    await write(`${i === 0 ? '' : ','}\n${JSON.stringify(entry)}`);
  }
  await write('\n]}}\n');
  out.end();
  await once(out, 'finish');
}
