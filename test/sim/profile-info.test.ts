/** The password profile record (commerce-api.md §2.1, §4.1, §9; docs/api-notes.md "The password profile record", "Errors"). */
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/store/credentials.js';
import { at, expectErrorShape, harness, ids, items, profileBody, profilePath, str, type Harness } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PASSWORD = 'correct-horse-9';

function create(h: Harness, overrides: Record<string, unknown> = {}, path = profilePath(h.ids)) {
  return h.post(path, profileBody(h.ids, overrides));
}

describe('create (§4.1)', () => {
  it('answers 201 with the documented fields, the underscore type and a self link without /v2', () => {
    const h = harness();
    const res = create(h);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const data = at(res.json, 'data');
    const id = str(data, 'id');
    expect(id).toMatch(UUID);
    expect(data).toEqual({
      id,
      type: 'user_authentication_password_profile_info',
      username: 'jane.doe@example.com',
      password_profile_id: h.ids.password_profile_id,
      meta: { created_at: expect.stringMatching(ISO_MS), updated_at: expect.stringMatching(ISO_MS) },
    });
    expect(str(data, 'meta.created_at')).toBe(str(data, 'meta.updated_at'));
    const { realm_id, user_authentication_info_id } = h.ids;
    expect(at(res.json, 'links')).toEqual({
      self: `http://127.0.0.1:4747/authentication-realms/${realm_id}/user-authentication-info/${user_authentication_info_id}/user-authentication-password-profile-info/${id}`,
    });
  });

  it('accepts a trailing slash on the create path', () => {
    const h = harness();
    const res = create(h, {}, `${profilePath(h.ids)}/`);
    expect(res.status).toBe(201);
    expect(str(res.json, 'links.self')).not.toContain('/v2/');
  });

  it('accepts the hyphenated type on input and answers the underscore form', () => {
    const h = harness();
    const res = create(h, { type: 'user-authentication-password-profile-info' });
    expect(res.status).toBe(201);
    expect(at(res.json, 'data.type')).toBe('user_authentication_password_profile_info');
  });

  it('accepts the body the official SDK sends (extra white space, X-MOLTIN headers)', () => {
    const h = harness();
    const body = `{\n        "data": ${JSON.stringify(profileBody(h.ids).data)}\n      }`;
    const res = h.post(profilePath(h.ids), body, { headers: { 'X-MOLTIN-SDK-LANGUAGE': 'JS', 'X-MOLTIN-SDK-VERSION': '35.0.0', 'X-MOLTIN-APPLICATION': 'epcc sdk' } });
    expect(res.status).toBe(201);
  });

  it('never returns the password and keeps only a salted hash of it', () => {
    const h = harness();
    const res = create(h);
    expect(res.body).not.toContain(PASSWORD);
    expect(at(res.json, 'data.password')).toBeUndefined();
    const coll = h.sim.project('commerce-sim').passwordProfileInfos(h.ids.realm_id, h.ids.user_authentication_info_id);
    const record = coll?.get(str(res.json, 'data.id'));
    const credential = record?.credential ?? '';
    expect(credential).not.toContain(PASSWORD);
    expect(verifyPassword(PASSWORD, credential)).toBe(true);
    expect(verifyPassword('wrong-password', credential)).toBe(false);
  });

  it('salts: the same password twice gives two different hashes', () => {
    const h = harness();
    const a = create(h, { username: 'a@example.com' });
    const b = create(h, { username: 'b@example.com' });
    const coll = h.sim.project('commerce-sim').passwordProfileInfos(h.ids.realm_id, h.ids.user_authentication_info_id);
    const ha = coll?.get(str(a.json, 'data.id'))?.credential;
    const hb = coll?.get(str(b.json, 'data.id'))?.credential;
    expect(ha).toBeTypeOf('string');
    expect(hb).toBeTypeOf('string');
    expect(ha).not.toBe(hb);
  });

  it('gives each record its own id and moves the virtual clock per write', () => {
    const h = harness();
    const a = create(h);
    const b = create(h);
    expect(str(a.json, 'data.id')).not.toBe(str(b.json, 'data.id'));
    expect(Date.parse(str(b.json, 'data.meta.created_at'))).toBeGreaterThan(Date.parse(str(a.json, 'data.meta.created_at')));
  });

  it('accepts exactly 8 characters, counted as characters', () => {
    const h = harness();
    expect(create(h, { password: '12345678' }).status).toBe(201);
    expect(create(h, { password: '😀😀😀😀😀😀😀😀' }).status).toBe(201);
  });
});

