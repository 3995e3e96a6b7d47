/**
 * `commerce-sim serve`: the simulator over HTTP. Prints what a client needs (base URL, a ready bearer
 * token, the seeded ids, the admin token, a curl line), or with --json the same as one JSON line.
 * Stops on SIGINT/SIGTERM: closes the server, exit 0. This adapter is the only place real time
 * (Date.now) enters: it is handed to the simulator, which reads it only for token expiry and wall mode.
 */
import { resolve } from 'node:path';
import { deviationList, numeric, OLD_SEED_OPTION, parseCounts, parseReadings, refuseOldSeed, settingError, SIM_OPTIONS, simOptionsUsage } from './sim-options.js';
import { removeReadyFile, writeReadyFile } from './ready-file.js';
import { stopSignals } from './stop-signal.js';
import { followParent } from './serve-child.js';
import { wholeOption } from '../numbers.js';
import { DEFAULT_PORT, MAX_PORT } from '../limits.js';
import { changedReadings, describeReadings, withDefaults, type ReadingChoice } from '../rules/readings.js';
import { readDataFile } from '../store/dataset-file.js';
import { isLoopback, readClients, type ClientRegistry } from '../sim/clients.js';
import { readSimulatorSettings, recordBudgetProblem, simulatorOptionsOf, withDataset, type SimulatorSetting } from '../sim/options.js';
import type { Problem } from '../result.js';
import { PROJECT_RECORDS } from '../store/record-budget.js';
import { randomCredentials, type Scope } from '../sim/tokens.js';
import type { JournalEntry } from '../sim/journal.js';
import { DEFAULT_MAX_PROJECT_RECORDS } from '../store/project.js';
import { DEFAULT_SHUTDOWN_GRACE_MS, listen, type RunningServer } from '../sim/server.js';
import { DEFAULT_CLIENT_ID, DEFAULT_MAX_PROJECTS, DEFAULT_SEED, Simulator, type SimulatorOptions } from '../sim/simulator.js';
import { DatasetError, readingsOfFile, resolveDataset, type ResolvedDataset } from '../store/adversity-profiles.js';
import { defineCommand, type DefinedCommand, HELP_OPTION, parseOptions, type Values } from './command.js';
import { KitError } from '../kit-errors.js';
import { EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './io.js';

const USAGE = `usage: commerce-sim serve [options]

  --port N            port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H            address to listen on (default 127.0.0.1)
the simulator, as run, props, proxy --upstream sim and export take it (\`commerce-sim readings\` lists
the readings; --surface documented answers 400/404/405 for the rest, the token endpoint and admin API kept):
${simOptionsUsage('  ', 22)}
  --seed              refused: the data seed is --sim-seed, in every command (default ${DEFAULT_SEED}; it also seeds
                      the ids and tokens)
the server:
  --admin-token-env VAR  the admin token, read from VAR (default: random, printed at start)
  --token-key-env VAR    the key bearer tokens are derived from, read from VAR (default: random)
  --clock MODE        virtual (default: fixed start, one step per write) or wall (real time)
  --clock-step MS     virtual clock step per write in ms (default 1000)
  --client-id ID      client id of the printed token and of the admin API's default project
  --clients FILE      registered clients (JSON/YAML: {clients: [{client_id, client_secret, scopes}]});
                      the token endpoint then answers 401 to anyone else
  --allow-any-client  needed to listen on a non-loopback --host without --clients: anyone who can
                      reach the port could then get a token (a warning is printed)
  --max-projects N    client ids (projects) kept at most; the least recently used is forgotten
                      (default ${DEFAULT_MAX_PROJECTS})
  --max-project-records N  records one project may write before creates answer 422 (default ${DEFAULT_MAX_PROJECT_RECORDS})
  --max-records N     records the whole simulator may hold: the seeded ones, every project's writes
                      and ${PROJECT_RECORDS} per --max-projects; past it writes answer 422, restores 413
                      (default: the heap limit / 2 KiB, about 2,100,000 at Node's 4 GiB)
  --max-scan N        a cap on the work of one list read, counted in records examined with one simple
                      test (costlier tests count each record as more): a read estimated above it
                      answers 400 before it starts (default: a full scan of the collection read with
                      four long patterns, at least 100,000). Reads below it are answered; long ones
                      run in slices of about 10 ms between other requests
  --shutdown-grace MS  on SIGINT/SIGTERM, how long answers still being written may take before their
                      connections are cut (default ${DEFAULT_SHUTDOWN_GRACE_MS}); every request read before the signal is
                      answered (injected latency cut short), later ones get a JSON 503, all with Connection: close
  --log               one line per request on stdout: time, method, path, status, ms, client id
                      (secrets redacted; JSON lines with --json)
  --json              print one JSON line instead of text (for scripts)
  --ready-file FILE   once listening, write the line --json prints to FILE (atomically: a waiter never
                      reads half of it); removed before start and on stop
  -h, --help          this help`;

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly json: boolean;
  /** `--ready-file`: where to write the --json line once listening. */
  readonly readyFile?: string;
  /** `--log`: a line per request. */
  readonly log?: boolean;
  /** `--shutdown-grace`: ms answers still being written may take after a stop signal. */
  readonly graceMs?: number;
  readonly clientId: string;
  readonly dataset?: string;
  /** A readings file (readings.json beside a report): what to answer where the document is silent. */
  readonly readingsFile?: string;
  /** Environment variables holding the admin token and the token key (never the secrets on a command line). */
  readonly adminTokenEnv?: string;
  readonly tokenKeyEnv?: string;
  /** A file of registered clients (`--clients`). */
  readonly clientsFile?: string;
  /** Listening beyond loopback with no registry was asked for explicitly. */
  readonly allowAnyClient: boolean;
  /** Everything but the dataset, which is resolved (maybe from a file) before starting. */
  readonly simulator: Omit<SimulatorOptions, 'wallClock'>;
}

