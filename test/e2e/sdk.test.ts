/**
 * The real client test: the official @elasticpath/js-sdk, unmodified, against the simulator over HTTP.
 * Configured as docs/api-notes.md says (host 127.0.0.1:PORT, protocol http), with in-memory storage (the
 * default writes a ./localStorage directory) and Node's own fetch.
 */
import { MemoryStorageFactory, gateway, type ElasticPath } from '@elasticpath/js-sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listen, type RunningServer } from '../../src/sim/server.js';
import { Simulator, type SeededIds } from '../../src/sim/simulator.js';

let server: RunningServer;
let sim: Simulator;
let ids: SeededIds;
let port: number;

/** Every request the SDK makes, as the simulator saw it. */
const seen: { method: string; url: string; headers: Readonly<Record<string, string>>; body: string }[] = [];

beforeAll(async () => {
  sim = new Simulator({ seed: 42, wallClock: () => Date.now() });
  const handle = sim.handle.bind(sim);
  vi.spyOn(sim, 'handle').mockImplementation((req) => {
    seen.push(req);
    return handle(req);
  });
  server = await listen(sim, 0, '127.0.0.1');
  port = server.port;
  ids = sim.seededIds();
  // The SDK logs "Token status: ..." through console.info when it (re)authenticates.
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
});

afterAll(async () => {
  await server.close();
  vi.restoreAllMocks();
});

function client(clientId: string, secret?: string): ElasticPath {
  return gateway({
    client_id: clientId,
    ...(secret === undefined ? {} : { client_secret: secret }),
    host: `127.0.0.1:${port}`,
    // `protocol` is read by the SDK's Config but missing from its ConfigOptions type.
    ...{ protocol: 'http' },
    storage: new MemoryStorageFactory(),
    custom_fetch: globalThis.fetch,
    retryDelay: 1,
    retryJitter: 1,
  });
}

describe('@elasticpath/js-sdk against the simulator', () => {
  it('authenticates with client credentials', async () => {
    const ep = client('sdk-suite', 'sdk-secret');
    const auth = await ep.Authenticate();
    expect(auth.token_type).toBe('Bearer');
    expect(auth.identifier).toBe('client_credentials');
    expect(auth.access_token).toMatch(/\S{20,}/);
    expect(auth.expires).toBeGreaterThan(Math.floor(Date.now() / 1000));
  });

  it('lists accounts with Limit, Offset and Filter', async () => {
    const ep = client('sdk-suite-list', 'sdk-secret');
    const all = await ep.Accounts.Limit(100).All();
    expect(all.data).toHaveLength(100);
    const page = await ep.Accounts.Limit(5).Offset(10).All();
    expect(page.data.map((a) => a.id)).toEqual(all.data.slice(10, 15).map((a) => a.id));
    expect(page.meta.page).toEqual({ limit: 5, offset: 10, current: 3, total: 24 });
    expect(page.meta.results.total).toBe(120);

    const target = all.data[3];
    expect(target).toBeDefined();
    const filtered = await ep.Accounts.Filter({ eq: { name: target?.name ?? '' } }).All();
    expect(filtered.data.map((a) => a.id)).toEqual([target?.id]);
    expect(filtered.meta.results.total).toBe(1);

    const like = await ep.Accounts.Limit(100)
      .Filter({ like: { name: 'Acme*' } })
      .All();
    expect(like.data.length).toBeGreaterThan(0);
    expect(like.data.every((a) => a.name.startsWith('Acme'))).toBe(true);
    expect(like.meta.results.total).toBe(like.data.length);
  });

  it('changes page_length with Settings.Update, and lists follow it', async () => {
    const ep = client('sdk-suite-settings', 'sdk-secret');
    const updated = await ep.Settings.Update({ page_length: 7 });
    expect(updated.data.page_length).toBe(7);
    const page = await ep.Accounts.All();
    expect(page.data).toHaveLength(7);
    expect(page.meta.page.limit).toBe(7);
    // Another client id is another project: untouched.
    const other = await client('sdk-suite-other', 'sdk-secret').Accounts.All();
    expect(other.meta.page.limit).toBe(25);
  });

  it('creates a password profile with UserAuthenticationPasswordProfile.Create', async () => {
    const ep = client('sdk-suite-create', 'sdk-secret');
    const created = await ep.UserAuthenticationPasswordProfile.Create(ids.realm_id, ids.user_authentication_info_id, {
      data: { type: 'user_authentication_password_profile_info', password_profile_id: ids.password_profile_id, username: 'sdk.user@example.com', password: 'sdk-password-1' },
    });
    expect(created.data.type).toBe('user_authentication_password_profile_info');
    expect(created.data.username).toBe('sdk.user@example.com');
    expect(created.data.password_profile_id).toBe(ids.password_profile_id);
    expect(created.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(created)).not.toContain('sdk-password-1');
    expect(created.links.self).toBe(
      `http://127.0.0.1:${port}/authentication-realms/${ids.realm_id}/user-authentication-info/${ids.user_authentication_info_id}/user-authentication-password-profile-info/${created.data.id}`,
    );
    const got = await ep.UserAuthenticationPasswordProfile.Get(ids.realm_id, ids.user_authentication_info_id, created.data.id);
    expect(got.data.id).toBe(created.data.id);
    const list = await ep.UserAuthenticationPasswordProfile.All(ids.realm_id, ids.user_authentication_info_id);
    expect(list.data.map((p) => p.id)).toContain(created.data.id);
  });

  it('a too-short password is refused with the error array, which the SDK rejects with', async () => {
    const ep = client('sdk-suite-create', 'sdk-secret');
    const attempt = ep.UserAuthenticationPasswordProfile.Create(ids.realm_id, ids.user_authentication_info_id, {
      data: { type: 'user_authentication_password_profile_info', password_profile_id: ids.password_profile_id, username: 'short@example.com', password: 'short' },
    });
    await expect(attempt).rejects.toEqual({ errors: [expect.objectContaining({ status: 400, title: 'Bad Request' })] });
  });

  it('an implicit (read-only) client reads but cannot write', async () => {
    const ep = client('sdk-suite-implicit');
    const page = await ep.Accounts.Limit(2).All();
    expect(page.data).toHaveLength(2);
    await expect(ep.Settings.Update({ page_length: 5 })).rejects.toEqual({ errors: [expect.objectContaining({ status: 403 })] });
  });

  it('the SDK sent what docs/api-notes.md describes: form-encoded token requests, X-MOLTIN headers, JSON content type', () => {
    const token = seen.find((r) => r.url === '/oauth/access_token');
    expect(token?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const list = seen.find((r) => r.url.startsWith('/v2/accounts?'));
    expect(list?.headers['x-moltin-sdk-language']).toBe('JS');
    expect(list?.headers['content-type']).toBe('application/json');
    expect(seen.some((r) => /page\[limit\]=5&page\[offset\]=10/.test(r.url))).toBe(true);
  });
});
