/**
 * The target options commands share (credentials, variables, config file, writes, pacing) and their
 * conversion into createTarget's options; each command adds its own (seed, deviations, ...).
 */
import type { RuleId } from '../rules/ids.js';
import { findConfig, loadConfig, parseVarAssignments, readCredentials, type ConfigFile, type Credentials, type TargetOptions } from './targets.js';
import { parseDeviations } from './sim-options.js';
import type { Values } from './command.js';
import { REPORTERS, reporterFor, type Reporter } from './style.js';
import { UsageError, type CliIo } from './io.js';
import { positiveOption, wholeOption } from '../numbers.js';

/** Names of environment variables holding the secrets: a secret itself never goes on a command line. */
export const CREDENTIAL_OPTIONS = {
  'token-env': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret-env': { type: 'string' },
} as const;

/** What run, props, record and diff take besides `--target` (diff has two sides instead). */
export const TARGET_OPTIONS = {
  ...CREDENTIAL_OPTIONS,
  var: { type: 'string', multiple: true },
  config: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  budget: { type: 'string' },
  rps: { type: 'string' },
} as const;

export type TargetValues = Values<typeof TARGET_OPTIONS>;

/** `--config FILE`, else the nearest commerce-sim.config.yaml (.yml, .json) from the working directory up; flags beat either. */
export async function configFrom(values: Pick<TargetValues, 'config'>, io: CliIo): Promise<ConfigFile> {
  if (values.config !== undefined) return loadConfig(values.config, io.cwd);
  const found = await findConfig(io.cwd);
  return found === undefined ? { vars: {} } : loadConfig(found, io.cwd, found);
}

/** The credential options; a flag beats the config file. */
export interface CredentialNames {
  readonly tokenEnv: string | undefined;
  readonly clientId: string | undefined;
  readonly clientSecretEnv: string | undefined;
}

export function credentialOptions(values: Values<typeof CREDENTIAL_OPTIONS>, config?: ConfigFile): CredentialNames {
  return {
    tokenEnv: values['token-env'] ?? config?.tokenEnv,
    clientId: values['client-id'] ?? config?.clientId,
    clientSecretEnv: values['client-secret-env'] ?? config?.clientSecretEnv,
  };
}

export type SharedTargetOptions = TargetOptions & { readonly vars: Readonly<Record<string, string>> };

export function targetOptionsFrom(values: TargetValues, config: ConfigFile, io: CliIo): SharedTargetOptions {
  return {
    env: io.env,
    vars: { ...config.vars, ...parseVarAssignments(values.var ?? []) },
    ...credentialOptions(values, config),
    budget: wholeOption('--budget', values.budget, 1, Number.MAX_SAFE_INTEGER),
    rps: positiveOption('--rps', values.rps),
  };
}

/** Read before any work, so a missing variable is a usage error up front; the simulator needs none. */
export function credentialsFor(spec: string, options: TargetOptions): Credentials {
  return spec === 'sim' ? {} : readCredentials(options);
}

/** Against a URL, no credentials is almost always a mistake: say so before the preflight refuses. */
export function warnWithoutCredentials(spec: string, credentials: Credentials, io: CliIo): void {
  if (spec === 'sim' || credentials.token !== undefined || credentials.clientSecret !== undefined || credentials.clientId !== undefined) return;
  io.stderr.write('commerce-sim: warning: no credentials given (--token-env VAR, or --client-id ID --client-secret-env VAR); requests go without a bearer token\n');
}

/** `--deviate` ids (and diff's `--deviate-a/-b`): the one reader of sim-options.ts. */
export const checkDeviations = (flag: string, ids: readonly string[]): RuleId[] => parseDeviations(flag, ids);

/** What run and props read first, alike: the config file, the reporter, the target, deviations only for the simulator. */
export async function runBasics(
  values: TargetValues & { readonly target?: string | undefined; readonly reporter?: string | undefined; readonly deviate?: string[] | undefined },
  io: CliIo,
): Promise<{ readonly config: ConfigFile; readonly reporter: Reporter; readonly spec: string; readonly deviate: readonly RuleId[] }> {
  const config = await configFrom(values, io);
  const reporter = reporterFor(values.reporter, io.env);
  if (reporter === undefined) throw new UsageError('CLI_USAGE', `--reporter takes ${REPORTERS.join(' or ')}, got '${values.reporter ?? ''}'`);
  const spec = values.target ?? config.baseUrl ?? 'sim';
  const deviate = checkDeviations('--deviate', values.deviate ?? []);
  if (deviate.length > 0 && spec !== 'sim') throw new UsageError('CLI_USAGE', '--deviate applies to --target sim only');
  return { config, reporter, spec, deviate };
}