/** The flag a setting of serve's own comes from, for messages (the simulator's are sim-options.ts'). */
const FLAGS: Readonly<Record<string, string>> = {
  deviate: '--deviate',
  clock: '--clock',
  clockStepMs: '--clock-step',
  clientId: '--client-id',
  maxProjects: '--max-projects',
  maxProjectRecords: '--max-project-records',
  maxRecords: '--max-records',
  maxScan: '--max-scan',
};
const SERVE_SETTINGS: readonly SimulatorSetting[] = [
  'seed',
  'accounts',
  'counts',
  'deviate',
  'surface',
  'readings',
  'clock',
  'clockStepMs',
  'clientId',
  'maxProjects',
  'maxProjectRecords',
  'maxRecords',
  'maxScan',
];

/** A refused setting as a usage error naming its flag (`counts.orders` → `--count orders`). */
const flagError = (problem: Problem): UsageError => settingError(problem, FLAGS);

/** The registered clients of `--clients FILE`, checked member by member. */
async function loadClients(file: string, cwd: string): Promise<ClientRegistry> {
  const read = await readDataFile(file, cwd);
  if (!read.ok) throw new UsageError('CLI_USAGE', `--clients ${file}: ${read.kind === 'unreadable' ? 'cannot read it' : 'not JSON or YAML'} (${read.message})`);
  const value = read.value;
  const reading = readClients(value);
  if (!reading.ok) throw new UsageError('CLI_USAGE', `--clients ${file}: ${reading.path} ${reading.message}`);
  return reading.value;
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  ...SIM_OPTIONS,
  ...OLD_SEED_OPTION,
  'admin-token-env': { type: 'string' },
  'token-key-env': { type: 'string' },
  clock: { type: 'string' },
  'clock-step': { type: 'string' },
  'client-id': { type: 'string' },
  clients: { type: 'string' },
  'allow-any-client': { type: 'boolean' },
  'max-projects': { type: 'string' },
  'max-project-records': { type: 'string' },
  'max-records': { type: 'string' },
  'max-scan': { type: 'string' },
  'shutdown-grace': { type: 'string' },
  json: { type: 'boolean' },
  'ready-file': { type: 'string' },
  log: { type: 'boolean' },
} as const;

type ServeValues = Values<typeof OPTIONS>;

/** The command line as serve's options (`help` for -h/--help); usage errors thrown. */
export function parseServeArgs(argv: readonly string[]): ServeOptions | 'help' {
  const { values } = parseOptions(argv, { ...OPTIONS, ...HELP_OPTION });
  return values.help === true ? 'help' : serveOptionsFrom(values);
}

