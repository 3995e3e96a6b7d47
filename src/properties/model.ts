/**
 * Model-based test of the simulator (fast-check commands): random sequences of create, update,
 * delete, reads, settings changes, clock moves and list reads on the password profile resource,
 * each answer checked against a small reference model (model-commands.ts), and the whole sequence
 * judged by the oracle. Every run starts from a reset simulator.
 */
import * as fc from 'fast-check';
import { at, varString } from '../rules/inspect.js';
import { AdminError, adminRequest, requireAdmin } from './admin-requests.js';
import { NEEDS_IDS } from './password-profile-create.js';
import { plainText } from './arbitraries.js';
import { defineProperty, PropertySetupError } from './define.js';
import { ClockCmd, CreateCmd, DeleteCmd, GetCmd, ListCmd, SettingsCmd, UpdateCmd, type ListSort, type Model, type ModelCommand, type ModelReadings, type Real } from './model-commands.js';
import { StopRun, type Trial } from './trial.js';
import { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH } from '../limits.js';

const MODEL = 'model';

/** Passwords from characters no username, id, timestamp or link has, so the oracle never mistakes an echo for a leak. */
const password = fc.string({ unit: fc.constantFrom(...'!#$%&+=?@^~'), minLength: 8, maxLength: 16 });

const commands: fc.Arbitrary<ModelCommand>[] = [
  fc.tuple(plainText(12), password).map(([u, p]) => new CreateCmd(u, p)),
  fc.tuple(fc.nat(), fc.option(plainText(12), { nil: undefined }), fc.option(password, { nil: undefined })).map(([n, u, p]) => new UpdateCmd(n, u, p)),
  fc.nat().map((n) => new DeleteCmd(n)),
  fc.nat().map((n) => new GetCmd(n)),
  fc.oneof(fc.integer({ min: 1, max: MAX_PAGE_LENGTH }), fc.constantFrom(1, 2, 25, 0, 101, -1, 2.5)).map((n) => new SettingsCmd(n)),
  fc.integer({ min: 0, max: 86_400_000 }).map((n) => new ClockCmd(n)),
  fc
    .tuple(
      // Half the reads without page[limit]: those are the ones the project's page_length decides.
      fc.option(fc.integer({ min: 1, max: MAX_PAGE_LENGTH }), { freq: 2, nil: undefined }),
      fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
      fc.option(fc.constantFrom<ListSort>('created_at', '-created_at', 'id', 'updated_at', '-updated_at', 'username'), { nil: undefined }),
    )
    .map(([l, o, s]) => new ListCmd(l, o, s)),
];

export const model = defineProperty<{ collection: string; ppid: string }, Iterable<ModelCommand>>({
  name: MODEL,
  summary: 'random create/update/delete/get, settings, clock moves and list reads agree with a reference model',
  rules: [
    'password-profile.get',
    'password-profile.list',
    'password-profile.update',
    'password-profile.delete',
    'password-profile.password-never-returned',
    'large-data.deletes-immediate',
    'pagination.limit.project-setting',
    'settings.page-length',
    'create.status.201',
    'create.password.not-returned',
    'pagination.results.total',
    'pagination.limit.per-call',
    'pagination.limit.max',
    'errors.format',
    'errors.no-5xx',
  ],
  needs: ['admin', 'writes'],
  prepare(env) {
    const realm = varString(env.vars, 'realm_id');
    const uai = varString(env.vars, 'user_authentication_info_id');
    const ppid = varString(env.vars, 'password_profile_id');
    if (realm === undefined || uai === undefined || ppid === undefined) return Promise.reject(new PropertySetupError('PROPS_SETUP', NEEDS_IDS));
    return Promise.resolve({ collection: `/v2/authentication-realms/${realm}/user-authentication-info/${uai}/user-authentication-password-profile-info`, ppid });
  },
  arbitrary: (_ctx, _env, replay) => fc.commands(commands, { maxCommands: 25, ...(replay === undefined ? {} : { replayPath: replay }) }),
  // fast-check lists the commands that ran and appends its replayPath, which the reported path carries.
  show: (cmds) => String(cmds).replace(/\s*\/\*replayPath=.*\*\/$/, ''),
  replayOf: (cmds) => /\/\*replayPath="([^"]*)"\*\/$/.exec(String(cmds))?.[1],
  async run(cmds, trial, ctx) {
    const admin = requireAdmin(trial.env);
    const reset = await trial.send(adminRequest(admin.token, 'POST', '/__sim/reset'));
    if (reset.response.status !== 200) throw new AdminError('PROPS_ADMIN_FAILED', `POST /__sim/reset answered ${reset.response.status}`);
    const state: Model = { records: new Map(), pageLength: DEFAULT_PAGE_LENGTH, last: 0n, advancedMs: 0, readings: await modelReadings(trial, admin.token) };
    const real: Real = { trial, collection: ctx.collection, ppid: ctx.ppid, adminToken: admin.token };
    try {
      await fc.asyncModelRun(() => ({ model: state, real }), cmds);
    } catch (error) {
      if (!(error instanceof StopRun)) throw error;
    }
  },
});

/** The simulator's readings where the model depends on them (GET /__sim/state lists those other than the public API's). */
async function modelReadings(trial: Trial, token: string): Promise<ModelReadings> {
  const state = await trial.sendAside(adminRequest(token, 'GET', '/__sim/state'));
  const readings = at(state.json, 'data', 'readings');
  const value = (name: string): unknown => at(readings, name);
  const unsorted = value('order.unsorted');
  return {
    unsorted: unsorted === 'id' || unsorted === 'newest' ? unsorted : 'created_at',
    ties: value('order.ties') === 'id-desc' ? 'desc' : 'asc',
    exactTime: value('timestamps.precision') === undefined || value('timestamps.precision') === 'ms',
  };
}
