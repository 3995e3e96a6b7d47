/**
 * `commerce-sim record --target sim|URL --out DIR [PATHS...]`: runs the read-only scenarios against a
 * deployment and saves every exchange as a fixture (tokens, passwords, hosts and Authorization headers
 * replaced; ids too with --rename-ids), plus index.json. Also the target plumbing `diff` shares.
 */
import { OLD_SEED_OPTION, refuseOldSeed, SIM_OPTIONS } from './sim-options.js';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACCESS_TOKEN, CLIENT_SECRET, INDEX_FILE, type SecretPlaceholder } from '../recordings/format.js';
import { readOnlyScenarios, recordingFiles, recordScenarios, type Recording } from '../recordings/record-live.js';
import { isSecretKey } from '../report/redact.js';
import { isObject } from '../rules/inspect.js';
import { ruleById } from '../rules/catalogue.js';
import type { Scenario } from '../scenarios/format.js';
import { loadScenarios } from '../scenarios/load.js';
import { selectScenarios } from '../scenarios/select.js';
import { createTarget, type TargetOptions } from './targets.js';
import { wholeOption } from '../numbers.js';
import { MAX_SEED } from '../limits.js';
import { guardTarget } from '../adapters/guarded.js';
import { defineCommand, type DefinedCommand, type Values } from './command.js';
import { EXIT_OK, UsageError, type CliIo } from './io.js';
import { configFrom, credentialsFor, TARGET_OPTIONS, targetOptionsFrom } from './target-options.js';

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
  --sim-seed N                the simulator's data seed (and a live target's retry jitter), as in every
                              command that starts a simulator
  --seed                      refused: the data seed is --sim-seed
  --grep TEXT, --tag T        select scenarios as run does
  -h, --help                  this help`;

/** Options of the commands that record scenarios against a target (record, diff). */
export const LIVE_OPTIONS = {
  ...TARGET_OPTIONS,
  'sim-seed': SIM_OPTIONS['sim-seed'],
  ...OLD_SEED_OPTION,
  grep: { type: 'string' },
  tag: { type: 'string', multiple: true },
} as const;

export interface LiveSettings {
  readonly options: TargetOptions;
  readonly configBaseUrl: string | undefined;
  readonly allowWrites: boolean;
  readonly grep: string | undefined;
  readonly tags: readonly string[];
}

export async function liveSettings(values: Values<typeof LIVE_OPTIONS>, io: CliIo): Promise<LiveSettings> {
  const config = await configFrom(values, io);
  refuseOldSeed(values);
  const options: TargetOptions = { ...targetOptionsFrom(values, config, io), seed: wholeOption('--sim-seed', values['sim-seed'], 0, MAX_SEED) };
  return { options, configBaseUrl: config.baseUrl, allowWrites: values['allow-writes'] === true, grep: values.grep, tags: values.tag ?? [] };
}

/** The scenarios a recording runs: PATHS or the shipped ones, selected, read-only. */
export async function recordableScenarios(paths: readonly string[], settings: LiveSettings, io: CliIo): Promise<Scenario[]> {
  const from = paths.length > 0 ? paths : [fileURLToPath(new URL('../../scenarios', import.meta.url))];
  const all = await loadScenarios(from, { ruleExists: (id) => ruleById(id) !== undefined, cwd: io.cwd });
  const selected = selectScenarios(all, { ...(settings.grep === undefined ? {} : { grep: settings.grep }), tags: settings.tags });
  return readOnlyScenarios(selected, settings.allowWrites);
}

export interface LiveRun {
  readonly recording: Recording;
  /** Literal secrets met, with the placeholder each becomes. */
  readonly secrets: readonly SecretPlaceholder[];
}

/** Creates the target, records the scenarios, closes it; a fatal target error is thrown once the run stops. */
export async function recordLive(spec: string, scenarios: readonly Scenario[], settings: LiveSettings, extra: Partial<TargetOptions> = {}): Promise<LiveRun> {
  const options = { ...settings.options, ...extra };
  const credentials = credentialsFor(spec, options);
  const target = await createTarget(spec, options);
  const guarded = guardTarget(target);
  const secrets: SecretPlaceholder[] = [];
  if (credentials.token !== undefined) secrets.push([credentials.token, ACCESS_TOKEN]);
  if (credentials.clientSecret !== undefined) secrets.push([credentials.clientSecret, CLIENT_SECRET]);
  // The admin token, and any variable named like a secret (`--var access_token=...`).
  for (const [name, value] of Object.entries(target.vars)) if (isSecretKey(name) && value !== '') secrets.push([value, `<${name.toLowerCase()}>`]);
  try {
    const recording = await recordScenarios(scenarios, guarded.target, { ruleById, secrets, allowWrites: settings.allowWrites, signal: guarded.signal });
    const fatal = guarded.fatal();
    if (fatal !== undefined) throw fatal;
    return { recording, secrets };
  } finally {
    await target.close();
  }
}

const RECORD_OPTIONS = { ...LIVE_OPTIONS, target: { type: 'string' }, out: { type: 'string' }, 'rename-ids': { type: 'boolean' } } as const;

export const record: DefinedCommand = defineCommand({
  name: 'record',
  usage: USAGE,
  options: RECORD_OPTIONS,
  allowPositionals: true,
  main: recordCommand,
});

async function recordCommand(values: Values<typeof RECORD_OPTIONS>, io: CliIo, positionals: readonly string[]): Promise<number> {
  const settings = await liveSettings(values, io);
  const spec = values.target ?? settings.configBaseUrl;
  if (spec === undefined) throw new UsageError('CLI_USAGE', '--target is required (sim or a base URL)');
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
