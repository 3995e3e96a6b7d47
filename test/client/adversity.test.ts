/** The simulator's adversarial behaviours: profiles, dataset files, the admin API, and what each does to list reads. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDatasetFile } from '../../src/store/dataset-file.js';
import { DEFAULT_CLIENT_ID, Simulator } from '../../src/sim/simulator.js';
import { ADVERSITY_PROFILE_NAMES, parseAdversityPatch, resolveDataset } from '../../src/store/adversity-profiles.js';
import { NO_ADVERSITY } from '../../src/store/project.js';
import { accounts } from '../../src/store/resources.js';
import { createdId, FIXED_NOW, idsOf, insertAccount, simFor, visibleAccounts } from './helpers.js';

async function tempFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'commerce-sim-dataset-'));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('dataset profiles', () => {
  it('names every trap, and hostile switches on all of them', async () => {
    expect(ADVERSITY_PROFILE_NAMES).toEqual(
      expect.arrayContaining(['default', 'shared-timestamps', 'eventual-consistency', 'updates-during-traversal', 'inserts-during-traversal', 'deletes-during-traversal', 'rate-limited', 'hostile']),
    );
    const hostile = await resolveDataset('hostile');
    expect(hostile.profile).toBe('shared-timestamps');
    expect(hostile.burst).toBeGreaterThan(100);
    const a = hostile.adversity;
    expect([a.consistencyWindowMs, a.updatesPerRead, a.insertsPerRead, a.deletesPerRead, a.rateLimitShare].every((n) => n > 0)).toBe(true);
    expect(a.consistencyStagger).toBe(true);
    expect(a.rateLimitWindow).not.toBeNull();
    expect((await resolveDataset('default')).adversity).toEqual(NO_ADVERSITY);
  });

  it('refuses an unknown name with DATASET_UNKNOWN, listing the names', async () => {
    await expect(resolveDataset('hostle')).rejects.toMatchObject({ code: 'DATASET_UNKNOWN', message: expect.stringContaining('hostile') });
  });

  it('reads a YAML file that extends a profile and overrides fields', async () => {
    const path = await tempFile('mine.yaml', 'extends: rate-limited\naccounts: 250\nadversity:\n  rate_limit_share: 0.5\n  rate_limit_per_window: null\n  updates_per_read: 4\n');
    const d = await resolveDataset(path);
    expect(d).toMatchObject({ name: path, profile: 'default', counts: { accounts: 250 } });
    expect(d.adversity).toEqual({ ...NO_ADVERSITY, rateLimitShare: 0.5, retryAfterSeconds: 1, rateLimitWindow: null, updatesPerRead: 4 });
  });

  it('reads a JSON file with the same fields, relative to a working directory', async () => {
    const path = await tempFile('d.json', JSON.stringify({ profile: 'shared-timestamps', burst: 120, counts: { orders: 30 }, adversity: { consistency_window_ms: 5000 } }));
    const d = await resolveDataset('d.json', { cwd: join(path, '..') });
    expect(d).toMatchObject({ profile: 'shared-timestamps', burst: 120, counts: { orders: 30 } });
    expect(d.adversity.consistencyWindowMs).toBe(5000);
  });

  it.each([
    ['{"adversity": {"rate_limit_share": 2}}', 'adversity.rate_limit_share'],
    ['{"adversity": {"updates_per_reads": 1}}', 'adversity.updates_per_reads: unknown field'],
    ['{"profile": "spiky"}', 'profile'],
    ['{"burst": 0}', 'burst'],
    ['{"extends": "nope"}', 'extends'],
    ['{"adversity": {"rate_limit_per_window": {"requests": 5, "window_requests": 5}}}', 'adversity.rate_limit_per_window'],
    ['[1, 2]', 'must hold an object'],
  ])('refuses %s naming the field', async (text, where) => {
    const path = await tempFile('bad.json', text);
    await expect(resolveDataset(path)).rejects.toMatchObject({ code: 'DATASET_INVALID', message: expect.stringContaining(where) });
  });

  it('says which file could not be read or parsed', async () => {
    await expect(readDatasetFile('/nonexistent/x.yaml')).rejects.toMatchObject({ code: 'DATASET_UNREADABLE' });
    const path = await tempFile('broken.yaml', 'adversity: [unclosed\n');
    await expect(resolveDataset(path)).rejects.toMatchObject({ code: 'DATASET_INVALID', message: expect.stringContaining('broken.yaml') });
  });
});

describe('the admin API', () => {
  it('PUT /__sim/adversity sets the new behaviours and GET answers them', async () => {
    const s = await simFor('default', { seed: 1 });
    const put = s.admin('PUT', '/__sim/adversity', { consistency_stagger: true, inserts_per_read: 2, deletes_per_read: 1, rate_limit_per_window: { requests: 3, window_requests: 4 } });
    expect(put.status).toBe(200);
    const got: unknown = JSON.parse(s.admin('GET', '/__sim/adversity').body);
    expect(got).toMatchObject({ data: { consistency_stagger: true, inserts_per_read: 2, deletes_per_read: 1, rate_limit_per_window: { requests: 3, window_requests: 4 }, updates_per_read: 0 } });
    expect(s.project.adversity.rateLimitWindow).toEqual({ requests: 3, window: 4 });
  });

  it.each([{ inserts_per_read: -1 }, { consistency_stagger: 'yes' }, { rate_limit_per_window: { requests: 1 } }, { surprise: 1 }])('PUT /__sim/adversity refuses %j with 400', async (body) => {
    const s = await simFor('default', { seed: 1 });
    expect(s.admin('PUT', '/__sim/adversity', body).status).toBe(400);
  });

  it('PUT /__sim/adversity with a preset switches on a named profile, other fields on top; an unknown preset is refused', async () => {
    const s = await simFor('default', { seed: 1 });
    expect(s.admin('PUT', '/__sim/adversity', { preset: 'hostile', rate_limit_share: 0 }).status).toBe(200);
    const hostile = (await resolveDataset('hostile')).adversity;
    expect(s.project.adversity).toEqual({ ...hostile, rateLimitShare: 0 });
    expect(s.admin('PUT', '/__sim/adversity', { preset: 'default' }).status).toBe(200);
    expect(s.project.adversity).toEqual(NO_ADVERSITY);
    expect(s.admin('PUT', '/__sim/adversity', { preset: 'hostle' }).status).toBe(400);
  });

  it('parseAdversityPatch leaves out what is not given', () => {
    expect(parseAdversityPatch({ updates_per_read: 2 })).toEqual({ ok: true, value: { updatesPerRead: 2 } });
  });
});

describe('rate limiting above a request rate', () => {
  it('serves `requests` of every `window_requests` consecutive requests and answers the rest 429 with Retry-After', async () => {
    const s = await simFor('default', { seed: 2, accounts: 3 });
    s.admin('PUT', '/__sim/adversity', { rate_limit_per_window: { requests: 2, window_requests: 3 }, retry_after_seconds: 4 });
    const pattern = s.project.adversity.rateLimitWindow === null ? [] : Array.from({ length: 7 }, () => s.project.throttle());
    expect(pattern).toEqual([undefined, undefined, 4, undefined, undefined, 4, undefined]);
  });

  it('counts from when the window is set, so the same requests get the same answers', async () => {
    const statuses = async () => {
      const s = await simFor('rate-limited', { seed: 11, accounts: 3 });
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await s.target.send({ method: 'GET', url: '/v2/accounts' })).status);
      return out;
    };
    const a = await statuses();
    expect(a.filter((x) => x === 429).length).toBeGreaterThan(0);
    expect(a.filter((x) => x === 200).length).toBeGreaterThan(0);
    expect(await statuses()).toEqual(a);
  });
});

describe('eventual consistency', () => {
  it('with stagger, each new record shows after its own seeded share of the window, never later than the window', async () => {
    const s = await simFor('default', { seed: 5, accounts: 0 });
    s.admin('PUT', '/__sim/adversity', { consistency_window_ms: 10_000, consistency_stagger: true });
    const made: { id: string; at: number }[] = [];
    const shownAt = new Map<string, number>();
    const look = async () => {
      const listed = idsOf((await s.target.send({ method: 'GET', url: '/v2/accounts?page[limit]=100' })).body);
      for (const id of listed) if (!shownAt.has(id)) shownAt.set(id, s.now());
    };
    for (let i = 0; i < 40; i++) {
      const res = await insertAccount(s.target, `n${i}`);
      made.push({ id: createdId(res.body), at: s.now() });
      await look();
    }
    for (let step = 0; step <= 10; step++) {
      s.admin('POST', '/__sim/clock', { advance_ms: 1000 });
      await look();
    }
    expect(shownAt.size).toBe(40);
    for (const m of made) {
      const when = shownAt.get(m.id) ?? Infinity;
      expect(when - m.at).toBeLessThanOrEqual(10_000 + 1000);
    }
    // The trap: some record is listed while an older one is still hidden.
    const overtaken = made.some((older, i) => made.slice(i + 1).some((newer) => (shownAt.get(newer.id) ?? 0) < (shownAt.get(older.id) ?? 0)));
    expect(overtaken).toBe(true);
    // And some record waited for a good part of the window.
    expect(made.some((m) => (shownAt.get(m.id) ?? 0) - m.at >= 5000)).toBe(true);
  });
});

describe('changes between reads', () => {
  it('inserts and deletes after each list read of a seeded collection, seeded', async () => {
    const run = async () => {
      const sim = new Simulator({ seed: 3, accounts: 50, adversity: { insertsPerRead: 2, deletesPerRead: 1 }, wallClock: () => FIXED_NOW });
      const project = sim.project(DEFAULT_CLIENT_ID);
      const token = sim.issueToken(DEFAULT_CLIENT_ID, 'read-write');
      for (let i = 0; i < 5; i++) sim.handle({ method: 'GET', url: '/v2/accounts', headers: { authorization: `Bearer ${token}` }, body: '' });
      return [...project.list(accounts).values()].map((r) => r.id).sort();
    };
    const ids = await run();
    expect(ids).toHaveLength(50 + 5 * 2 - 5);
    expect(await run()).toEqual(ids);
  });

  it('never inserts into or deletes from the authentication objects', async () => {
    const s = await simFor('default', { seed: 3 });
    s.admin('PUT', '/__sim/adversity', { inserts_per_read: 3, deletes_per_read: 3 });
    const realms = s.project.realms.size;
    await s.target.send({ method: 'GET', url: '/v2/authentication-realms' });
    expect(s.project.realms.size).toBe(realms);
    expect(visibleAccounts(s.project).size).toBe(120);
  });
});
