/**
 * The client rules of the create operation (§2.1, §4.1, §5, §9) on creates written out by hand: each trap
 * fails exactly its own rule (the set of failed rule ids, not "contains"), the legal creates pass every
 * rule, and the verdicts are the same whether the traffic is judged as sent, from a browser's HAR (the
 * password in clear), from the proxy's redacted HAR (the password a mark, the credential a keyed mark) or
 * from a sanitized export that dropped every Authorization header.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { openHarWriter } from '../../src/traffic/har/write.js';
import { readTraffic } from '../../src/traffic/har/read.js';
import { createTrafficJudge, type TrafficResult } from '../../src/traffic/judge/judge.js';
import { createRules } from '../../src/traffic/client-rules/create.js';

const REALM = '3f69469f-3e79-408c-a0d9-1fc0b1652e23';
const UAI = 'a2f0be85-3bea-4906-b542-9f37e7e298b6';
const PATH = `/v2/authentication-realms/${REALM}/user-authentication-info/${UAI}/user-authentication-password-profile-info`;
const CREATE_IDS = createRules.map((r) => r.meta.id);

interface Create {
  readonly path?: string;
  readonly headers?: Record<string, string>;
  /** The body as sent; default the four fields in data. */
  readonly body?: string;
  readonly data?: Record<string, unknown>;
  readonly status?: number;
}

let n = 0;
const data = (o: Record<string, unknown> = {}) => ({ type: 'user_authentication_password_profile_info', password_profile_id: 'pp-1', username: `user-${++n}`, password: 'correct-horse', ...o });

function create(c: Create = {}): TrafficEntry {
  n++;
  const body = c.body ?? JSON.stringify({ data: c.data ?? data() });
  const headers = c.headers ?? { authorization: 'Bearer tok-abcdef123456', 'content-type': 'application/json' };
  return {
    exchange: toExchange({ method: 'POST', url: c.path ?? PATH, headers, body }, { status: c.status ?? 201, headers: { 'content-type': 'application/json' }, body: '{"data":{}}' }),
    origin: 'https://api.test',
    source: `entry ${n}`,
  };
}

function judged(entries: Iterable<TrafficEntry>): TrafficResult {
  const judge = createTrafficJudge();
  for (const e of entries) judge.observe(e);
  return judge.finish();
}

async function judgedAsync(entries: AsyncIterable<TrafficEntry>): Promise<TrafficResult> {
  const judge = createTrafficJudge();
  for await (const e of entries) judge.observe(e);
  return judge.finish();
}

/** The create rules' verdicts: which failed, which were inconclusive, and how many passed each. */
function verdicts(r: TrafficResult): { failed: string[]; inconclusive: string[]; passed: Record<string, number> } {
  const failed = new Set<string>();
  const inconclusive = new Set<string>();
  const passed: Record<string, number> = {};
  for (const id of CREATE_IDS) {
    const t = r.tallies.get(id);
    if (t === undefined) throw new Error(`no tally for ${id}`);
    if (t.failed > 0) failed.add(id);
    if (t.inconclusive > 0) inconclusive.add(id);
    passed[id] = t.passed;
  }
  return { failed: [...failed].sort(), inconclusive: [...inconclusive].sort(), passed };
}

