/**
 * `commerce-sim export accounts`: the §4.3 full export (page[limit]=100, sort=id, filter=gt(id,<last>))
 * to RFC 4180 CSV, from the embedded simulator (any adversarial dataset) or a base URL. The CSV goes
 * to --out or stdout; progress (a TTY only) and the summary go to stderr.
 */
import { OLD_SEED_OPTION, readSimFlags, refuseOldSeed, SIM_OPTIONS, simOptionsUsage, type SimFlags } from './sim-options.js';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { ClientError, type ClientErrorCode, type ClientErrorOptions } from '../client/retry.js';
import { exportAccounts, type CsvSink, type ExportProgress } from '../client/export.js';
import { createTarget } from './targets.js';
import { wholeOption } from '../numbers.js';
import { createSimTarget } from '../adapters/simulator.js';
import { hasCredentials, preflight } from '../adapters/preflight.js';
import { type Target } from '../port.js';
import { defineCommand, type DefinedCommand, type Values } from './command.js';
import { EXIT_OK, EXIT_RULE_FAILED, UsageError, type CliIo } from './io.js';
import { configFrom, credentialOptions, CREDENTIAL_OPTIONS, credentialsFor } from './target-options.js';
import { progressLine } from './progress.js';

export const USAGE = `usage: commerce-sim export accounts [options]

Exports every account sorted by id to CSV (name,legal_name,registration_id,id; RFC 4180) with the
keyset pattern of the API document §4.3: page[limit]=100, sort=id, filter=gt(id,<last id>).
429 and 5xx answers are retried, honouring Retry-After.

  --target sim|URL            the embedded simulator (default) or a base URL
  --out FILE                  write the CSV to FILE (default: stdout)
  --after ID                  resume after this id (appends to FILE without a second header)
  --token-env VAR             read a bearer token from the environment variable VAR
  --client-id ID              exchange client credentials for a token ...
  --client-secret-env VAR     ... with the client secret read from the environment variable VAR
  --budget N                  at most N requests, retries included (default 100000)
  --retries N                 retries of one request after 429/5xx (default 5)
the embedded simulator (--target sim), as serve, run, props and proxy --upstream sim take it (its
clock is virtual, so Retry-After is not slept):
${simOptionsUsage('  ', 28)}
  --seed                      refused: the simulator's data seed is --sim-seed, in every command
  -h, --help                  this help`;

const OPTIONS = {
  target: { type: 'string' },
  out: { type: 'string' },
  after: { type: 'string' },
  ...CREDENTIAL_OPTIONS,
  budget: { type: 'string' },
  retries: { type: 'string' },
  ...SIM_OPTIONS,
  ...OLD_SEED_OPTION,
} as const;

export const exportCommand: DefinedCommand = defineCommand({
  name: 'export',
  usage: USAGE,
  options: OPTIONS,
  allowPositionals: true,
  // `message (code); where to resume`: the resume is what a reader acts on, after the error it follows.
  describe: (e) => (e instanceof ExportStopped ? `${e.message} (${e.code})${e.resume}` : undefined),
  main: exportMain,
});

/** The client's error, with what the export wrote and where to resume: exit 2 through the one printer. */
class ExportStopped extends ClientError {
  readonly resume: string;
  constructor(code: ClientErrorCode, message: string, options: ClientErrorOptions & { readonly resume: string }) {
    super(code, message, options);
    this.resume = options.resume;
  }
}

