/**
 * The embedded simulator's flags, one definition for every command that starts one (issue 35: one name per
 * thing): `run`, `props`, `serve`, `proxy --upstream sim` and `export --target sim` take the same options
 * with the same help and the same checks. The simulator's data seed is `--sim-seed` everywhere (`props
 * --seed` is fast-check's); the old `--seed` of the commands that had it is refused with a pointer.
 */
import { isDeviationId, DEVIATION_IDS } from '../engine/deviations.js';
import { parseReading, type ReadingChoice } from '../rules/readings.js';
import type { RuleId } from '../rules/ids.js';
import { readSimulatorSettings, type SimulatorSetting } from '../sim/options.js';
import { DatasetError, readingsOfFile, resolveDataset } from '../store/adversity-profiles.js';
import { UsageError } from './io.js';
import type { Values } from './command.js';
import type { StartSimulatorOptions } from '../kit/start-simulator.js';

export const SIM_OPTIONS = {
  'sim-seed': { type: 'string' },
  accounts: { type: 'string' },
  count: { type: 'string', multiple: true },
  dataset: { type: 'string' },
  deviate: { type: 'string', multiple: true },
  surface: { type: 'string' },
  reading: { type: 'string', multiple: true },
  readings: { type: 'string' },
} as const;

/** The old name of the data seed, kept only to be refused with a pointer (serve, proxy, export, fixtures). */
export const OLD_SEED_OPTION = { seed: { type: 'string' } } as const;

/** The help lines of SIM_OPTIONS, the same in every command (indented as each command's options are). */
export function simOptionsUsage(indent: string, width: number): string {
  const rows: [string, string][] = [
    ['--sim-seed N', "the simulator's data seed: ids, records, timestamps (default 42)"],
    ['--accounts N', 'seeded accounts (default 120)'],
    ['--count NAME=N', 'seeded records of another collection (orders, files, customers, ...); repeat it per collection'],
    ['--dataset NAME|FILE', 'a named dataset (default, shared-timestamps, hostile, ...) or a JSON/YAML dataset file'],
    ['--deviate RULE', 'break one documented rule on purpose; repeat it per rule (`commerce-sim rules`)'],
    ['--surface S', 'full (default: the public API) or documented (only what the API document states)'],
    ['--reading NAME=VALUE', 'answer a point the document leaves open another conforming way; repeat it per point'],
    ['--readings FILE', 'the readings.json a run against a deployment wrote: answer as it does (--reading wins)'],
  ];
  return rows.map(([flag, text]) => `${indent}${flag.padEnd(width)}${text}`).join('\n');
}

export type SimValues = Values<typeof SIM_OPTIONS>;

/**
 * What the flags ask of the embedded simulator, checked: startSimulator()'s own options (every member optional,
 * the simulator's defaults), the readings already read from their file.
 */
export type SimFlags = Pick<StartSimulatorOptions, 'seed' | 'accounts' | 'counts' | 'dataset' | 'deviate' | 'surface'> & { readonly readings?: ReadingChoice };

/** `serve --seed 7` and the like: the data seed is --sim-seed in every command. */
export function refuseOldSeed(values: { readonly seed?: string | undefined }): void {
  if (values.seed !== undefined) {
    throw new UsageError('CLI_USAGE', `--seed is now --sim-seed (the simulator's data seed has one name in every command): give --sim-seed ${values.seed}`);
  }
}

/** A repeatable flag given one list (`--count orders=10500,files=10200`): say how to repeat it instead. */
function oneEach(flag: string, texts: readonly string[], looksLikeOne: RegExp): void {
  for (const text of texts) {
    const parts = text.split(',');
    if (parts.length > 1 && parts.every((p) => looksLikeOne.test(p.trim()))) {
      throw new UsageError('CLI_USAGE', `${flag} takes one value; give the flag once for each: ${parts.map((p) => `${flag} ${p.trim()}`).join(' ')}`);
    }
  }
}

/** A flag's text as a number when it is digits; anything else goes to the reader as it came, to be refused there. */
export const numeric = (text: string | undefined): number | string | undefined => (text !== undefined && /^\d{1,16}$/.test(text) ? Number(text) : text);

/** `--count NAME=N`, repeatable, as the counts object the settings reader checks. */
export function parseCounts(entries: readonly string[]): Record<string, number | string> {
  oneEach('--count', entries, /^[\w-]+=/);
  const counts: Record<string, number | string> = {};
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError('CLI_USAGE', `--count takes NAME=N with NAME a seeded collection (accounts, orders, files, customers, ...), got '${entry}'`);
    counts[entry.slice(0, eq)] = numeric(entry.slice(eq + 1)) ?? '';
  }
  return counts;
}

/** `--reading NAME=VALUE` (repeatable) as a reading choice; each checked against the points the simulator knows. */
export function parseReadings(texts: readonly string[]): ReadingChoice {
  oneEach('--reading', texts, /^[\w.-]+=/);
  const out: Record<string, string> = {};
  for (const text of texts) {
    const parsed = parseReading(text);
    if (!parsed.ok) throw new UsageError('CLI_USAGE', `--reading ${text}: ${parsed.message}`);
    out[parsed.value.name] = parsed.value.value;
  }
  return out as ReadingChoice;
}