const TRAPS: readonly { readonly name: string; readonly entry: () => TrafficEntry; readonly fails: readonly string[] }[] = [
  { name: 'a 7-character password', entry: () => create({ data: data({ password: 'seven77' }) }), fails: ['client.create.password-length'] },
  { name: 'a 7-character multi-byte password', entry: () => create({ data: data({ password: 'пароль1' }) }), fails: ['client.create.password-length'] },
  { name: 'the type in the hyphenated form', entry: () => create({ data: data({ type: 'user-authentication-password-profile-info' }) }), fails: ['client.create.type'] },
  { name: 'another type', entry: () => create({ data: data({ type: 'account' }) }), fails: ['client.create.type'] },
  { name: 'no Authorization header', entry: () => create({ headers: { 'content-type': 'application/json' } }), fails: ['client.create.authorization'] },
  { name: 'the Basic scheme', entry: () => create({ headers: { authorization: 'Basic dXNlcjpwYXNz', 'content-type': 'application/json' } }), fails: ['client.create.authorization'] },
  { name: 'a token without a scheme', entry: () => create({ headers: { authorization: 'tok-abcdef123456', 'content-type': 'application/json' } }), fails: ['client.create.authorization'] },
  { name: 'Bearer with no token', entry: () => create({ headers: { authorization: 'Bearer', 'content-type': 'application/json' } }), fails: ['client.create.authorization'] },
  { name: 'no password_profile_id', entry: () => create({ data: data({ password_profile_id: undefined }) }), fails: ['client.create.fields'] },
  { name: 'a username that is a number', entry: () => create({ data: data({ username: 42 }) }), fails: ['client.create.fields'] },
  { name: 'a path without /v2', entry: () => create({ path: PATH.replace('/v2', '') }), fails: ['client.create.path'] },
  { name: 'a path with an empty realm', entry: () => create({ path: PATH.replace(REALM, '') }), fails: ['client.create.path'] },
  {
    name: 'the fields not wrapped in data',
    entry: () => create({ body: JSON.stringify({ type: 'user_authentication_password_profile_info', password_profile_id: 'pp', username: 'u-flat', password: 'correct-horse' }) }),
    fails: ['client.create.body'],
  },
  { name: 'a member beside data', entry: () => create({ body: JSON.stringify({ data: data(), meta: {} }) }), fails: ['client.create.body'] },
  { name: 'a body that is not JSON', entry: () => create({ body: 'username=u&password=correct-horse' }), fails: ['client.create.body'] },
  { name: 'no Content-Type (assumed)', entry: () => create({ headers: { authorization: 'Bearer tok-abcdef123456' } }), fails: ['client.create.content-type'] },
  { name: 'text/plain (assumed)', entry: () => create({ headers: { authorization: 'Bearer tok-abcdef123456', 'content-type': 'text/plain' } }), fails: ['client.create.content-type'] },
];

const LEGAL: readonly { readonly name: string; readonly entry: () => TrafficEntry }[] = [
  { name: 'the create as the document shows it', entry: () => create() },
  { name: 'with the trailing slash', entry: () => create({ path: `${PATH}/` }) },
  { name: 'with ; charset=utf-8', entry: () => create({ headers: { authorization: 'Bearer tok-abcdef123456', 'content-type': 'application/json; charset=utf-8' } }) },
  { name: 'an 8-character accented password', entry: () => create({ data: data({ password: 'pässwörd' }) }) },
  { name: 'an 8-character CJK password', entry: () => create({ data: data({ password: '密码密码密码密码' }) }) },
  { name: '8 emoji (16 code units)', entry: () => create({ data: data({ password: '🔑'.repeat(8) }) }) },
  { name: 'the scheme in lower case', entry: () => create({ headers: { authorization: 'bearer tok-abcdef123456', 'content-type': 'application/json' } }) },
  { name: 'under a base path', entry: () => create({ path: `/commerce${PATH}` }) },
  { name: 'a refused create (404 of an unknown realm) is still a legal request', entry: () => create({ status: 404 }) },
];