async function exportMain(values: Values<typeof OPTIONS>, io: CliIo, positionals: readonly string[]): Promise<number> {
  const [what, ...extra] = positionals;
  if (what !== 'accounts' || extra.length > 0)
    throw new UsageError('CLI_USAGE', what === undefined ? 'say what to export: accounts' : `only 'accounts' can be exported, got '${[what, ...extra].join(' ')}'`);
  // No --config here: a commerce-sim.config.yaml found from the working directory up still names the target and credentials.
  const config = await configFrom({ config: undefined }, io);
  const spec = values.target ?? config.baseUrl ?? 'sim';
  refuseOldSeed(values);
  const flags = await readSimFlags(values, { embedded: spec === 'sim', where: '--target sim', cwd: io.cwd });
  if (values.after !== undefined && values.after.trim() === '') throw new UsageError('CLI_USAGE', '--after takes the id to resume after');
  const budget = wholeOption('--budget', values.budget, 1, Number.MAX_SAFE_INTEGER);
  const retries = wholeOption('--retries', values.retries, 0, 100);
  const options = {
    env: io.env,
    seed: flags.seed,
    ...credentialOptions(values, config),
  };
  const credentials = credentialsFor(spec, options);

  const target = await openTarget(spec, { ...options, flags, budget, cwd: io.cwd });
  // The target answers before anything is written: an unreachable URL, refused credentials or a base
  // URL that is not the API end in one line and one code, with no header on stdout and no file.
  if (target.kind === 'http') {
    try {
      await preflight(target, { credentials: hasCredentials(credentials), callerRetries: true });
    } catch (error) {
      await target.close();
      throw error;
    }
  }
  const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
  const header = values.after === undefined || out === undefined ? values.after === undefined : !(await nonEmpty(out));
  const file = out === undefined ? undefined : createWriteStream(out, { flags: values.after === undefined ? 'w' : 'a' });
  const sink = streamSink(file ?? io.stdout);
  const bar = io.stderr.isTTY === true ? progressLine({ write: (text) => void io.stderr.write(text), now: () => performance.now() }) : undefined;
  let last: ExportProgress | undefined;
  try {
    const result = await exportAccounts(target, sink, {
      ...(values.after === undefined ? {} : { after: values.after }),
      header,
      ...(budget === undefined ? {} : { budget }),
      ...(retries === undefined ? {} : { retries }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      // The embedded simulator's clock is virtual: waiting in real time would change nothing.
      ...(target.kind === 'sim' ? { sleep: () => Promise.resolve() } : {}),
      onProgress: (p) => {
        last = p;
        bar?.update(p);
      },
    });
    if (file !== undefined) await closeFile(file);
    bar?.finish();
    const { stats } = result;
    const retried = stats.retries === 0 ? '' : `, ${stats.retries} ${stats.retries === 1 ? 'retry' : 'retries'}${stats.throttled > 0 ? ` (${stats.throttled} × 429)` : ''}`;
    io.stderr.write(
      `exported ${result.records} account${result.records === 1 ? '' : 's'} to ${values.out ?? 'stdout'} in ${stats.pages} page${stats.pages === 1 ? '' : 's'} ` +
        `(${stats.requests} request${stats.requests === 1 ? '' : 's'}${retried})${result.lastId === undefined ? '' : `; last id ${result.lastId}`}\n`,
    );
    return EXIT_OK;
  } catch (error) {
    if (file !== undefined) await closeFile(file).catch(() => undefined);
    bar?.finish();
    // Nothing written by this run: a file it created holds at most the header, so it goes. A resumed
    // file (--after) keeps what earlier runs wrote. With records written, the file stays and says where to resume.
    const wrote = last !== undefined && last.records > 0 && last.lastId !== undefined;
    if (out !== undefined && !wrote && values.after === undefined) await rm(out, { force: true });
    const resume = wrote
      ? `; ${last?.records ?? 0} written to ${values.out ?? 'stdout'}, resume with --after ${last?.lastId ?? ''}`
      : out !== undefined && values.after === undefined
        ? `; ${values.out ?? ''} removed (nothing was exported)`
        : '';
    if (!(error instanceof ClientError)) {
      if (resume !== '') io.stderr.write(`commerce-sim export: stopped${resume}\n`);
      throw error;
    }
    // The target ignoring gt(id,…) breaks a documented rule (large-data.keyset.id); anything else is a target error (exit 2).
    if (error.code !== 'CLIENT_NO_PROGRESS') throw new ExportStopped(error.code, error.message, { cause: error, ...(error.status === undefined ? {} : { status: error.status }), resume });
    io.stderr.write(`commerce-sim export: ${error.message} (${error.code})${resume}\n`);
    return EXIT_RULE_FAILED;
  } finally {
    await target.close();
  }
}

interface OpenOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly seed: number | undefined;
  readonly flags: SimFlags;
  readonly tokenEnv: string | undefined;
  readonly clientId: string | undefined;
  readonly clientSecretEnv: string | undefined;
  readonly budget: number | undefined;
  readonly cwd: string;
}

async function openTarget(spec: string, o: OpenOptions): Promise<Target> {
  if (spec === 'sim') {
    // --accounts wins over the dataset's count (createSimTarget: explicit options over the dataset).
    return createSimTarget({ ...o.flags, cwd: o.cwd });
  }
  return createTarget(spec, {
    env: o.env,
    ...(o.tokenEnv === undefined ? {} : { tokenEnv: o.tokenEnv }),
    ...(o.clientId === undefined ? {} : { clientId: o.clientId }),
    ...(o.clientSecretEnv === undefined ? {} : { clientSecretEnv: o.clientSecretEnv }),
    // The client retries (honouring Retry-After) and counts the budget itself; the adapter should not as well.
    retries: 0,
    // Room for the token requests besides the client's own budget.
    budget: (o.budget ?? 100_000) + 100,
  });
}

function streamSink(stream: NodeJS.WritableStream): CsvSink {
  return {
    async write(chunk) {
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
  };
}

async function closeFile(file: ReturnType<typeof createWriteStream>): Promise<void> {
  file.end();
  await finished(file);
}

async function nonEmpty(path: string): Promise<boolean> {
  try {
    return (await stat(path)).size > 0;
  } catch {
    return false;
  }
}
