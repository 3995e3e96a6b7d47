/**
 * The shape a restore body may have (sim/snapshot.ts): deep enough and with values enough for the fullest
 * snapshot a record budget holds, and no more; and the restore body limit that budget sets.
 */
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from '../../src/engine/json-shape.js';
import { MAX_BODY_BYTES, RESTORE_MAX_BODY_BYTES, restoreBodyLimit } from '../../src/sim/messages.js';
import { SNAPSHOT_DEPTH, snapshotShapeLimits } from '../../src/sim/snapshot.js';
import { listResources } from '../../src/store/resources.js';
import { harness, ids, profileBody, profilePath } from './helpers.js';

type Snap = { version: number; options: Record<string, unknown>; projects: Record<string, unknown>[] };
type Delta = { upserts: Record<string, unknown>[]; deletes: string[] };

const snapshotOf = (h: ReturnType<typeof harness>): Snap => JSON.parse(h.admin('GET', '/__sim/snapshot').body) as Snap;

describe('the shape of a snapshot', () => {
  it('the limits fit the fullest snapshot: every adversity field, 100 path latencies, every list, profile infos, deletes', () => {
    const h = harness({ accounts: 20 });
    const other = h.sim.issueToken('other', 'read-write');
    const latencies = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`/v2/path-${i}`, i]));
    const adversity = {
      consistency_window_ms: 5,
      consistency_stagger: true,
      updates_per_read: 1,
      inserts_per_read: 1,
      deletes_per_read: 1,
      rate_limit_share: 0,
      retry_after_seconds: 2,
      rate_limit_per_window: { requests: 5, window_requests: 6 },
      latency_ms: 1,
      latency_jitter_ms: 1,
      error_share: 0,
      reset_share: 0,
      truncate_share: 0,
      fault_path: '/v2/nowhere',
    };
    expect(h.admin('PUT', '/__sim/adversity', adversity).status).toBe(200);
    expect(h.admin('PUT', '/__sim/adversity?client_id=other', { latency_by_path: latencies }).status).toBe(200);
    h.post('/v2/accounts', { data: { type: 'account', name: 'n'.repeat(255), legal_name: 'l', registration_id: 'r', external_ref: 'e' } }, { token: other });
    const seeded = ids(h.get('/v2/accounts?page[limit]=2', { token: other }));
    h.del(`/v2/accounts/${seeded[0] ?? ''}`, { token: other });
    h.post(profilePath(h.ids), profileBody(h.ids), { token: other });
    const snap = snapshotOf(h);
    // Every list delta present, even where nothing changed.
    for (const p of snap.projects) p['lists'] = Object.fromEntries(listResources.map((r) => [r.name, (p['lists'] as Record<string, Delta>)[r.name] ?? { upserts: [], deletes: [] }]));
    const text = JSON.stringify({ ...snap, drop_projects: true });
    const records = snap.projects.reduce(
      (n, p) =>
        n +
        Object.values(p['lists'] as Record<string, Delta>).reduce((m, d) => m + d.upserts.length + d.deletes.length, 0) +
        Object.values(p['profileInfos'] as Record<string, unknown[]>).reduce((m, l) => m + 1 + l.length, 0),
      0,
    );
    expect(records).toBeGreaterThan(0);
    expect(jsonShapeProblem(text, snapshotShapeLimits(records, snap.projects.length))).toBeUndefined();
    expect(jsonShapeProblem(text, { ...snapshotShapeLimits(records, snap.projects.length), maxDepth: SNAPSHOT_DEPTH - 1 })).toEqual({ kind: 'depth', limit: SNAPSHOT_DEPTH - 1 });
    expect(harness({ accounts: 20 }).admin('POST', '/__sim/restore', text).status).toBe(200);
  });

  it('the restore body limit is what the budget can hold at 512 bytes a record: at most 500 MiB, at least 1 MiB', () => {
    expect(restoreBodyLimit(2_000_000)).toBe(RESTORE_MAX_BODY_BYTES);
    expect(restoreBodyLimit(1000)).toBe(MAX_BODY_BYTES);
    expect(restoreBodyLimit(4000)).toBe(4000 * 512);
    expect(harness({ accounts: 10, maxProjects: 2, maxRecords: 4000 }).sim.restoreBodyLimit).toBe(4000 * 512);
  });
});
