/** Who gets a token and what a client id may cost (issue 10): registered clients, bounded projects. */
import { describe, expect, it } from 'vitest';
import { readClients } from '../../src/sim/clients.js';
import { at, expectErrorShape, harness, str } from './helpers.js';

const registry = (() => {
  const r = readClients({
    clients: [
      { client_id: 'ci', client_secret: 'a-long-enough-secret-1', scopes: ['read-write', 'read-only'] },
      { client_id: 'reader', client_secret: 'a-long-enough-secret-2', scopes: ['read-only'] },
    ],
  });
  if (!r.ok) throw new Error(r.message);
  return r.value;
})();

const form = (fields: Record<string, string>) => ({ token: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

describe('registered clients (--clients)', () => {
  const h = harness({ clients: registry });
  const ask = (fields: Record<string, string>) => h.call('POST', '/oauth/access_token', form(fields));

  it('a registered client with its secret gets a read-write token that works', () => {
    const res = ask({ grant_type: 'client_credentials', client_id: 'ci', client_secret: 'a-long-enough-secret-1' });
    expect(res.status).toBe(200);
    expect(h.get('/v2/accounts', { token: str(res.json, 'access_token') }).status).toBe(200);
  });

  it.each([
    ['an unknown client id', { grant_type: 'client_credentials', client_id: 'stranger', client_secret: 'a-long-enough-secret-1' }],
    ['a wrong secret', { grant_type: 'client_credentials', client_id: 'ci', client_secret: 'a-long-enough-secret-X' }],
    ['no secret', { grant_type: 'client_credentials', client_id: 'ci' }],
    ['a grant the client may not use', { grant_type: 'client_credentials', client_id: 'reader', client_secret: 'a-long-enough-secret-2' }],
    ['the implicit grant for an unknown client', { grant_type: 'implicit', client_id: 'stranger' }],
  ])('%s answers 401 and makes no project', (_name, fields) => {
    const before = h.sim.projectIds();
    const res = ask(fields);
    expectErrorShape(res, 401);
    expect(res.body).not.toContain('a-long-enough-secret');
    expect(h.sim.projectIds()).toEqual(before);
  });

  it('the open mode (no registry) still gives any client id a token', () => {
    const open = harness();
    expect(open.call('POST', '/oauth/access_token', form({ grant_type: 'client_credentials', client_id: 'anyone', client_secret: 'x' })).status).toBe(200);
  });

  it.each([
    [{}, 'clients'],
    [{ clients: [] }, 'clients'],
    [{ clients: [{ client_id: 'a', client_secret: 'short' }] }, 'clients.0.client_secret'],
    [{ clients: [{ client_id: '', client_secret: 'a-long-enough-secret' }] }, 'clients.0.client_id'],
    [{ clients: [{ client_id: 'a', client_secret: 'a-long-enough-secret', scopes: ['admin'] }] }, 'clients.0.scopes'],
    [
      {
        clients: [
          { client_id: 'a', client_secret: 'a-long-enough-secret' },
          { client_id: 'a', client_secret: 'a-long-enough-secret' },
        ],
      },
      'clients.1.client_id',
    ],
  ])('a clients file %j is refused at %s', (value, path) => {
    const r = readClients(value);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.path).toBe(path);
  });
});

describe('projects are bounded (--max-projects)', () => {
  it('past the maximum the least recently used project is forgotten: its client starts afresh, the others keep their writes', () => {
    // The harness's own client id (commerce-sim) is the fourth project.
    const h = harness({ maxProjects: 4 });
    const tokens = ['a', 'b', 'c'].map((id) => h.sim.issueToken(id, 'read-write'));
    const [a, b, c] = tokens as [string, string, string];
    for (const t of tokens) expect(h.post('/v2/accounts', { data: { type: 'account', name: 'Mine' } }, { token: t }).status).toBe(201);
    h.get('/v2/accounts', { token: a });
    h.get('/v2/accounts'); // a and commerce-sim are now the most recently used; b the least
    const d = h.sim.issueToken('d', 'read-write');
    expect(h.sim.projectIds()).toEqual(['a', 'c', 'commerce-sim', 'd']);
    expect(at(h.admin('GET', '/__sim/state').json, 'data.evicted_projects')).toBe(1);
    const mine = (t: string) => JSON.stringify(h.get('/v2/accounts?filter=eq(name,Mine)', { token: t }).json).includes('"Mine"');
    expect(mine(a)).toBe(true);
    expect(mine(c)).toBe(true);
    // b's token still works; its project is made again from the seed, without b's write.
    expect(mine(b)).toBe(false);
    expect(mine(d)).toBe(false);
    expect(h.sim.projectIds()).toHaveLength(4);
  });

  it('a thousand client ids asking for tokens leave at most --max-projects projects', () => {
    const h = harness({ maxProjects: 10 });
    for (let i = 0; i < 1000; i++) h.call('POST', '/oauth/access_token', form({ grant_type: 'implicit', client_id: `c${i}` }));
    expect(h.sim.projectIds().length).toBeLessThanOrEqual(10);
  });

  it('a project writes at most --max-project-records records; past it creates answer 422, reads and updates keep working', () => {
    const h = harness({ maxProjectRecords: 3 });
    for (let i = 0; i < 3; i++) expect(h.post('/v2/accounts', { data: { type: 'account', name: `N${i}` } }).status).toBe(201);
    expectErrorShape(h.post('/v2/accounts', { data: { type: 'account', name: 'One too many' } }), 422);
    expect(h.get('/v2/accounts').status).toBe(200);
    h.admin('POST', '/__sim/reset');
    expect(h.post('/v2/accounts', { data: { type: 'account', name: 'After reset' } }).status).toBe(201);
  });
});