describe('client rules of the create operation', () => {
  it.each(TRAPS)('$name fails exactly its rule', ({ entry, fails }) => {
    const v = verdicts(judged([entry()]));
    expect(v.failed).toEqual([...fails].sort());
    expect(v.inconclusive).toEqual([]);
  });

  it.each(LEGAL)('$name passes every create rule', ({ entry }) => {
    const v = verdicts(judged([entry()]));
    expect(v).toEqual({ failed: [], inconclusive: [], passed: Object.fromEntries(CREATE_IDS.map((id) => [id, 1])) });
  });

  it('passes repeated creates with distinct usernames, each judged', () => {
    const v = verdicts(judged([create(), create(), create()]));
    expect(v).toEqual({ failed: [], inconclusive: [], passed: Object.fromEntries(CREATE_IDS.map((id) => [id, 3])) });
  });

  it('is inconclusive, not failed, on a password short under one reading of “character” and long enough under another', () => {
    // 7 emoji: 7 graphemes and code points, 14 UTF-16 code units.
    const v = verdicts(judged([create({ data: data({ password: '🔑'.repeat(7) }) })]));
    expect(v.failed).toEqual([]);
    expect(v.inconclusive).toEqual(['client.create.password-length']);
  });

  it('judges no rule of the operation on other POSTs', () => {
    const post: TrafficEntry = {
      exchange: toExchange({ method: 'POST', url: '/v2/accounts', headers: {}, body: '{"type":"account"}' }, { status: 201, headers: {}, body: '{}' }),
      origin: 'https://api.test',
      source: 'entry x',
    };
    const r = judged([post]);
    for (const id of CREATE_IDS) expect(r.tallies.get(id), id).toEqual({ passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
  });
});

function passwordOf(body: string): string | undefined {
  try {
    const pw: unknown = (JSON.parse(body) as { data?: { password?: unknown } }).data?.password;
    return typeof pw === 'string' ? pw : undefined;
  } catch {
    return /password=([^&]*)/.exec(body)?.[1];
  }
}

describe('evidence survives redaction', () => {
  const traffic = (): TrafficEntry[] => [
    ...TRAPS.map((t) => t.entry()),
    ...LEGAL.map((l) => l.entry()),
    create({ data: data({ password: '🔑'.repeat(7) }) }),
    create({ data: data({ password: 'e\u0301'.repeat(7) }) }),
  ];

  /** The HAR a browser exports: absolute URLs, the password in clear, every header as sent. */
  async function browserHar(dir: string, entries: readonly TrafficEntry[], dropAuthorization = false): Promise<string> {
    const file = join(dir, 'browser.har');
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'Firefox', version: '140.0' },
        entries: entries.map((e, i) => ({
          startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          time: 5,
          request: {
            method: e.exchange.request.method,
            url: `https://api.test${e.exchange.request.url}`,
            httpVersion: 'HTTP/2',
            headers: Object.entries(e.exchange.request.headers ?? {})
              .filter(([k]) => !(dropAuthorization && k === 'authorization'))
              .map(([name, value]) => ({ name: name.replace(/^./, (c) => c.toUpperCase()), value })),
            queryString: [],
            cookies: [],
            headersSize: -1,
            bodySize: e.exchange.request.body?.length ?? 0,
            postData: { mimeType: e.exchange.request.headers?.['content-type'] ?? '', text: e.exchange.request.body ?? '' },
          },
          response: {
            status: e.exchange.response.status,
            statusText: '',
            httpVersion: 'HTTP/2',
            headers: [{ name: 'Content-Type', value: 'application/json' }],
            cookies: [],
            content: { size: e.exchange.response.body.length, mimeType: 'application/json', text: e.exchange.response.body },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
          },
          cache: {},
          timings: { send: 0, wait: 5, receive: 0 },
        })),
      },
    };
    await writeFile(file, JSON.stringify(har));
    return file;
  }

  it('gives the same verdicts from the proxy’s redacted HAR as from the traffic as sent and a browser’s HAR in clear', async () => {
    const entries = traffic();
    const sent = verdicts(judged(entries));
    const dir = await mkdtemp(join(tmpdir(), 'create-redaction-'));
    try {
      const file = join(dir, 'proxy.har');
      const writer = await openHarWriter(file, { creator: { name: 'commerce-sim proxy', version: '1' } });
      for (const e of entries) await writer.write(e);
      await writer.close();
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(file, 'utf8');
      // The secrets are gone: no password and no token of the traffic is in the file.
      for (const e of entries) {
        const pw = passwordOf(e.exchange.request.body ?? '');
        if (pw !== undefined && pw.length >= 6) expect(text).not.toContain(JSON.stringify(pw).slice(1, -1));
      }
      expect(text).not.toContain('tok-abcdef123456');
      expect(text).not.toContain('dXNlcjpwYXNz');
      const fromProxy = verdicts(await judgedAsync(readTraffic(file)));
      const fromBrowser = verdicts(await judgedAsync(readTraffic(await browserHar(dir, entries))));
      expect(fromProxy).toEqual(sent);
      expect(fromBrowser).toEqual(sent);
      // And the verdicts are the ones the traps and legal creates call for.
      expect(sent.failed).toEqual([...new Set(TRAPS.flatMap((t) => t.fails))].sort());
      expect(sent.inconclusive).toEqual(['client.create.password-length']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('holds a missing Authorization header inconclusive in a capture that dropped them all, and failed once the capture has shown one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'create-sanitized-'));
    try {
      const sanitized = verdicts(await judgedAsync(readTraffic(await browserHar(dir, [create(), create()], true))));
      expect(sanitized.failed).toEqual([]);
      expect(sanitized.inconclusive).toEqual(['client.create.authorization']);
      const shown = verdicts(await judgedAsync(readTraffic(await browserHar(dir, [create(), create({ headers: { 'content-type': 'application/json' } })]))));
      expect(shown.failed).toEqual(['client.create.authorization']);
      expect(shown.inconclusive).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * What a report says of each trap, word for word: the finding's message, expected and actual, with the
 * values the traffic sent and the words of the rule's sentence (commerce-api.md §2.1, §4.1, §5, §9).
 */
describe('the findings a report shows for a create', () => {
  const SHAPE = '/v2/authentication-realms/<realm_id>/user-authentication-info/<user_authentication_info_id>/user-authentication-password-profile-info';
  const FIELDS = 'data.type: string, data.password_profile_id: string, data.username: string, data.password: string';
  const BODY = '{"data": {type, password_profile_id, username, password}}';
  const AUTH = { authorization: 'Bearer tok-abcdef123456', 'content-type': 'application/json' };
  type Seen = { ruleId: string; status: string; message: string; expected?: unknown; actual?: unknown };
  const seen = (entry: TrafficEntry): Seen[] =>
    judged([entry])
      .findings.filter((f) => f.party === 'client')
      .map((f) => ({ ruleId: f.ruleId, status: f.status, message: f.message, expected: f.status === 'fail' ? f.expected : undefined, actual: f.status === 'fail' ? f.actual : undefined }))
      .sort((a, b) => a.ruleId.localeCompare(b.ruleId));
  const fail = (ruleId: string, what: string, expected: unknown, actual: unknown, path = PATH): Seen => ({ ruleId, status: 'fail', message: `POST ${path}: ${what}`, expected, actual });
  const unsure = (ruleId: string, why: string): Seen => ({ ruleId, status: 'inconclusive', message: `POST ${PATH}: ${why}` });
  const bodyRules = ['client.create.body', 'client.create.fields', 'client.create.password-length', 'client.create.type'];
  const withBody = (body: string, headers: Record<string, string> = AUTH) => create({ body, headers });

  it.each([
    [
      'a 7-character password',
      () => create({ data: data({ password: 'seven77' }) }),
      [fail('client.create.password-length', 'a 7-character password', 'at least 8 characters', '7 graphemes, 7 code-points, 7 code-units')],
    ],
    [
      'the hyphenated type',
      () => create({ data: data({ type: 'user-authentication-password-profile-info' }) }),
      [fail('client.create.type', 'data.type is "user-authentication-password-profile-info"', 'user_authentication_password_profile_info', 'user-authentication-password-profile-info')],
    ],
    // A long type is shown in its first 80 characters of JSON: the quote and 79 of its letters.
    [
      'a 100-letter type',
      () => create({ data: data({ type: 'x'.repeat(100) }) }),
      [fail('client.create.type', `data.type is "${'x'.repeat(79)}`, 'user_authentication_password_profile_info', 'x'.repeat(100))],
    ],
    [
      'no Authorization header',
      () => create({ headers: { 'content-type': 'application/json' } }),
      [fail('client.create.authorization', 'a create without an Authorization header', 'Authorization: Bearer <token>', 'no Authorization header')],
    ],
    [
      'the Basic scheme',
      () => create({ headers: { ...AUTH, authorization: 'Basic dXNlcjpwYXNz' } }),
      [fail('client.create.authorization', 'an Authorization header of the Basic scheme', 'Bearer <token>', 'Basic ...')],
    ],
    [
      'a token without a scheme',
      () => create({ headers: { ...AUTH, authorization: 'tok-abcdef123456' } }),
      [fail('client.create.authorization', 'an Authorization header without the Bearer scheme', 'Bearer <token>', 'a credential without a scheme')],
    ],
    ['Bearer with no token', () => create({ headers: { ...AUTH, authorization: 'Bearer' } }), [fail('client.create.authorization', 'Bearer with no token after it', 'Bearer <token>', 'Bearer')]],
    [
      'a credential redacted whole',
      () => create({ headers: { ...AUTH, authorization: '[REDACTED]' } }),
      [unsure('client.create.authorization', 'the Authorization header was redacted whole, its scheme with it')],
    ],
    [
      'no password_profile_id',
      () => create({ data: data({ password_profile_id: undefined }) }),
      [fail('client.create.fields', 'data.password_profile_id missing', FIELDS, 'data.password_profile_id missing')],
    ],
    [
      'a null password and a numeric username',
      () => create({ data: data({ password: null, username: 42 }) }),
      [fail('client.create.fields', 'data.password missing; data.username not a string', FIELDS, 'data.password missing; data.username not a string')],
    ],
    [
      'a path without /v2',
      () => create({ path: PATH.replace('/v2', '') }),
      [fail('client.create.path', `a create on a path that is not ${SHAPE}`, SHAPE, PATH.replace('/v2', ''), PATH.replace('/v2', ''))],
    ],
    ['the fields not wrapped in data', () => withBody(JSON.stringify(data())), [fail('client.create.body', 'no data member', BODY, 'no data member')]],
    ['data a string', () => withBody('{"data":"u"}'), [fail('client.create.body', 'a data member that is not an object', BODY, 'a data member that is not an object')]],
    ['a JSON array', () => withBody('[{"data":{}}]'), [fail('client.create.body', 'a JSON array, not an object', BODY, 'a JSON array, not an object')]],
    ['a JSON string', () => withBody('"data"'), [fail('client.create.body', 'a JSON string, not an object', BODY, 'a JSON string, not an object')]],
    ['a body that is not JSON', () => withBody('username=u&password=correct-horse'), [fail('client.create.body', 'a body that is not JSON', BODY, 'a body that is not JSON')]],
    // Six members beside data: the first five are named.
    [
      'six members beside data',
      () => withBody(JSON.stringify({ data: data(), meta: {}, a: 1, b: 2, c: 3, d: 4, e: 5 })),
      [fail('client.create.body', 'members beside data (meta, a, b, c, d)', BODY, 'members beside data (meta, a, b, c, d)')],
    ],
    ['no body', () => withBody(''), [fail('client.create.body', 'no body', BODY, 'no body')]],
    ['a body of blanks', () => withBody(' \n '), [fail('client.create.body', 'no body', BODY, 'no body')]],
    ['no body and Content-Length: 0', () => withBody('', { ...AUTH, 'content-length': '0' }), [fail('client.create.body', 'no body', BODY, 'no body')]],
    ['no body kept, Content-Length: 120', () => withBody('', { ...AUTH, 'content-length': '120' }), bodyRules.map((id) => unsure(id, 'the traffic holds no text of its body, though one was sent'))],
    [
      'no body kept, Transfer-Encoding: chunked',
      () => withBody('', { ...AUTH, 'Transfer-Encoding': 'chunked' }),
      bodyRules.map((id) => unsure(id, 'the traffic holds no text of its body, though one was sent')),
    ],
    ['a body the observer cut', () => ({ ...create(), truncated: true as const }), bodyRules.map((id) => unsure(id, 'the observer kept only the first bytes of its body'))],
    ['a password redacted without its length', () => create({ data: data({ password: '<password>' }) }), [unsure('client.create.password-length', 'the password was redacted without its length')]],
    [
      '7 emoji (14 code units)',
      () => create({ data: data({ password: '🔑'.repeat(7) }) }),
      [unsure('client.create.password-length', 'the password is 7 graphemes, 7 code-points, 14 code-units: short under one reading of “character” and not under another')],
    ],
    [
      'no Content-Type (assumed)',
      () => create({ headers: { authorization: 'Bearer tok-abcdef123456' } }),
      [fail('client.create.content-type', 'a create body without a Content-Type', 'application/json', 'no Content-Type')],
    ],
    ['text/plain (assumed)', () => create({ headers: { ...AUTH, 'content-type': 'text/plain' } }), [fail('client.create.content-type', 'Content-Type text/plain', 'application/json', 'text/plain')]],
  ] as const)('%s', (_name, entry, findings) => {
    expect(seen(entry())).toEqual([...findings].sort((a, b) => a.ruleId.localeCompare(b.ruleId)));
  });

  it('a capture that has shown no Authorization header holds a create without one inconclusive, saying why', () => {
    const entry: TrafficEntry = { ...create({ headers: { 'content-type': 'application/json' } }), headersMayBeStripped: true };
    expect(seen(entry)).toEqual([unsure('client.create.authorization', 'no Authorization header, in a capture that has shown none on any request so far (a sanitized export removes them)')]);
  });

  it('a GET of the collection is no create: no create rule judges it', () => {
    const get: TrafficEntry = { ...create(), exchange: toExchange({ method: 'GET', url: PATH, headers: {} }, { status: 200, headers: {}, body: '{"data":[]}' }) };
    const r = judged([get]);
    for (const id of CREATE_IDS) expect(r.tallies.get(id), id).toEqual({ passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
  });
});