describe('create errors (docs/api-notes.md "Errors")', () => {
  it('refuses a password of 7 characters with 400 and the min-tag detail', () => {
    const h = harness();
    const res = create(h, { password: '1234567' });
    expectErrorShape(res, 400);
    expect(at(res.json, 'errors.0.detail')).toBe("Validation failed: field 'Password' on the 'min' tag.");
  });

  it.each([
    ['type missing', { type: undefined }],
    ['password_profile_id missing', { password_profile_id: undefined }],
    ['username missing', { username: undefined }],
    ['password missing', { password: undefined }],
    ['username not a string', { username: 42 }],
    ['password not a string', { password: ['correct-horse-9'] }],
    ['password_profile_id null', { password_profile_id: null }],
    ['username empty', { username: '' }],
    ['another type', { type: 'account' }],
  ])('refuses %s with 400 and creates nothing', (_name, overrides) => {
    const h = harness();
    const body = profileBody(h.ids, overrides);
    const res = h.post(profilePath(h.ids), JSON.stringify(body));
    expectErrorShape(res, 400);
    expect(items(h.get(profilePath(h.ids)))).toHaveLength(0);
  });

  it.each([
    ['no data', { type: 'user_authentication_password_profile_info' }],
    ['data not an object', { data: 'x' }],
    ['data an array', { data: [] }],
    ['a JSON array', []],
    ['a JSON string', 'plain'],
  ])('refuses a body with %s (400)', (_name, body) => {
    const h = harness();
    expectErrorShape(h.post(profilePath(h.ids), JSON.stringify(body)), 400);
  });

  it.each(['{"data": {', '', 'not json', '{"data":{}}}'])('refuses malformed JSON %j with 400', (body) => {
    const h = harness();
    const res = h.call('POST', profilePath(h.ids), { body, headers: { 'content-type': 'application/json' } });
    expectErrorShape(res, 400);
  });

  it('answers 404 Resource not found for an unknown realm or user-authentication-info', () => {
    const h = harness();
    const { realm_id, user_authentication_info_id } = h.ids;
    const unknownRealm = `/v2/authentication-realms/00000000-0000-4000-8000-000000000000/user-authentication-info/${user_authentication_info_id}/user-authentication-password-profile-info`;
    const unknownUai = `/v2/authentication-realms/${realm_id}/user-authentication-info/00000000-0000-4000-8000-000000000000/user-authentication-password-profile-info`;
    for (const path of [unknownRealm, unknownUai]) {
      const res = h.post(path, profileBody(h.ids));
      expectErrorShape(res, 404);
      expect(at(res.json, 'errors.0.detail')).toBe('Resource not found');
    }
  });

  it('answers 404 for a user-authentication-info of another realm', () => {
    const h = harness();
    const realms = ids(h.get('/v2/authentication-realms'));
    const other = realms.find((r) => r !== h.ids.realm_id);
    expect(other).toBeDefined();
    const res = h.post(`/v2/authentication-realms/${other}/user-authentication-info/${h.ids.user_authentication_info_id}/user-authentication-password-profile-info`, profileBody(h.ids));
    expectErrorShape(res, 404);
  });
});

