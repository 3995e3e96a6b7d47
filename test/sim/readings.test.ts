/**
 * The readings of the document (src/rules/readings.ts): each rests on the document's own words, the
 * table in docs/readings.md is generated from them, and the simulator plays each one on its own,
 * decided by the engine and the serialiser, not by the kit's request classifier.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readingsMarkdown } from '../../src/cli/readings.js';
import { DEFAULT_READINGS, parseReading, READING_NAMES, READING_POINTS, readingValues, readReadingChoice, type ReadingChoice } from '../../src/rules/readings.js';
import { listen } from '../../src/sim/server.js';
import { Simulator } from '../../src/sim/simulator.js';
import type { SimResponse } from '../../src/sim/messages.js';
import { parseDatasetSpec } from '../../src/store/adversity-profiles.js';

const spec = readFileSync(new URL('../../docs/commerce-api.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe('the readings table', () => {
  it('quotes the document for every point, and offers at least two answers', () => {
    for (const name of READING_NAMES) {
      const point: { quote: string } = READING_POINTS[name];
      expect(spec.includes(point.quote), name).toBe(true);
      expect(readingValues(name).length, name).toBeGreaterThanOrEqual(2);
    }
    expect(READING_NAMES.length).toBeGreaterThanOrEqual(20);
  });

  it('docs/readings.md is what `commerce-sim readings --markdown` prints', () => {
    expect(readFileSync(new URL('../../docs/readings.md', import.meta.url), 'utf8')).toBe(readingsMarkdown());
  });

  it('reads NAME=VALUE and a dataset file member, naming what is wrong', () => {
    expect(parseReading('meta.position=top')).toEqual({ ok: true, value: { name: 'meta.position', value: 'top' } });
    expect(parseReading('meta.position=sideways')).toMatchObject({ ok: false, message: expect.stringMatching(/meta, top, nested, split/) as unknown });
    expect(parseReading('colour=red')).toMatchObject({ ok: false, message: expect.stringMatching(/unknown reading 'colour'/) as unknown });
    expect(readReadingChoice({ 'timestamps.precision': 'us' }, 'readings')).toEqual({ ok: true, value: { 'timestamps.precision': 'us' } });
    expect(readReadingChoice({ 'timestamps.precision': 'ps' }, 'readings')).toMatchObject({ ok: false, path: 'readings.timestamps.precision' });
    const file = parseDatasetSpec({ extends: 'default', readings: { links: 'absent' } }, 'f.yaml');
    expect(file.ok && file.value.readings).toEqual({ links: 'absent' });
  });
});

/** One simulator per reading combination, and a GET/POST helper with its token. */
function simulatorWith(readings: ReadingChoice) {
  const sim = new Simulator({ readings, wallClock: () => Date.UTC(2025, 0, 1) });
  const token = sim.issueToken('reader', 'read-write');
  const ids = sim.seededIds();
  const call = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}): SimResponse =>
    sim.handle({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? '' : JSON.stringify(body) });
  const create = `/v2/authentication-realms/${ids.realm_id}/user-authentication-info/${ids.user_authentication_info_id}/user-authentication-password-profile-info`;
  return { sim, call, ids, create };
}
const body = (res: SimResponse): Record<string, unknown> => JSON.parse(res.body) as Record<string, unknown>;
const first = (res: SimResponse): Record<string, unknown> => (body(res)['data'] as Record<string, unknown>[])[0] ?? {};

