/** Traffic files in and out: HAR as browsers, Playwright and mitmproxy write it, our own writer, the kit's recordings. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { TrafficInputError } from '../../src/traffic/errors.js';
import { readTraffic, type ReadTrafficOptions } from '../../src/traffic/har/read.js';
import { openHarWriter } from '../../src/traffic/har/write.js';
import { ACCOUNTS_BODY, chromeHar, mitmproxyHar, playwrightHar, withTempDir, writeJson } from './samples.js';

async function collect(path: string, opts?: ReadTrafficOptions): Promise<TrafficEntry[]> {
  const out: TrafficEntry[] = [];
  for await (const e of readTraffic(path, opts)) out.push(e);
  return out;
}

/** The error reading `path` fails with (entries before it are read and dropped). */
async function failure(path: string, opts?: ReadTrafficOptions): Promise<TrafficInputError> {
  try {
    await collect(path, opts);
  } catch (error) {
    if (error instanceof TrafficInputError) return error;
    throw error;
  }
  throw new Error(`${path} was read without error`);
}

const entry = (over: { url?: string; method?: string; reqHeaders?: Record<string, string>; reqBody?: string; status?: number; headers?: Record<string, string>; body?: string }): TrafficEntry => ({
  exchange: toExchange(
    { method: over.method ?? 'GET', url: over.url ?? '/v2/accounts', headers: over.reqHeaders ?? { accept: 'application/json' }, ...(over.reqBody === undefined ? {} : { body: over.reqBody }) },
    { status: over.status ?? 200, headers: over.headers ?? { 'content-type': 'application/json' }, body: over.body ?? '{"data":[]}' },
  ),
  origin: 'https://api.example.com',
  startedAt: '2026-11-20T10:00:00.000Z',
  durationMs: 12.5,
  source: 'proxy #1',
});