describe('list, get, update, delete (docs/api-notes.md "The password profile record")', () => {
  it('lists created records with pagination meta and /v2 self links, without passwords', () => {
    const h = harness();
    const created = [create(h, { username: 'a@example.com' }), create(h, { username: 'b@example.com' })].map((r) => str(r.json, 'data.id'));
    const list = h.get(profilePath(h.ids));
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual(created);
    expect(at(list.json, 'meta')).toEqual({ page: { limit: 25, offset: 0, current: 1, total: 1 }, results: { total: 2 } });
    expect(str(items(list)[0], 'links.self')).toContain('/v2/authentication-realms/');
    expect(list.body).not.toContain(PASSWORD);
    expect(list.body).not.toContain('"password"');
    expect(list.body).not.toContain('pbkdf2');
  });

  it('filters the list by username', () => {
    const h = harness();
    create(h, { username: 'a@example.com' });
    const b = str(create(h, { username: 'b@example.com' }).json, 'data.id');
    expect(ids(h.get(`${profilePath(h.ids)}?filter=eq(username,b@example.com)`))).toEqual([b]);
  });

  it('gets one record with the create fields and no password', () => {
    const h = harness();
    const made = create(h);
    const id = str(made.json, 'data.id');
    const got = h.get(`${profilePath(h.ids)}/${id}`);
    expect(got.status).toBe(200);
    expect(at(got.json, 'data')).toMatchObject(at(made.json, 'data') as object);
    expect(got.body).not.toContain(PASSWORD);
    expect(expectedNoPassword(got.json)).toBe(true);
  });

  it('updates username and password (200), moving updated_at and keeping created_at', () => {
    const h = harness();
    const made = create(h);
    const id = str(made.json, 'data.id');
    const path = `${profilePath(h.ids)}/${id}`;
    const res = h.put(path, { data: { type: 'user_authentication_password_profile_info', username: 'new@example.com', password: 'another-secret-1' } });
    expect(res.status).toBe(200);
    expect(at(res.json, 'data.username')).toBe('new@example.com');
    expect(at(res.json, 'data.meta.created_at')).toBe(at(made.json, 'data.meta.created_at'));
    expect(Date.parse(str(res.json, 'data.meta.updated_at'))).toBeGreaterThan(Date.parse(str(res.json, 'data.meta.created_at')));
    expect(res.body).not.toContain('another-secret-1');
    const record = h.sim.project('commerce-sim').passwordProfileInfos(h.ids.realm_id, h.ids.user_authentication_info_id)?.get(id);
    expect(verifyPassword('another-secret-1', record?.credential ?? '')).toBe(true);
    expect(at(h.get(path).json, 'data.username')).toBe('new@example.com');
  });

  it('refuses an update with a short password, another type or malformed JSON (400), and an unknown id (404)', () => {
    const h = harness();
    const id = str(create(h).json, 'data.id');
    const path = `${profilePath(h.ids)}/${id}`;
    expectErrorShape(h.put(path, { data: { type: 'user_authentication_password_profile_info', password: 'short' } }), 400);
    expectErrorShape(h.put(path, { data: { type: 'account', username: 'x@example.com' } }), 400);
    expectErrorShape(h.put(path, '{oops'), 400);
    expectErrorShape(h.put(`${profilePath(h.ids)}/00000000-0000-4000-8000-000000000000`, profileBody(h.ids)), 404);
  });

  it('deletes with 204 and an empty body; a later GET answers 404 and the list no longer has it', () => {
    const h = harness();
    const id = str(create(h).json, 'data.id');
    const path = `${profilePath(h.ids)}/${id}`;
    const res = h.del(path);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectErrorShape(h.get(path), 404);
    expect(ids(h.get(profilePath(h.ids)))).toEqual([]);
    expectErrorShape(h.del(path), 404);
  });
});

function expectedNoPassword(json: unknown): boolean {
  return at(json, 'data.password') === undefined;
}
