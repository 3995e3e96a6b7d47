/**
 * Builds the Target a command asked for (`sim` or a base URL) from its options: credentials read
 * from environment variables named on the command line (never the secrets themselves), `--var`
 * assignments and an optional YAML config file. Shared by every command that takes a target.
 */
import { VAR_NAME, type ConfigFile } from './config.js';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../kit-errors.js';
import { createHttpTarget, type HttpTargetOptions } from '../adapters/http.js';
import type { SimTargetOptions } from '../adapters/simulator.js';
import type { Target } from '../port.js';

/**
 * What a command may ask of its target. The simulator's fields are `createSimTarget`'s (`seed` also
 * seeds the live adapter's retry jitter; `surface`, `readings`, `dataset` and `cwd` count in process
 * only), the live adapter's are `createHttpTarget`'s; the rest are the command's own.
 */
export interface TargetOptions
  extends
    Pick<SimTargetOptions, 'seed' | 'deviate' | 'surface' | 'readings' | 'accounts' | 'counts' | 'dataset' | 'cwd'>,
    Pick<HttpTargetOptions, 'clientId' | 'timeoutMs' | 'retries' | 'budget' | 'rps' | 'concurrency'> {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Variables given by the user; over the target's own (the simulator's seeded ids). */
  readonly vars?: Readonly<Record<string, string>>;
  /** Name of the environment variable holding a bearer token. */
  readonly tokenEnv?: string;
  /** Name of the environment variable holding the client secret. */
  readonly clientSecretEnv?: string;
}

export interface Credentials {
  readonly token?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
}

/** The secrets named by the options, read from the environment; usage errors for empty or half-given ones. */
export function readCredentials(options: Pick<TargetOptions, 'env' | 'tokenEnv' | 'clientId' | 'clientSecretEnv'>): Credentials {
  const { tokenEnv, clientId, clientSecretEnv } = options;
  if (tokenEnv !== undefined && (clientId !== undefined || clientSecretEnv !== undefined)) {
    throw new UsageError('CLI_USAGE', 'give --token-env, or --client-id with --client-secret-env, not both');
  }
  const fromEnv = (flag: string, name: string): string => {
    const value = options.env[name];
    if (value === undefined || value.trim() === '') throw new UsageError('CLI_USAGE', `${flag} ${name}: the environment variable ${name} is empty or not set`);
    return value.trim();
  };
  if (tokenEnv !== undefined) return { token: fromEnv('--token-env', tokenEnv) };
  if (clientId === undefined && clientSecretEnv === undefined) return {};
  if (clientId === undefined || clientId === '') throw new UsageError('CLI_USAGE', '--client-secret-env needs --client-id');
  if (clientSecretEnv === undefined) throw new UsageError('CLI_USAGE', '--client-id needs --client-secret-env VAR (the variable holding the client secret)');
  return { clientId, clientSecret: fromEnv('--client-secret-env', clientSecretEnv) };
}

/** `sim` → the in-process simulator; an http(s) URL → the live adapter. */
export async function createTarget(spec: string, options: TargetOptions): Promise<Target> {
  if (spec === 'sim') {
    const { createSimTarget } = await import('../adapters/simulator.js');
    const sim = await createSimTarget({
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.deviate === undefined ? {} : { deviate: options.deviate }),
      ...(options.surface === undefined ? {} : { surface: options.surface }),
      ...(options.readings === undefined ? {} : { readings: options.readings }),
      ...(options.accounts === undefined ? {} : { accounts: options.accounts }),
      ...(options.counts === undefined ? {} : { counts: options.counts }),
      ...(options.dataset === undefined ? {} : { dataset: options.dataset }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    const vars = { ...sim.vars, ...(options.vars ?? {}) };
    return { kind: sim.kind, baseUrl: sim.baseUrl, vars, send: (r) => sim.send(r), close: () => sim.close() };
  }
  if (!/^https?:\/\//i.test(spec)) throw new UsageError('CLI_USAGE', `--target takes 'sim' or an http(s) URL, got '${spec}'`);
  const credentials = readCredentials(options);
  return createHttpTarget({
    baseUrl: spec,
    ...credentials,
    vars: { ...(options.vars ?? {}) },
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.rps === undefined ? {} : { rps: options.rps }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
  });
}

// ---------------------------------------------------------------- --var and --config

/** `name=value` assignments (the value may contain `=`); later ones win. */
export function parseVarAssignments(list: readonly string[]): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const item of list) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? item : item.slice(0, eq);
    if (eq < 0 || !VAR_NAME.test(name)) throw new UsageError('CLI_USAGE', `--var takes name=value (name of letters, digits and _), got '${item}'`);
    vars[name] = item.slice(eq + 1);
  }
  return vars;
}

/** `--config file.yaml`: `{vars: {...}, token_env, client_id, client_secret_env, base_url}`; secrets stay in the environment. */
export type { ConfigFile } from './config.js';

/** The names a config file is found by, in the working directory or a parent, when --config is not given. */
const CONFIG_NAMES = ['commerce-sim.config.yaml', 'commerce-sim.config.yml', 'commerce-sim.config.json'] as const;

/** The nearest config file from `cwd` up to the root, or undefined. */
export async function findConfig(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_NAMES) {
      const file = join(dir, name);
      const found = await stat(file).then(
        (s) => s.isFile(),
        () => false,
      );
      if (found) return file;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** `label`: how errors name the file (the path given to --config, or the path of one found). */
export async function loadConfig(path: string, cwd: string, label = path): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new UsageError('CLI_USAGE', `${label}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The YAML parser and the validator load with a config file, not with every command.
  const { parseConfig } = await import('./config-file.js');
  return parseConfig(text, label);
}