function serveOptionsFrom(values: ServeValues): ServeOptions {
  refuseOldSeed(values);
  const counts = values.count === undefined ? undefined : parseCounts(values.count);
  const readings = values.reading === undefined ? undefined : parseReadings(values.reading);
  const read = readSimulatorSettings(
    {
      seed: numeric(values['sim-seed']) ?? DEFAULT_SEED,
      ...(values.accounts === undefined ? {} : { accounts: numeric(values.accounts) }),
      ...(counts === undefined ? {} : { counts }),
      ...(values.deviate === undefined ? {} : { deviate: deviationList('--deviate', values.deviate) }),
      ...(values.surface === undefined ? {} : { surface: values.surface }),
      ...(readings === undefined ? {} : { readings }),
      clock: values.clock ?? 'virtual',
      ...(values['clock-step'] === undefined ? {} : { clockStepMs: numeric(values['clock-step']) }),
      clientId: values['client-id'] ?? DEFAULT_CLIENT_ID,
      ...(values['max-projects'] === undefined ? {} : { maxProjects: numeric(values['max-projects']) }),
      ...(values['max-project-records'] === undefined ? {} : { maxProjectRecords: numeric(values['max-project-records']) }),
      ...(values['max-records'] === undefined ? {} : { maxRecords: numeric(values['max-records']) }),
      ...(values['max-scan'] === undefined ? {} : { maxScan: numeric(values['max-scan']) }),
    },
    SERVE_SETTINGS,
  );
  if (!read.ok) throw flagError(read);
  const clientId = read.value.clientId ?? DEFAULT_CLIENT_ID;
  const simulator = simulatorOptionsOf(read.value);
  // Checked again once a --dataset has added its counts (startServer).
  const budget = recordBudgetProblem(simulator);
  if (budget !== undefined) throw flagError(budget);
  const host = values.host ?? '127.0.0.1';
  const allowAnyClient = values['allow-any-client'] === true;
  if (!isLoopback(host) && values.clients === undefined && !allowAnyClient) {
    throw new UsageError('CLI_USAGE', `--host ${host} is reachable from other machines: pass --clients FILE so only registered clients get tokens, or --allow-any-client to serve anyone`);
  }
  return {
    port: wholeOption('--port', values.port, 0, MAX_PORT) ?? DEFAULT_PORT,
    host,
    json: values.json === true,
    ...(values['ready-file'] === undefined ? {} : { readyFile: values['ready-file'] }),
    ...(values.log === true ? { log: true } : {}),
    ...(values['shutdown-grace'] === undefined ? {} : { graceMs: wholeOption('--shutdown-grace', values['shutdown-grace'], 0, 600_000) }),
    allowAnyClient,
    ...(values.clients === undefined ? {} : { clientsFile: values.clients }),
    clientId,
    ...(values.dataset === undefined ? {} : { dataset: values.dataset }),
    ...(values.readings === undefined ? {} : { readingsFile: values.readings }),
    ...(values['admin-token-env'] === undefined ? {} : { adminTokenEnv: values['admin-token-env'] }),
    ...(values['token-key-env'] === undefined ? {} : { tokenKeyEnv: values['token-key-env'] }),
    simulator,
  };
}

/** What `serve` prints; the same members in text and in --json. */
export interface ServeInfo {
  readonly base_url: string;
  readonly client_id: string;
  /** Only registered clients get tokens (`--clients`). */
  readonly registered_clients: boolean;
  /** A token of `client_id`; null when a registry is given and does not hold that id (nobody unregistered gets one). */
  readonly token: string | null;
  /** The token's scope: read-write unless the registry grants the client only read-only. */
  readonly token_scope: Scope | null;
  readonly realm_id: string;
  readonly user_authentication_info_id: string;
  readonly password_profile_id: string;
  readonly admin_token: string;
  readonly seed: number;
  /** The readings played where the document is silent, other than the public API's. */
  readonly readings: ReadingChoice;
  readonly curl: string;
  /** The server's own process: what a script that backgrounded it through `npx` (a wrapper that does not pass signals on) stops. */
  readonly pid: number;
}

