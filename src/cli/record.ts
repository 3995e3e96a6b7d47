/**
 * `commerce-sim record --target sim|URL --out DIR [PATHS...]`: runs the read-only scenarios against a
 * deployment and saves every exchange as a fixture (tokens, passwords, hosts and Authorization headers
 * replaced; ids too with --rename-ids), plus index.json. Also the target plumbing `diff` shares.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ACCESS_TOKEN, CLIENT_SECRET, INDEX_FILE, type SecretPlaceholder } from '../fixtures/format.js';
import { readOnlyScenarios, recordingFiles, recordScenarios, type Recording } from '../fixtures/record.js';
import { isSecretKey } from '../report/redact.js';
import { isObject } from '../rules/inspect.js';
import { ruleById } from '../rules/catalogue.js';
import type { Scenario } from '../scenarios/format.js';
import { loadScenarios, ScenarioError } from '../scenarios/load.js';
import { selectScenarios } from '../scenarios/select.js';
import { createTarget, intOption, loadConfig, parseVarAssignments, positiveOption, readCredentials, type TargetOptions } from '../target/create.js';
import { TargetError, type Target, type TargetErrorCode } from '../target/types.js';
import { EXIT_OK, EXIT_USAGE, UsageError, type CliIo, type Command } from './io.js';

const USAGE = `usage: commerce-sim record --target sim|URL [--out DIR] [PATHS...] [options]

Runs the read-only scenarios (default: those shipped with the kit; not tagged writes or sim-only)
and saves each exchange as DIR/<scenario>/<nn>-<step>.json plus DIR/index.json.
  --target sim|URL            the simulator or a base URL (required)
  --out DIR                   output directory (default recording)
  --rename-ids                write UUID-shaped ids as <id-1>, <id-2>, ... in order of appearance
  --token-env VAR             read a bearer token from the environment variable VAR
  --client-id ID              exchange client credentials at /oauth/access_token ...
  --client-secret-env VAR     ... with the client secret read from the environment variable VAR
  --var name=value            a variable scenarios read as \${{ vars.name }} (repeatable)
  --config FILE               YAML: {vars: {...}, token_env, client_id, client_secret_env, base_url}
  --allow-writes              also run scenarios tagged 'writes'
  --budget N, --rps N         bound the requests to a live target
  --seed S                    simulator seed
  --grep TEXT, --tag T        select scenarios as run does`;

/** Options every command that runs scenarios against a target takes (record, diff). */
export const TARGET_OPTIONS = {
  'token-env': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret-env': { type: 'string' },
  var: { type: 'string', multiple: true },
  config: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  budget: { type: 'string' },
  rps: { type: 'string' },
  seed: { type: 'string' },
  grep: { type: 'string' },
  tag: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface TargetValues {
  readonly 'token-env'?: string;
  readonly 'client-id'?: string;
  readonly 'client-secret-env'?: string;
  readonly var?: string[];
  readonly config?: string;
  readonly 'allow-writes'?: boolean;
  readonly budget?: string;
  readonly rps?: string;
  readonly seed?: string;
  readonly grep?: string;
  readonly tag?: string[];
}

export interface LiveSettings {
  readonly options: TargetOptions;
  readonly configBaseUrl: string | undefined;
  readonly allowWrites: boolean;
  readonly grep: string | undefined;
  readonly tags: readonly string[];
}

export async function liveSettings(values: TargetValues, io: CliIo): Promise<LiveSettings> {
  const config = values.config === undefined ? { vars: {} } : await loadConfig(values.config, io.cwd);
  const options: TargetOptions = {
    env: io.env,
    vars: { ...config.vars, ...parseVarAssignments(values.var ?? []) },
    seed: intOption('--seed', values.seed, 0, 2 ** 32 - 1),
    tokenEnv: values['token-env'] ?? config.tokenEnv,
    clientId: values['client-id'] ?? config.clientId,
    clientSecretEnv: values['client-secret-env'] ?? config.clientSecretEnv,
    budget: intOption('--budget', values.budget, 1, Number.MAX_SAFE_INTEGER),
    rps: positiveOption('--rps', values.rps),
  };
  return { options, configBaseUrl: config.baseUrl, allowWrites: values['allow-writes'] === true, grep: values.grep, tags: values.tag ?? [] };
}

/** The scenarios a recording runs: PATHS or the shipped ones, selected, read-only. */
export async function recordableScenarios(paths: readonly string[], settings: LiveSettings, io: CliIo): Promise<Scenario[]> {
  const from = paths.length > 0 ? paths : [fileURLToPath(new URL('../../scenarios', import.meta.url))];
  const all = await loadScenarios(from, { ruleExists: (id) => ruleById(id) !== undefined, cwd: io.cwd });
  const selected = selectScenarios(all, { ...(settings.grep === undefined ? {} : { grep: settings.grep }), tags: settings.tags });
  return readOnlyScenarios(selected, settings.allowWrites);
}

/** Errors after which every further request is pointless. */
const FATAL: ReadonlySet<TargetErrorCode> = new Set(['TARGET_UNREACHABLE', 'TARGET_BUDGET_EXHAUSTED', 'TARGET_AUTH_FAILED']);

export interface LiveRun {
  readonly recording: Recording;
  /** Literal secrets met, with the placeholder each becomes. */
  readonly secrets: readonly SecretPlaceholder[];
}

/** Creates the target, records the scenarios, closes it; a fatal target error is thrown once the run stops. */
export async function recordLive(spec: string, scenarios: readonly Scenario[], settings: LiveSettings, extra: Partial<TargetOptions> = {}): Promise<LiveRun> {
  const options = { ...settings.options, ...extra };
  const credentials = spec === 'sim' ? {} : readCredentials(options);
  const target = await createTarget(spec, options);
  const controller = new AbortController();
  let fatal: TargetError | undefined;
  const guarded: Target = {
    ...target,
    async send(request) {
      try {
        return await target.send(request);
      } catch (error) {
        if (error instanceof TargetError && FATAL.has(error.code) && fatal === undefined) {
          fatal = error;
          controller.abort(error);
        }
        throw error;
      }
    },
    close: () => target.close(),
  };
  const secrets: SecretPlaceholder[] = [];
  if (credentials.token !== undefined) secrets.push([credentials.token, ACCESS_TOKEN]);
  if (credentials.clientSecret !== undefined) secrets.push([credentials.clientSecret, CLIENT_SECRET]);
  // The admin token, and any variable named like a secret (`--var access_token=...`).
  for (const [name, value] of Object.entries(target.vars)) if (isSecretKey(name) && value !== '') secrets.push([value, `<${name.toLowerCase()}>`]);
  try {
    const recording = await recordScenarios(scenarios, guarded, { ruleById, secrets, allowWrites: settings.allowWrites, signal: controller.signal });
    if (fatal !== undefined) throw fatal;
    return { recording, secrets };
  } finally {
    await target.close();
  }
}

export const record: Command = async (argv, io) => {
  try {
    return await recordCommand(argv, io);
  } catch (error) {
    return reportError('record', error, io, USAGE);
  }
};

/** Usage, scenario and target errors as one line each, exit 2; anything else is a bug and is thrown. */
export function reportError(command: string, error: unknown, io: CliIo, usage: string): number {
  if (error instanceof UsageError) io.stderr.write(`commerce-sim ${command}: ${error.message}\n\n${usage}\n`);
  else if (error instanceof ScenarioError) io.stderr.write(`commerce-sim ${command}: ${error.message} (${error.code})\n`);
  else if (error instanceof TargetError) io.stderr.write(`commerce-sim ${command}: ${error.message} (${error.code})\n`);
  else throw error;
  return EXIT_USAGE;
}

async function recordCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { ...TARGET_OPTIONS, target: { type: 'string' }, out: { type: 'string' }, 'rename-ids': { type: 'boolean' } },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT_OK;
  }
  const settings = await liveSettings(values, io);
  const spec = values.target ?? settings.configBaseUrl;
  if (spec === undefined) throw new UsageError('--target is required (sim or a base URL)');
  const scenarios = await recordableScenarios(positionals, settings, io);
  const { recording, secrets } = await recordLive(spec, scenarios, settings);
  const files = recordingFiles(recording, { renameIds: values['rename-ids'] === true, secrets });
  const dir = resolve(io.cwd, values.out ?? 'recording');
  await replaceRecording(dir, files);
  const skipped = recording.scenarios.filter((s) => s.status === 'skip').length;
  io.stdout.write(`recorded ${recording.observations.length} exchanges from ${recording.scenarios.length - skipped} scenarios (${skipped} skipped) to ${values.out ?? 'recording'}\n`);
  return EXIT_OK;
}

/** Writes the files, after removing what an earlier recording in DIR listed (nothing else is touched). */
async function replaceRecording(dir: string, files: readonly { file: string; content: string }[]): Promise<void> {
  const old = listedFiles(await readFile(join(dir, INDEX_FILE), 'utf8').catch(() => ''));
  for (const file of old) await rm(join(dir, ...file.split('/')), { force: true });
  for (const f of files) {
    const path = join(dir, ...f.file.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, f.content);
  }
}

function listedFiles(indexText: string): string[] {
  let index: unknown;
  try {
    index = JSON.parse(indexText);
  } catch {
    return [];
  }
  const list: unknown = isObject(index) && index['kind'] === 'recording' ? index['fixtures'] : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((e: unknown) => (isObject(e) && typeof e['file'] === 'string' && !e['file'].split('/').includes('..') ? [e['file']] : []));
}