describe('reading HAR files', () => {
  it("reads Chrome's export: origin and raw query split, pseudo-headers dropped, failed and data: entries skipped", async () => {
    await withTempDir(async (dir) => {
      const file = await writeJson(join(dir, 'shop.har'), chromeHar(), 2);
      const skipped: string[] = [];
      const entries = await collect(file, { onSkip: (source, reason) => skipped.push(`${source}: ${reason}`) });
      expect(skipped).toEqual(['shop.har entry 2: no response (status 0: net::ERR_CONNECTION_REFUSED)', 'shop.har entry 3: not an HTTP URL (data:)']);
      expect(entries.map((e) => e.source)).toEqual(['shop.har entry 1', 'shop.har entry 4']);
      const [first, image] = entries;
      expect(first?.origin).toBe('https://api.example.com');
      expect(first?.exchange.request).toEqual({
        method: 'GET',
        url: '/v2/accounts?page[limit]=2&filter=eq(name,%22Ada%20L%22)',
        headers: { host: 'api.example.com', accept: 'application/json', 'accept-language': 'en' },
      });
      expect(first?.exchange.response.headers).toEqual({ 'content-type': 'application/json', 'content-encoding': 'gzip', vary: 'Accept, Origin' });
      // The browser stored the body decoded although content-encoding says gzip: taken as it stands.
      expect(first?.exchange.response.body).toBe(ACCOUNTS_BODY);
      expect(first?.exchange.json).toEqual(JSON.parse(ACCOUNTS_BODY));
      expect(first?.startedAt).toBe('2026-11-20T10:00:01.123Z');
      expect(first?.durationMs).toBe(87.654);
      expect(
        Buffer.from(image?.exchange.response.body ?? '', 'latin1')
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    });
  });

  it("reads Playwright's attach mode: bodies from the files beside the HAR", async () => {
    await withTempDir(async (dir) => {
      const { har, files } = playwrightHar();
      for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
      const [e] = await collect(await writeJson(join(dir, 'pw.har'), har));
      expect(e?.origin).toBe('http://127.0.0.1:4747');
      expect(e?.exchange.request.body).toBe('{"data":{"type":"account","name":"Ada","legal_name":"Ada Ltd"}}');
      expect(e?.exchange.response.status).toBe(201);
      expect(e?.exchange.json).toEqual({ data: { type: 'account', id: 'a9', name: 'Ada', legal_name: 'Ada Ltd' } });
    });
  });

  it('names a missing attachment, and refuses one outside the HAR directory', async () => {
    await withTempDir(async (dir) => {
      const { har } = playwrightHar();
      const e = await failure(await writeJson(join(dir, 'pw.har'), har));
      expect(e.code).toBe('TRAFFIC_BAD_INPUT');
      expect(e.message).toMatch(/pw\.har: entry 1: request\.postData\._file 5f2b\S+ cannot be read \(ENOENT\)/);
      const text = JSON.stringify(har).replace('5f2b51ca2fdc5baa31ec02e002f69aec.json', '../secret.json');
      await writeFile(join(dir, 'up.har'), text);
      expect((await failure(join(dir, 'up.har'))).message).toMatch(/up\.har: entry 1: request\.postData\._file must name a file beside the HAR/);
    });
  });

  it("reads mitmproxy's export: default port dropped from the origin, raw query kept, compressed base64 body decoded, form params", async () => {
    await withTempDir(async (dir) => {
      const gzipBase64 = gzipSync(Buffer.from(ACCOUNTS_BODY)).toString('base64');
      const [get, post] = await collect(await writeJson(join(dir, 'flows.har'), mitmproxyHar({ gzipBase64 })));
      expect(get?.origin).toBe('https://api.example.com');
      expect(get?.exchange.request.url).toBe('/v2/accounts?page%5Blimit%5D=1&sort=id');
      expect(get?.exchange.response.body).toBe(ACCOUNTS_BODY);
      expect(get?.startedAt).toBe('2026-11-20T12:00:00.123456+00:00');
      expect(post?.exchange.request.body).toBe('grant_type=implicit&client_id=my%20app');
      expect(post?.exchange.response.body).toBe('');
      expect(post?.exchange.json).toBeUndefined();
    });
  });

  it('decodes base64 bodies still gzip, deflate or br; keeps decoded ones as they are; honours the charset', async () => {
    const body = '{"data":[{"name":"Zoë"}]}';
    const cases: [string, Buffer][] = [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
      ['gzip', Buffer.from(body)],
      ['br', Buffer.from(body)],
      ['identity', Buffer.from(body)],
    ];
    await withTempDir(async (dir) => {
      const entries = cases.map(([coding, bytes]) => ({
        request: { method: 'GET', url: 'https://api.example.com/v2/accounts', headers: [] },
        response: { status: 200, headers: [{ name: 'Content-Encoding', value: coding }], content: { mimeType: 'application/json', text: bytes.toString('base64'), encoding: 'base64' } },
      }));
      entries.push({
        request: { method: 'GET', url: 'https://api.example.com/legacy', headers: [] },
        response: {
          status: 200,
          headers: [{ name: 'Content-Type', value: 'text/plain; charset=ISO-8859-1' }],
          content: { mimeType: 'text/plain', text: Buffer.from('Zoë', 'latin1').toString('base64'), encoding: 'base64' },
        },
      });
      const read = await collect(await writeJson(join(dir, 'bodies.har'), { log: { version: '1.2', creator: { name: 't', version: '1' }, entries } }));
      expect(read.map((e) => e.exchange.response.body)).toEqual([...cases.map(() => body), 'Zoë']);
    });
  });

  it('a body that is not JSON is only text: json is undefined, no error', async () => {
    await withTempDir(async (dir) => {
      const har = {
        log: {
          version: '1.2',
          creator: { name: 't', version: '1' },
          entries: [{ request: { method: 'GET', url: 'https://h/x', headers: [] }, response: { status: 200, headers: [], content: { text: '{"data": [' } } }],
        },
      };
      const [e] = await collect(await writeJson(join(dir, 'cut.har'), har));
      expect(e?.exchange.response.body).toBe('{"data": [');
      expect(e?.exchange.json).toBeUndefined();
    });
  });

  it('an empty entries list is zero entries', async () => {
    await withTempDir(async (dir) => {
      expect(await collect(await writeJson(join(dir, 'empty.har'), { log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [] } }))).toEqual([]);
    });
  });
});