describe('the simulator plays each reading', () => {
  it('answers byte for byte as before under the public API readings', () => {
    const plain = new Simulator({ wallClock: () => 0 });
    const explicit = new Simulator({ readings: DEFAULT_READINGS, wallClock: () => 0 });
    const get = (s: Simulator) => s.handle({ method: 'GET', url: '/v2/accounts?page[limit]=3', headers: { authorization: `Bearer ${s.issueToken('x', 'read-write')}` }, body: '' }).body;
    expect(get(explicit)).toBe(get(plain));
  });

  it('puts page and results where meta.position says, as numbers or numeric strings', () => {
    expect(body(simulatorWith({ 'meta.position': 'top' }).call('GET', '/v2/accounts'))).toMatchObject({ page: { limit: 25 }, results: { total: 120 } });
    expect(body(simulatorWith({ 'meta.position': 'nested' }).call('GET', '/v2/accounts'))).toMatchObject({ meta: { listing: { paging: { page: { limit: 25 } } } } });
    expect(body(simulatorWith({ 'meta.position': 'split', 'meta.numbers': 'string' }).call('GET', '/v2/accounts'))).toMatchObject({ page: { limit: '25' }, meta: { results: { total: '120' } } });
  });

  it('counts pages as page.current and page.total-empty say, with or without links', () => {
    const { call } = simulatorWith({ 'page.current': 'zero-based', 'page.total-empty': 'one', links: 'absent' });
    expect(body(call('GET', '/v2/accounts?page[limit]=10&page[offset]=20'))).toMatchObject({ meta: { page: { current: 2 } } });
    const empty = body(call('GET', '/v2/accounts?filter=gt(created_at,2999-01-01T00:00:00Z)'));
    expect(empty).toMatchObject({ meta: { page: { total: 1 }, results: { total: 0 } } });
    expect(empty['links']).toBeUndefined();
    expect(first(call('GET', '/v2/accounts'))['links']).toBeUndefined();
  });

  it('shows timestamps at the precision and place the readings say, and filters at that precision', () => {
    // One store millisecond is one shown nanosecond: records 30 s apart in the seed are 30 µs apart, inside one millisecond.
    const { call } = simulatorWith({ 'timestamps.precision': 'ns', 'timestamps.placement': 'attributes' });
    const records = body(call('GET', '/v2/accounts?sort=created_at&page[limit]=100'))['data'] as { attributes: { created_at: string; name: string } }[];
    const stamps = records.map((r) => r.attributes.created_at);
    for (const s of stamps) expect(s).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    expect(records[0]?.attributes.name).toEqual(expect.any(String));
    // Neighbours a microsecond apart inside one millisecond: ge of the second leaves the first out.
    const second = stamps[1] ?? '';
    const after = body(call('GET', `/v2/accounts?sort=created_at&filter=ge(created_at,${second})&page[limit]=100`));
    expect((after['data'] as { attributes: { created_at: string } }[])[0]?.attributes.created_at).toBe(second);
    expect(after).toMatchObject({ meta: { results: { total: 119 } } });
    expect(second.slice(0, 23)).toBe((stamps[0] ?? '').slice(0, 23));
  });

  it('keeps the create response in the documented format whatever precision lists show', () => {
    const { call, create, ids } = simulatorWith({ 'timestamps.precision': 'ns' });
    const res = call('POST', create, { data: { type: 'user_authentication_password_profile_info', username: 'u', password: 'long-enough', password_profile_id: ids.password_profile_id } });
    expect(res.status).toBe(201);
    expect((body(res)['data'] as { meta: { created_at: string } }).meta.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('shows ids as ids.format says, ordered as that form orders, and reads them back in filters and paths', () => {
    const { call } = simulatorWith({ 'ids.format': 'numeric' });
    const ids = (body(call('GET', '/v2/accounts?sort=id&page[limit]=100'))['data'] as { id: string }[]).map((r) => r.id);
    for (const id of ids) expect(id).toMatch(/^\d+$/);
    for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i] ?? 0) > BigInt(ids[i - 1] ?? 0)).toBe(true);
    expect(first(call('GET', `/v2/accounts?sort=id&filter=gt(id,${ids[0] ?? ''})`))['id']).toBe(ids[1]);
    expect(body(call('GET', `/v2/accounts/${ids[0] ?? ''}`))).toMatchObject({ data: { id: ids[0] } });
    expect(call('GET', '/v2/accounts?filter=gt(id,not-an-id)').status).toBe(400);
    expect(first(simulatorWith({ 'ids.format': 'prefixed' }).call('GET', '/v2/accounts'))['id']).toMatch(/^acc_[0-9a-f]{32}$/);
  });

  it('orders an unsorted read and ties as order.unsorted and order.ties say', () => {
    const { call } = simulatorWith({ 'order.unsorted': 'newest', 'order.ties': 'id-desc' });
    const stamps = (body(call('GET', '/v2/accounts?page[limit]=100'))['data'] as { meta: { timestamps: { created_at: string } } }[]).map((r) => r.meta.timestamps.created_at);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const { sim } = simulatorWith({ 'order.ties': 'id-desc' });
    sim.reconfigure({ ...sim.settings, profile: 'shared-timestamps', burst: 30 });
    const token = sim.issueToken('t', 'read-only');
    const res = sim.handle({ method: 'GET', url: '/v2/accounts?sort=created_at&page[limit]=30', headers: { authorization: `Bearer ${token}` }, body: '' });
    const burst = (body(res)['data'] as { id: string }[]).map((r) => r.id);
    expect([...burst].sort().reverse()).toEqual(burst);
  });

  it('answers page[limit] above 100 and 0, and offsets past the limits, as the readings say', () => {
    const { call } = simulatorWith({ 'limit.above-max': 'refuse', 'limit.zero': 'default', 'offset.past-hard': 'empty', 'offset.past-soft': 'serve' });
    expect(call('GET', '/v2/accounts?page[limit]=101').status).toBe(400);
    expect(body(call('GET', '/v2/accounts?page[limit]=0'))).toMatchObject({ meta: { page: { limit: 25 } } });
    const sim = simulatorWith({ 'offset.past-hard': 'empty', 'offset.past-soft': 'serve' });
    sim.sim.reconfigure({ ...sim.sim.settings, counts: { orders: 10_100, customers: 10_100 } });
    const token = sim.sim.issueToken('o', 'read-only');
    const get = (url: string) => sim.sim.handle({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, body: '' });
    expect(body(get('/v2/orders?page[offset]=10050'))).toMatchObject({ data: [], meta: { results: { total: 10_100 } } });
    expect((body(get('/v2/customers?page[offset]=10050'))['data'] as unknown[]).length).toBe(25);
  });

  it('counts password characters, accepts or refuses the hyphenated type, and answers errors as the readings say', () => {
    const { call, create, ids } = simulatorWith({ 'password.characters': 'graphemes', 'create.hyphen-type': 'refuse', 'errors.format': 'problem-json', 'errors.validation-status': '422' });
    const post = (type: string, password: string) => call('POST', create, { data: { type, username: 'u', password, password_profile_id: ids.password_profile_id } });
    const combining = 'e\u0301e\u0301e\u0301e\u0301';
    const short = post('user_authentication_password_profile_info', combining);
    expect(short.status).toBe(422);
    expect(short.headers['content-type']).toBe('application/problem+json');
    expect(body(short)).toMatchObject({ status: 422, title: 'Unprocessable Entity' });
    expect(post('user-authentication-password-profile-info', 'long-enough').status).toBe(422);
    expect(body(simulatorWith({ 'errors.format': 'error-object' }).call('GET', '/v2/nowhere'))).toMatchObject({ error: { code: 'not_found' } });
  });

  it('serves reads without a token, hides the settings endpoint, and labels the media type, as the readings say', () => {
    const { sim, call } = simulatorWith({ 'auth.reads': 'optional', 'settings.path': 'hidden', 'media-type': 'application/vnd.api+json' });
    expect(sim.handle({ method: 'GET', url: '/v2/accounts', headers: {}, body: '' }).status).toBe(200);
    expect(sim.handle({ method: 'POST', url: '/v2/accounts', headers: {}, body: '{}' }).status).toBe(401);
    expect(call('GET', '/v2/settings').status).toBe(404);
    expect(call('GET', '/v2/accounts').headers['content-type']).toBe('application/vnd.api+json');
  });

  it('counts pages on the offset’s own grid and caps page.current at the last page, as page.grid and page.current-past-end say', () => {
    const { call } = simulatorWith({ 'page.grid': 'offset', 'page.current-past-end': 'capped' });
    // 120 records at 25 a page from offset 1: one partial page, then ceil(119 / 25) = 5.
    expect(body(call('GET', '/v2/accounts?page[limit]=25&page[offset]=1'))).toMatchObject({ meta: { page: { current: 2, total: 6 } } });
    expect(body(call('GET', '/v2/accounts?page[limit]=25&page[offset]=50'))).toMatchObject({ meta: { page: { current: 3, total: 5 } } });
    expect(body(call('GET', '/v2/accounts?page[limit]=10&page[offset]=500'))).toMatchObject({ meta: { page: { current: 12, total: 12 } } });
    expect(body(simulatorWith({}).call('GET', '/v2/accounts?page[limit]=10&page[offset]=500'))).toMatchObject({ meta: { page: { current: 51, total: 12 } } });
  });

  it('puts page and results twelve levels down under meta.position=deep, and reads page[limit]=0 as 1 under limit.zero=one', () => {
    const { call } = simulatorWith({ 'meta.position': 'deep', 'limit.zero': 'one' });
    let node: unknown = body(call('GET', '/v2/accounts?page[limit]=0'))['meta'];
    let depth = 1;
    while (typeof node === 'object' && node !== null && !('page' in node)) {
      node = Object.values(node)[0];
      depth += 1;
    }
    expect(depth).toBe(12);
    expect(node).toMatchObject({ page: { limit: 1 }, results: { total: 120 } });
  });

  it('names links at the canonical origin under links.origin=canonical, whatever address the request came to', () => {
    const { call, create, ids } = simulatorWith({ 'links.origin': 'canonical' });
    const list = body(call('GET', '/v2/accounts?page[limit]=1', undefined, { 'x-forwarded-host': 'gateway.example' }));
    expect((list['links'] as { next: string }).next).toMatch(/^https:\/\/api\.commerce\.example\/v2\/accounts\?/);
    const made = body(call('POST', create, { data: { type: 'user_authentication_password_profile_info', username: 'u', password: 'long-enough', password_profile_id: ids.password_profile_id } }));
    expect((made['links'] as { self: string }).self).toMatch(/^https:\/\/api\.commerce\.example\/authentication-realms\//);
  });

  it('shows UUIDs in upper case under ids.case=upper (the created record’s too) and reads them back in either case; ids per collection under ids.format=per-collection', () => {
    const { call, create, ids } = simulatorWith({ 'ids.case': 'upper', 'ids.format': 'per-collection' });
    const account = first(call('GET', '/v2/accounts?sort=id'));
    expect(account['id']).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(call('GET', `/v2/accounts/${String(account['id']).toLowerCase()}`).status).toBe(200);
    expect(first(call('GET', '/v2/orders'))['id']).toMatch(/^ord_[0-9a-f]{32}$/);
    expect(first(call('GET', '/v2/files'))['id']).toMatch(/^\d+$/);
    const made = body(call('POST', create, { data: { type: 'user_authentication_password_profile_info', username: 'u', password: 'long-enough', password_profile_id: ids.password_profile_id } }));
    const id = (made['data'] as { id: string }).id;
    expect(id).toBe(id.toUpperCase());
    expect(call('GET', `${create}/${id.toLowerCase()}`).status).toBe(200);
    expect(
      call(
        'GET',
        `${create.toUpperCase().replace('/V2/AUTHENTICATION-REALMS/', '/v2/authentication-realms/').replace('/USER-AUTHENTICATION-INFO/', '/user-authentication-info/').replace('/USER-AUTHENTICATION-PASSWORD-PROFILE-INFO', '/user-authentication-password-profile-info')}/${id}`,
      ).status,
    ).toBe(200);
  });

  it('refuses a username held already with 409 or 422, or creates it again, as usernames says; on update too', () => {
    const post = (s: ReturnType<typeof simulatorWith>, username: string) =>
      s.call('POST', s.create, { data: { type: 'user_authentication_password_profile_info', username, password: 'long-enough', password_profile_id: s.ids.password_profile_id } });
    for (const [reading, status] of [
      ['repeat', 201],
      ['conflict', 409],
      ['invalid', 422],
    ] as const) {
      const s = simulatorWith({ usernames: reading });
      expect(post(s, 'twice@example.com').status).toBe(201);
      expect(post(s, 'twice@example.com').status, reading).toBe(status);
      const other = body(post(s, 'other@example.com'))['data'] as { id: string };
      expect(s.call('PUT', `${s.create}/${other.id}`, { data: { type: 'user_authentication_password_profile_info', username: 'twice@example.com' } }).status, reading).toBe(
        status === 201 ? 200 : status,
      );
    }
  });

  it('refuses a create without a JSON media type with 415 under create.media-type=strict, and has no token endpoint under token.endpoint=absent', () => {
    const { sim, call, create, ids } = simulatorWith({ 'create.media-type': 'strict', 'token.endpoint': 'absent' });
    const data = { data: { type: 'user_authentication_password_profile_info', username: 'u', password: 'long-enough', password_profile_id: ids.password_profile_id } };
    expect(call('POST', create, data, { 'content-type': 'text/plain' }).status).toBe(415);
    expect(call('POST', create, data, { 'content-type': 'application/json; charset=utf-8' }).status).toBe(201);
    expect(simulatorWith({}).call('POST', create, data, { 'content-type': 'text/plain' }).status).toBe(201);
    const token = (s: Simulator) =>
      s.handle({ method: 'POST', url: '/oauth/access_token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=implicit&client_id=c' }).status;
    expect(token(sim)).toBe(404);
    expect(token(simulatorWith({}).sim)).toBe(200);
  });

  it('compresses and closes over HTTP as the readings say', async () => {
    const sim = new Simulator({ readings: { compression: 'always', connection: 'close' }, wallClock: () => Date.now() });
    const server = await listen(sim, 0, '127.0.0.1');
    try {
      const res = await fetch(`${server.baseUrl}/v2/accounts?page[limit]=1`, { headers: { authorization: `Bearer ${sim.issueToken('h', 'read-only')}`, 'accept-encoding': 'identity' } });
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('connection')).toBe('close');
      const raw = Buffer.from(await res.arrayBuffer());
      // fetch decodes gzip itself; either way the body is the JSON list.
      const text = raw[0] === 0x1f ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
      expect(JSON.parse(text)).toMatchObject({ meta: { page: { limit: 1 } } });
    } finally {
      await server.close();
    }
  });
});
