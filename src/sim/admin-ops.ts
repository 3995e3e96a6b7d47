/** The simulator-wide admin operations (reseed, snapshot, restore); per-project ones live in the handlers. */
import { apiError } from '../engine/api-errors.js';
import { isJsonObject } from '../engine/json.js';
import { changedReadings } from '../rules/readings.js';
import type { AdminOps } from './context.js';
import { error, errors, json } from './respond.js';
import type { SimResponse } from './messages.js';
import { drain, type Steps } from '../store/steps.js';
import { readSnapshotText } from './snapshot-text.js';
import type { AdminPort } from './admin-port.js';
import { readSimulatorSettings, recordBudgetProblem, type SimulatorOptions } from './options.js';
import { readSnapshotSteps, restoredOptions, restoreSnapshotSteps, takeSnapshot, type Snapshot } from './snapshot.js';

export function createAdminOps(sim: AdminPort): AdminOps {
  const ops: AdminOps = {
    reset: () => {
      sim.reconfigure(sim.settings);
      sim.journal.clear();
    },
    requests: (filter) => ({ data: sim.journal.list(filter), meta: { capacity: sim.journal.capacity } }),
    describe: () => ({
      seed: sim.seed,
      base_url: sim.baseUrl,
      default_client_id: sim.defaultClientId,
      ids: sim.seededIds(),
      projects: sim.projectIds().flatMap((id) => {
        const p = sim.existingProject(id);
        return p === undefined ? [] : [{ client_id: id, now: new Date(p.clock.now()).toISOString(), settings: p.settings }];
      }),
      deviations: [...sim.deviations].sort(),
      // The points where this simulator answers other than the public API (rules/readings.ts).
      readings: changedReadings(sim.readings),
      evicted_projects: sim.evictedProjects,
      // What the record budget holds now: seeded, set aside for projects, written; past `max`, writes answer 422.
      records: { max: sim.budget.limit, seeded: sim.budget.seeded, set_aside_for_projects: sim.budget.reserved, written: sim.budget.written },
    }),
    reseed: (body) => {
      const fields = readSimulatorSettings(body, ['seed', 'accounts', 'counts', 'profile', 'burst']);
      if (!fields.ok) return errors([apiError('bad-request', fields.path === '' ? `The body ${fields.message}` : `${fields.path}: ${fields.message}`, fields.path || undefined)]);
      const { seed, accounts, counts, profile, burst } = fields.value;
      const nextCounts: Record<string, number> = { ...(counts ?? {}) };
      // `counts.accounts` and `accounts` say the same thing; the newest word wins over the start-up option.
      const { accounts: _startAccounts, ...current } = sim.settings;
      const keptAccounts = accounts ?? (nextCounts['accounts'] !== undefined ? undefined : _startAccounts);
      const next: SimulatorOptions = {
        ...current,
        ...(keptAccounts === undefined ? {} : { accounts: keptAccounts }),
        ...(counts !== undefined ? { counts: nextCounts } : {}),
        ...(profile === undefined ? {} : { profile }),
        ...(burst === undefined ? {} : { burst }),
      };
      const budget = recordBudgetProblem(next);
      if (budget !== undefined) return errors([apiError('bad-request', `${budget.path}: ${budget.message}`, budget.path)]);
      // A new seed would change tokens and the admin token; the dataset seed changes, the credentials stay.
      const options = seed === undefined ? next : { ...next, datasetSeed: seed };
      const slicer = sim.slicer;
      const prepared = slicer === undefined ? undefined : sim.prepare(options);
      if (slicer === undefined || prepared === undefined) {
        sim.reconfigure(options);
        return undefined;
      }
      // Served: the new records are built between other requests, which see the old data until the swap.
      const deferred = slicer(prepared.steps, 'state').then((done) => {
        if (!done) return error('unavailable', 'The simulator is shutting down; the reseed was not applied');
        sim.reconfigure(options, prepared);
        return json(200, { data: ops.describe() });
      });
      return { ...json(200, {}), deferred };
    },
    snapshot: () => takeSnapshot(sim),
    restore: (text) => {
      const slicer = sim.slicer;
      if (slicer === undefined) return drain(restoreSteps(sim, text, false));
      // Served: parsed, checked, built and indexed between other requests, which see the current state until
      // the swap; a body the limits refuse is refused where its text shows it (snapshot-text.ts).
      let outcome: SimResponse | undefined;
      const steps = (function* () {
        outcome = yield* restoreSteps(sim, text, true);
      })();
      const deferred = slicer(steps, 'state').then((done) => {
        if (!done) return error('unavailable', 'The simulator is shutting down; the restore was not applied');
        return outcome ?? json(200, { data: ops.describe() });
      });
      return { ...json(200, {}), deferred };
    },
  };
  return ops;
}

/**
 * A restore as steps, from the body's text to the swap: undefined once restored, else the refusal. `served`:
 * the snapshot's seeded data is built off to the side too (in process the swap rebuilds it as a reseed does).
 */
function* restoreSteps(sim: AdminPort, text: string | Uint8Array, served: boolean): Steps<SimResponse | undefined> {
  const { budget } = sim;
  const limits = { maxRecords: budget.limit, maxProjects: sim.maxProjects, maxProjectRecords: sim.maxProjectRecords };
  const parsed = yield* readSnapshotText(text, limits, budget.reserved);
  if (!parsed.ok) return errors([parsed.error]);
  const body = parsed.value;
  const reading = yield* readSnapshotSteps(body, limits);
  if (!reading.ok) {
    const detail = reading.path === '' ? reading.message : `${reading.path}: ${reading.message}`;
    return errors([apiError(reading.tooLarge ? 'payload-too-large' : 'bad-request', detail, reading.path || undefined)]);
  }
  const snapshot = reading.value;
  const max = sim.maxProjects;
  if (snapshot.projects.length > max) return errors([apiError('bad-request', `projects: the simulator keeps at most ${max} projects (--max-projects)`, 'projects')]);
  const drop = isJsonObject(body) && body['drop_projects'] === true;
  const refused = dropRefusal(sim, snapshot, drop);
  if (refused !== undefined) return refused;
  const prepared = served ? sim.prepare(restoredOptions(sim, snapshot)) : undefined;
  if (prepared !== undefined) yield* prepared.steps;
  const swap = yield* restoreSnapshotSteps(sim, snapshot, prepared);
  // Projects may have changed between the slices: asked again at the swap, which nothing comes between.
  const late = dropRefusal(sim, snapshot, drop);
  if (late !== undefined) return late;
  swap();
  return undefined;
}

/** A restore replaces every project: one the snapshot lacks, and that holds anything, is lost unless `drop`. */
function dropRefusal(sim: AdminPort, snapshot: Snapshot, drop: boolean): SimResponse | undefined {
  if (drop) return undefined;
  const kept = new Set(snapshot.projects.map((p) => p.clientId));
  const dropped = sim.projectIds().filter((id) => !kept.has(id) && sim.existingProject(id)?.pristine === false);
  if (dropped.length === 0) return undefined;
  const shown = dropped.slice(0, 5).join(', ') + (dropped.length > 5 ? `, and ${dropped.length - 5} more` : '');
  return errors([apiError('conflict', `This restore would drop projects with changes that the snapshot lacks (${shown}); send "drop_projects": true to drop them`, 'drop_projects')]);
}