describe('malformed input', () => {
  const ok = { request: { method: 'GET', url: 'https://h/x', headers: [] }, response: { status: 200, headers: [], content: { text: '' } } };
  const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } }, null, 1);

  it.each([
    [[ok, { request: ok.request, response: { headers: [] } }], 'entry 2: response.status missing'],
    [[ok, ok, { response: ok.response }], 'entry 3: request missing'],
    [[{ request: { method: 'GET', url: '/relative' }, response: ok.response }], 'entry 1: request.url is not an absolute URL: "/relative"'],
    [[ok, { request: { ...ok.request, headers: [{ name: 'a' }] }, response: ok.response }], 'entry 2: request.headers[0] needs a name and a value'],
    [[ok, null], 'entry 2: not an object'],
    [[{ request: ok.request, response: { ...ok.response, status: '200' } }], 'entry 1: response.status is not an HTTP status: "200"'],
  ])('names the file and the entry: %#', async (entries, message) => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'traffic.har'), har(entries));
      const e = await failure(join(dir, 'traffic.har'));
      expect(e.code).toBe('TRAFFIC_BAD_INPUT');
      expect(e.message).toBe(`${join(dir, 'traffic.har')}: ${message}`);
    });
  });

  it('malformed JSON inside an entry names the entry', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'traffic.har'), har([ok, ok]).replace('"GET"', '"GET",,'));
      expect((await failure(join(dir, 'traffic.har'))).message).toMatch(/traffic\.har: entry 1: malformed JSON/);
    });
  });

  it('a file cut short gives the entries it holds, then an error naming the entry cut', async () => {
    await withTempDir(async (dir) => {
      const text = har([ok, ok, ok]);
      await writeFile(join(dir, 'cut.har'), text.slice(0, text.lastIndexOf('"request"')));
      const seen: string[] = [];
      const error = await (async () => {
        try {
          for await (const e of readTraffic(join(dir, 'cut.har'))) seen.push(e.source);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(seen).toEqual(['cut.har entry 1', 'cut.har entry 2']);
      expect(String(error)).toMatch(/cut\.har: entry 3: the file ends inside this entry/);
    });
  });

  it.each([
    ['{"foo": 1}', 'neither a HAR file (no log.entries) nor a fixture or recording of this kit'],
    ['{"log": {"version": "1.2"}}', 'not a HAR file: log.entries missing'],
    ['{"log": {"entries": {}}}', 'log.entries is not a list'],
    ['[1, 2]', 'not a HAR file (a HAR is a JSON object with log.entries)'],
    ['hello', 'not a HAR file (a HAR is a JSON object with log.entries)'],
    ['', 'empty file (a HAR is a JSON object with log.entries)'],
    ['PK\u0003\u0004rest', 'a zip archive, not a HAR (Playwright writes .zip HARs: unzip it and pass the .har inside)'],
    ['{"log": {"entries": []}} {"log": 1}', 'text after the end of the JSON'],
  ])('refuses what is not a HAR: %j', async (text, message) => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'x.json'), text);
      expect((await failure(join(dir, 'x.json'))).message).toBe(`${join(dir, 'x.json')}: ${message}`);
    });
  });

  it('a missing file, and an entry past the size limit', async () => {
    await withTempDir(async (dir) => {
      expect((await failure(join(dir, 'nope.har'))).message).toBe(`${join(dir, 'nope.har')}: cannot be read (ENOENT)`);
      const big = { ...ok, response: { ...ok.response, content: { text: 'x'.repeat(5000) } } };
      await writeFile(join(dir, 'big.har'), har([ok, big]));
      expect((await failure(join(dir, 'big.har'), { maxEntryBytes: 4096 })).message).toMatch(/big\.har: entry 2: longer than 4096 bytes, the most one entry may hold \(maxEntryBytes\)/);
    });
  });

  it('a compressed body that expands past the limit is refused, not inflated', async () => {
    await withTempDir(async (dir) => {
      const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024)).toString('base64');
      const entries = [{ ...ok, response: { status: 200, headers: [{ name: 'content-encoding', value: 'gzip' }], content: { text: bomb, encoding: 'base64' } } }];
      await writeFile(join(dir, 'bomb.har'), har(entries));
      expect((await failure(join(dir, 'bomb.har'), { maxEntryBytes: 1024 * 1024 })).message).toMatch(/bomb\.har: entry 1: response\.content: the body decompresses past 1048576 bytes/);
    });
  });
});

describe('the kit recordings as traffic', () => {
  it('reads the committed fixtures directory in its index order, and a fixture file alone', async () => {
    const entries = await collect('fixtures');
    const index = JSON.parse(await readFile('fixtures/index.json', 'utf8')) as { base_url: string; fixtures: { file: string }[] };
    expect(entries.map((e) => e.source)).toEqual(index.fixtures.map((f) => `fixtures/${f.file}`));
    expect(entries.every((e) => e.origin === index.base_url)).toBe(true);
    const token = entries.find((e) => e.source === 'fixtures/auth/token.json');
    expect(token?.exchange.request.body).toBe('grant_type=client_credentials&client_id=commerce-sim&client_secret=<client_secret>');
    expect(token?.exchange.json).toMatchObject({ token_type: 'Bearer' });
    const [alone] = await collect('fixtures/auth/token.json');
    expect(alone?.source).toBe('token.json');
    expect(alone?.origin).toBe('{base_url}');
    expect(alone?.exchange).toEqual(token?.exchange);
  });

  it('a directory of fixtures without an index is read in path order; a broken fixture is named', async () => {
    await withTempDir(async (dir) => {
      const fixture = JSON.parse(await readFile('fixtures/auth/token.json', 'utf8')) as object;
      await writeJson(join(dir, 'b.json'), fixture);
      await writeJson(join(dir, 'a.json'), fixture);
      expect((await collect(dir)).map((e) => e.source.split('/').slice(1).join('/'))).toEqual(['a.json', 'b.json']);
      await writeJson(join(dir, 'c.json'), { ...fixture, request: { method: 'GET' } });
      expect((await failure(dir)).message).toBe(`${join(dir, 'c.json')}: not a fixture of this kit: 'request' needs method, url and headers`);
    });
  });
});