export function formatServeInfo(info: ServeInfo, json: boolean): string {
  if (json) return `${JSON.stringify(info)}\n`;
  const rows: [string, string][] = [
    ['base URL', info.base_url],
    [
      'bearer token',
      info.token === null
        ? `none: client id ${info.client_id} is not in --clients (registered clients get one at POST /oauth/access_token; --client-id names one)`
        : `${info.token}  (client id ${info.client_id}, ${info.token_scope ?? 'read-write'}; ${info.registered_clients ? 'registered clients' : 'any client id'} get one at POST /oauth/access_token)`,
    ],
    ['realm_id', info.realm_id],
    ['user_authentication_info_id', info.user_authentication_info_id],
    ['password_profile_id', info.password_profile_id],
    ['admin token', `${info.admin_token}  (for /__sim/*)`],
    ['seed', String(info.seed)],
    ['readings', describeReadings(withDefaults(info.readings))],
    ['process id', String(info.pid)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [`commerce-sim serving on ${info.base_url}`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`), '', `  try: ${info.curl}`, '', 'Ctrl-C to stop.', ''].join('\n');
}

export interface ServeSession {
  readonly info: ServeInfo;
  readonly server: RunningServer;
}

/**
 * A served simulator's secrets: the token key and the admin token come from a cryptographic random
 * source, so knowing the seed (42 by default) gives nobody a token; `--token-key-env` and
 * `--admin-token-env` make them reproducible when a user wants that.
 */
function serverCredentials(options: ServeOptions, env: Readonly<Record<string, string | undefined>>): { tokenKey: string; adminToken: string } {
  const fromEnv = (flag: string, name: string): string => {
    const value = env[name];
    if (value === undefined || value.length < 16) throw new UsageError('CLI_USAGE', `${flag} ${name}: the variable must hold at least 16 characters`);
    return value;
  };
  const random = randomCredentials();
  return {
    tokenKey: options.tokenKeyEnv === undefined ? random.tokenKey : fromEnv('--token-key-env', options.tokenKeyEnv),
    adminToken: options.adminTokenEnv === undefined ? random.adminToken : fromEnv('--admin-token-env', options.adminTokenEnv),
  };
}

/** Parse nothing, print nothing: build the simulator, listen, and describe it. */
/** A `--log` line: readable text, or one JSON object per line with --json. */
export function logLine(entry: JournalEntry, ms: number, at: number, json: boolean): string {
  const time = new Date(at).toISOString();
  if (json) return `${JSON.stringify({ time, ...entry, ms: Math.round(ms * 10) / 10 })}\n`;
  // What the client got: a reset connection has no status; a cut answer or an injected 5xx says so after the client.
  const status = entry.status === null ? 'reset' : String(entry.status);
  const extra = `${entry.fault === null || entry.fault === 'reset' ? '' : ` fault=${entry.fault}`}${entry.latency_ms > 0 ? ` latency=${entry.latency_ms}ms` : ''}`;
  return `${time} ${entry.method} ${entry.url} ${status} ${ms.toFixed(1)}ms ${entry.client_id ?? '-'}${extra}\n`;
}

/** A readings file (the readings.json of a run's report: a dataset file, read by the one dataset reader): its readings only. */
async function readingsFile(file: string, cwd: string): Promise<ReadingChoice> {
  try {
    return await readingsOfFile(file, { cwd });
  } catch (error) {
    if (error instanceof DatasetError) throw new UsageError('CLI_USAGE', `--readings: ${error.message}`);
    throw error;
  }
}

export async function startServer(options: ServeOptions, io: Pick<CliIo, 'cwd'> & Partial<Pick<CliIo, 'env' | 'stdout' | 'stderr'>>, wallClock: () => number): Promise<ServeSession> {
  const credentials = serverCredentials(options, io.env ?? {});
  let dataset: ResolvedDataset | undefined;
  if (options.dataset !== undefined) {
    try {
      dataset = await resolveDataset(options.dataset, { cwd: io.cwd });
    } catch (error) {
      if (error instanceof DatasetError) throw new UsageError('CLI_USAGE', `--dataset: ${error.message}`);
      throw error;
    }
  }
  const clients = options.clientsFile === undefined ? undefined : await loadClients(options.clientsFile, io.cwd);
  const played =
    options.readingsFile === undefined ? options.simulator : { ...options.simulator, readings: { ...(await readingsFile(options.readingsFile, io.cwd)), ...(options.simulator.readings ?? {}) } };
  const simulator = withDataset(played, dataset);
  const budget = recordBudgetProblem(simulator);
  if (budget !== undefined) throw flagError(budget);
  const sim = new Simulator({ ...simulator, wallClock, ...credentials, ...(clients === undefined ? {} : { clients }) });
  const out = io.stdout;
  const log = options.log === true && out !== undefined ? (entry: JournalEntry, ms: number) => void out.write(logLine(entry, ms, wallClock(), options.json)) : undefined;
  const stderr = io.stderr;
  const server = await listen(sim, options.port, options.host, {
    ...(log === undefined ? {} : { log }),
    ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
    ...(stderr === undefined ? {} : { progress: (line: string) => void stderr.write(`commerce-sim serve: ${line}\n`) }),
  });
  // With a registry, only a registered client gets the printed token, with a scope it holds.
  const registered = clients?.get(options.clientId);
  const scope: Scope | null = clients === undefined ? 'read-write' : registered === undefined ? null : registered.scopes.includes('read-write') ? 'read-write' : 'read-only';
  const token = scope === null ? null : sim.issueToken(options.clientId, scope);
  const ids = sim.seededIds();
  const info: ServeInfo = {
    base_url: server.baseUrl,
    client_id: options.clientId,
    registered_clients: clients !== undefined,
    token,
    token_scope: scope,
    ...ids,
    admin_token: sim.adminToken,
    seed: sim.seed,
    readings: changedReadings(sim.readings),
    // -g: without it curl reads the brackets of page[limit] as a URL glob and fails ("bad range in URL").
    curl: `curl -g -H 'Authorization: Bearer ${token ?? '<token>'}' '${server.baseUrl}/v2/accounts?page[limit]=3'`,
    pid: process.pid,
  };
  return { info, server };
}

export const serve: DefinedCommand = defineCommand({ name: 'serve', usage: USAGE, options: OPTIONS, main: (values, io) => serveMain(serveOptionsFrom(values), io) });

async function serveMain(options: ServeOptions, io: CliIo): Promise<number> {
  const readyFile = options.readyFile === undefined ? undefined : resolve(io.cwd, options.readyFile);
  if (readyFile !== undefined) await removeReadyFile(readyFile);
  let session: ServeSession;
  try {
    session = await startServer(options, io, () => Date.now());
  } catch (error) {
    // Usage errors and a busy port (SIM_PORT_IN_USE) are the tool's own: one line from the shared printer.
    if (error instanceof KitError) throw error;
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    io.stderr.write(`commerce-sim serve: cannot listen on ${options.host}:${options.port}${typeof code === 'string' ? ` (${code})` : ''}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_USAGE;
  }
  if (options.allowAnyClient && !isLoopback(options.host) && options.clientsFile === undefined) {
    io.stderr.write(`commerce-sim serve: warning: listening on ${options.host} with --allow-any-client: anyone who can reach this port can get a token and write\n`);
  }
  // Listening for the stop signals first: a waiter may signal as soon as the ready file appears.
  const signals = stopSignals();
  followParent();
  try {
    if (readyFile !== undefined) {
      try {
        await writeReadyFile(readyFile, formatServeInfo(session.info, true));
      } catch (error) {
        await session.server.close();
        throw error;
      }
    }
    io.stdout.write(formatServeInfo(session.info, options.json));
    const signal = await signals.first;
    // Said at once (on stderr, even with --json): the answers in flight get their grace, and how to cut them.
    io.stderr.write(`commerce-sim serve: ${signal}: finishing the answers in flight (a second signal cuts them)\n`);
    // A second Ctrl-C while answers in flight finish cuts them at once; the exit is still 0.
    void signals.second.then(() => session.server.cut());
    await session.server.close();
    if (readyFile !== undefined) await removeReadyFile(readyFile).catch(() => undefined);
    if (!options.json) io.stderr.write(`commerce-sim serve: ${signal}, stopped\n`);
  } finally {
    signals.dispose();
  }
  return EXIT_OK;
}