/** `--deviate RULE` given as one list is refused with how to repeat it; the ids are checked by whoever reads them. */
export function deviationList(flag: string, ids: readonly string[]): readonly string[] {
  oneEach(flag, ids, /^[a-z][\w.-]*$/);
  return ids;
}

/** `--deviate RULE` (repeatable): only documented rules have a deviation; anything else would be a silent no-op. */
export function parseDeviations(flag: string, ids: readonly string[]): RuleId[] {
  deviationList(flag, ids);
  const unknown = ids.find((id) => !isDeviationId(id));
  if (unknown !== undefined) throw new UsageError('CLI_USAGE', `${flag} ${unknown}: the simulator has no such deviation (one of: ${DEVIATION_IDS.join(', ')})`);
  return ids.filter(isDeviationId);
}

/** The flag a simulator setting comes from, for messages (`counts.orders` → `--count orders`). */
const FLAGS: Readonly<Record<string, string>> = { seed: '--sim-seed', accounts: '--accounts', counts: '--count', surface: '--surface', readings: '--reading' };
const SETTINGS: readonly SimulatorSetting[] = ['seed', 'accounts', 'counts', 'surface', 'readings'];

/** A refused setting as a usage error naming its flag; `flags` adds a command's own settings' flags. */
export function settingError(problem: { readonly path: string; readonly message: string }, flags: Readonly<Record<string, string>> = {}): UsageError {
  const [head = '', ...rest] = problem.path.split('.');
  return new UsageError('CLI_USAGE', `${[flags[head] ?? FLAGS[head] ?? `--${head}`, ...rest].join(' ')} ${problem.message}`);
}

/** The names of the simulator flags given, for "applies to the embedded simulator only". */
function given(values: SimValues): string[] {
  return (Object.keys(SIM_OPTIONS) as (keyof SimValues)[]).filter((k) => values[k] !== undefined).map((k) => `--${k}`);
}

/**
 * The simulator flags, checked, the dataset and a readings file read (so a bad one is a usage error
 * before any work). `embedded` false (a URL target or upstream): every such flag is a usage error naming
 * `where`, but `--sim-seed` when `seedElsewhere` says the command uses it otherwise (a live target's retry jitter).
 */
export async function readSimFlags(values: SimValues, context: { readonly embedded: boolean; readonly where: string; readonly cwd: string; readonly seedElsewhere?: boolean }): Promise<SimFlags> {
  if (!context.embedded) {
    const flags = given(values).filter((f) => !(f === '--sim-seed' && context.seedElsewhere === true));
    if (flags.length > 0) throw new UsageError('CLI_USAGE', `${flags.join(', ')} ${flags.length === 1 ? 'applies' : 'apply'} to the embedded simulator only (${context.where})`);
  }
  const counts = values.count === undefined ? undefined : parseCounts(values.count);
  const readings = values.reading === undefined ? undefined : parseReadings(values.reading);
  const deviate = values.deviate === undefined ? undefined : parseDeviations('--deviate', values.deviate);
  const read = readSimulatorSettings(
    {
      ...(values['sim-seed'] === undefined ? {} : { seed: numeric(values['sim-seed']) }),
      ...(values.accounts === undefined ? {} : { accounts: numeric(values.accounts) }),
      ...(counts === undefined ? {} : { counts }),
      ...(values.surface === undefined ? {} : { surface: values.surface }),
      ...(readings === undefined ? {} : { readings }),
    },
    SETTINGS,
  );
  if (!read.ok) throw settingError(read);
  const s = read.value;
  const fromFile = values.readings === undefined ? undefined : await datasetRead('--readings', () => readingsOfFile(values.readings ?? '', { cwd: context.cwd }));
  if (values.dataset !== undefined) await datasetRead('--dataset', () => resolveDataset(values.dataset ?? '', { cwd: context.cwd }));
  const merged = fromFile === undefined ? s.readings : { ...fromFile, ...(s.readings ?? {}) };
  return {
    ...(s.seed === undefined ? {} : { seed: s.seed }),
    ...(s.accounts === undefined ? {} : { accounts: s.accounts }),
    ...(s.counts === undefined || Object.keys(s.counts).length === 0 ? {} : { counts: s.counts }),
    ...(values.dataset === undefined ? {} : { dataset: values.dataset }),
    ...(deviate === undefined || deviate.length === 0 ? {} : { deviate }),
    ...(s.surface === undefined ? {} : { surface: s.surface }),
    ...(merged === undefined ? {} : { readings: merged }),
  };
}

/** The flags as createTarget's options (the dataset file read relative to `cwd`). */
export function simTargetOptions(flags: SimFlags, cwd: string): SimFlags & { readonly cwd: string } {
  return { ...flags, cwd };
}

async function datasetRead<T>(flag: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DatasetError) throw new UsageError('CLI_USAGE', `${flag}: ${error.message}`);
    throw error;
  }
}