describe('writing HAR files', () => {
  it('round trip: what is written reads back the same, and the file is valid HAR after every write', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'out.har');
      const written = [
        entry({ url: '/v2/accounts?page[limit]=2&filter=eq(name,%22a%20b%22)' }),
        entry({ method: 'POST', url: '/v2/accounts', reqHeaders: { 'content-type': 'application/json' }, reqBody: '{"data":{"name":"Zoë"}}', status: 201, body: '{"data":{"id":"a1"}}' }),
        entry({ status: 204, headers: {}, body: '' }),
      ];
      const writer = await openHarWriter(file, { creator: { name: 'commerce-sim', version: '0.1.0' } });
      for (const e of written) {
        await writer.write(e);
        const har = JSON.parse(await readFile(file, 'utf8')) as { log: { version: string; entries: unknown[] } };
        expect(har.log.version).toBe('1.2');
        expect(har.log.entries).toHaveLength(writer.count);
      }
      await writer.close();
      const read = await collect(file);
      expect(read).toEqual(written.map((e, i) => ({ ...e, source: `out.har entry ${i + 1}` })));
      const har = JSON.parse(await readFile(file, 'utf8')) as { log: { creator: unknown; entries: Record<string, unknown>[] } };
      expect(har.log.creator).toEqual({ name: 'commerce-sim', version: '0.1.0' });
      expect(har.log.entries[0]).toMatchObject({
        startedDateTime: '2026-11-20T10:00:00.000Z',
        time: 12.5,
        request: { url: 'https://api.example.com/v2/accounts?page[limit]=2&filter=eq(name,%22a%20b%22)', httpVersion: 'HTTP/1.1', cookies: [], headersSize: -1, bodySize: 0 },
        response: { status: 200, statusText: 'OK', content: { size: 11, mimeType: 'application/json', text: '{"data":[]}' }, redirectURL: '' },
        cache: {},
        timings: { send: 0, wait: 12.5, receive: 0 },
      });
      expect(har.log.entries[0]?.['request']).toMatchObject({
        queryString: [
          { name: 'page[limit]', value: '2' },
          { name: 'filter', value: 'eq(name,"a b")' },
        ],
      });
      expect(har.log.entries[1]?.['request']).toMatchObject({ postData: { mimeType: 'application/json', text: '{"data":{"name":"Zoë"}}' }, bodySize: 24 });
    });
  });

  it('an entry without a start time is stamped by the injected clock; an empty file closes as a valid HAR', async () => {
    await withTempDir(async (dir) => {
      const writer = await openHarWriter(join(dir, 'a.har'), { creator: { name: 't', version: '1' }, now: () => new Date('2030-01-01T00:00:00Z') });
      const { startedAt: _s, durationMs: _d, ...bare } = entry({});
      await writer.write(bare);
      await writer.close();
      const [read] = await collect(join(dir, 'a.har'));
      expect(read?.startedAt).toBe('2030-01-01T00:00:00.000Z');
      expect(read?.durationMs).toBe(0);
      const empty = await openHarWriter(join(dir, 'b.har'), { creator: { name: 't', version: '1' } });
      await empty.close();
      expect(JSON.parse(await readFile(join(dir, 'b.har'), 'utf8'))).toEqual({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [] } });
    });
  });

  it('no secret reaches the file: credential headers, token requests and responses, secret query parameters, echoes', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.sig_AbC123';
    const clientSecret = 'cs_live_9f8e7d6c5b4a';
    const password = 'correct horse battery';
    const refresh = 'rt_0123456789abcdef';
    const apiKey = 'ak_5555666677778888';
    const session = 'sess_abcdef0123456789';
    const written = [
      entry({
        method: 'POST',
        url: '/oauth/access_token',
        reqHeaders: { 'content-type': 'application/x-www-form-urlencoded' },
        reqBody: `grant_type=client_credentials&client_id=my-app&client_secret=${encodeURIComponent(clientSecret)}`,
        body: JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh }),
        headers: { 'content-type': 'application/json', 'set-cookie': `session=${session}; Path=/; HttpOnly` },
      }),
      entry({
        method: 'POST',
        url: '/oauth/access_token',
        reqHeaders: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        reqBody: `grant_type=password&username=ada&password=${encodeURIComponent(password)}`,
        body: '{}',
      }),
      entry({ url: `/v2/accounts?access_token=${token}&api_key=${apiKey}&page[limit]=2`, reqHeaders: { authorization: `Bearer ${token}`, cookie: `session=${session}; theme=dark` } }),
      entry({ method: 'POST', url: '/v2/users', reqHeaders: { 'content-type': 'application/json' }, reqBody: JSON.stringify({ data: { username: 'ada', password } }), body: '{"data":{}}' }),
      // The token echoed under a name that says nothing, after it was learned from the token response.
      entry({ body: JSON.stringify({ data: [], meta: { debug: `auth was ${token}` } }), headers: { 'content-type': 'application/json', location: `/v2/x?client_secret=${clientSecret}` } }),
    ];
    await withTempDir(async (dir) => {
      const file = join(dir, 'secrets.har');
      const writer = await openHarWriter(file, { creator: { name: 't', version: '1' } });
      for (const e of written) await writer.write(e);
      await writer.close();
      const text = await readFile(file, 'utf8');
      for (const secret of [token, clientSecret, password, refresh, apiKey, session]) {
        for (const spelling of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), new URLSearchParams({ s: secret }).toString().slice(2)]) {
          expect(text).not.toContain(spelling);
        }
      }
      const read = await collect(file);
      expect(read[0]?.exchange.request.body).toBe('grant_type=client_credentials&client_id=my-app&client_secret=[REDACTED]');
      expect(read[0]?.exchange.json).toEqual({ access_token: '[REDACTED]', token_type: 'Bearer', expires_in: 3600, refresh_token: '[REDACTED]' });
      expect(read[1]?.exchange.request.body).toBe('grant_type=password&username=ada&password=[REDACTED]');
      expect(read[2]?.exchange.request.url).toBe('/v2/accounts?access_token=[REDACTED]&api_key=[REDACTED]&page[limit]=2');
      // The credential is a keyed mark: one client's requests still tell apart from another's, the token is gone.
      expect(read[2]?.exchange.request.headers).toEqual({ authorization: expect.stringMatching(/^Bearer \[REDACTED [0-9a-f]{8}\]$/), cookie: '[REDACTED]' });
      // A password keeps its length (create.password.min-length is judged on it), not its characters.
      expect(read[3]?.exchange.request.body).toBe(JSON.stringify({ data: { username: 'ada', password: '*'.repeat(password.length) } }));
      expect(read[4]?.exchange.json).toEqual({ data: [], meta: { debug: 'auth was [REDACTED]' } });
    });
  });

  it('literal secrets given to the writer are removed wherever they appear', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.har');
      const writer = await openHarWriter(file, { creator: { name: 't', version: '1' }, secrets: ['hunter2-the-secret'] });
      await writer.write(entry({ body: '{"note":"hunter2-the-secret"}', url: '/v2/x?q=hunter2-the-secret' }));
      await writer.close();
      expect(await readFile(file, 'utf8')).not.toContain('hunter2');
    });
  });
});

describe('credential marks', () => {
  it('the same credential gets the same mark in one file, another credential another mark, and no two files share a key', async () => {
    const req = (token: string) => ({
      exchange: toExchange({ method: 'GET', url: '/v2/accounts', headers: { authorization: `Bearer ${token}` } }, { status: 200, headers: {}, body: '' }),
      origin: 'http://x',
      source: 's',
    });
    const marks = async (dir: string, name: string) => {
      const file = join(dir, name);
      const writer = await openHarWriter(file, { creator: { name: 't', version: '1' } });
      for (const t of ['token-one-aaaaaaaa', 'token-two-bbbbbbbb', 'token-one-aaaaaaaa']) await writer.write(req(t));
      await writer.close();
      return (await collect(file)).map((e) => e.exchange.request.headers?.['authorization']);
    };
    await withTempDir(async (dir) => {
      const [a1, b, a2] = await marks(dir, 'a.har');
      expect(a1).toBe(a2);
      expect(a1).not.toBe(b);
      const [other] = await marks(dir, 'b.har');
      expect(other).not.toBe(a1);
    });
  });
});
