/**
 * `commerce-sim run`: load scenarios, pick a target, run, write every report format, print a summary.
 * Exit 0 when every documented rule holds, 1 when one fails, 2 on usage or target errors.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { RuleSummary, RunReport } from '../report/model.js';
import { renderJson } from '../report/json.js';
import { summariseRules, summariseRun } from '../report/summarise.js';
import { writeReports } from '../report/write.js';
import { catalogue, ruleById } from '../rules/catalogue.js';
import { DATASET_PROFILES } from '../store/datasets.js';
import { loadScenarios, ScenarioError } from '../scenarios/load.js';
import { runScenarios, type RunProgress } from '../scenarios/run.js';
import { parseShard, selectScenarios, type Shard } from '../scenarios/select.js';
import { createTarget, intOption, loadConfig, parseVarAssignments, positiveOption, readCredentials, type ConfigFile } from '../target/create.js';
import { TargetError, type Target, type TargetErrorCode } from '../target/types.js';
import { EXIT_OK, EXIT_RULE_FAILED, EXIT_USAGE, UsageError, type CliIo, type Command } from './io.js';

export const USAGE = `usage: commerce-sim run [PATHS...] [options]

Runs YAML scenarios (default: the scenarios shipped with the kit) against the embedded simulator
or a live base URL, and writes report.json, junit.xml, report.md and report.html.

target:
  --target sim|URL            the simulator (default) or a base URL, e.g. https://api.example.com
  --token-env VAR             read a bearer token from the environment variable VAR
  --client-id ID              exchange client credentials for a token at /oauth/access_token ...
  --client-secret-env VAR     ... with the client secret read from the environment variable VAR
  --var name=value            a variable scenarios read as \${{ vars.name }} (repeatable)
  --config FILE               YAML: {vars: {...}, token_env, client_id, client_secret_env, base_url}
  --allow-writes              run scenarios tagged 'writes' against a live target
  --budget N                  at most N requests to a live target (default 5000)
  --rps N                     at most N requests per second to a live target
  --concurrency N             scenarios in flight, 1..8 (default 4 over HTTP, 1 in process)
  --seed S                    simulator seed
  --deviate RULE              make the simulator break RULE on purpose (repeatable)
  --dataset NAME              simulator data: ${DATASET_PROFILES.join(' or ')} (default: default)
selection:
  --grep TEXT                 scenarios whose name or file contains TEXT (case-insensitive)
  --tag T                     scenarios tagged T (repeatable: any of them)
  --shard I/N                 the I-th of N deterministic shards
output:
  --strict                    failing assumed rules fail the run too
  --report DIR                report directory (default: reports)
  --json                      print report.json to stdout instead of the summary
  -h, --help                  this help`;

const OPTIONS = {
  target: { type: 'string' },
  'token-env': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret-env': { type: 'string' },
  var: { type: 'string', multiple: true },
  config: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  strict: { type: 'boolean' },
  report: { type: 'string' },
  grep: { type: 'string' },
  tag: { type: 'string', multiple: true },
  shard: { type: 'string' },
  concurrency: { type: 'string' },
  rps: { type: 'string' },
  budget: { type: 'string' },
  seed: { type: 'string' },
  deviate: { type: 'string', multiple: true },
  dataset: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Errors that make every further request pointless: the run stops and exits 2. */
const FATAL: ReadonlySet<TargetErrorCode> = new Set(['TARGET_UNREACHABLE', 'TARGET_BUDGET_EXHAUSTED', 'TARGET_AUTH_FAILED']);

export const run: Command = async (argv, io) => {
  try {
    return await runCommand(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`commerce-sim run: ${error.message}\n${USAGE.split('\n')[0] ?? ''}\nRun \`commerce-sim run --help\` for the options.\n`);
      return EXIT_USAGE;
    }
    if (error instanceof ScenarioError) {
      io.stderr.write(`commerce-sim run: ${error.code === 'SCENARIO_INVALID' ? 'invalid scenario file' : 'no scenarios'} (${error.code}):\n${error.message}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof TargetError) {
      io.stderr.write(`commerce-sim run: ${error.message} (${error.code})\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
};

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help === true) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT_OK;
  }
  const config: ConfigFile = values.config === undefined ? { vars: {} } : await loadConfig(values.config, io.cwd);
  const spec = values.target ?? config.baseUrl ?? 'sim';
  const deviate = values.deviate ?? [];
  for (const id of deviate) if (ruleById(id) === undefined) throw new UsageError(`--deviate ${id}: no such rule (see \`commerce-sim rules\`)`);
  if (deviate.length > 0 && spec !== 'sim') throw new UsageError('--deviate applies to --target sim only');
  const dataset = values.dataset;
  if (dataset !== undefined && spec !== 'sim') throw new UsageError('--dataset applies to --target sim only');
  if (dataset !== undefined && !DATASET_PROFILES.some((p) => p === dataset)) throw new UsageError(`--dataset takes ${DATASET_PROFILES.join(' or ')}, got '${dataset}'`);
  let shard: Shard | undefined;
  if (values.shard !== undefined) {
    const parsed = parseShard(values.shard);
    if (!parsed.ok) throw new UsageError(parsed.message);
    shard = parsed.shard;
  }
  const targetOptions = {
    env: io.env,
    vars: { ...config.vars, ...parseVarAssignments(values.var ?? []) },
    seed: intOption('--seed', values.seed, 0, 2 ** 32 - 1),
    deviate,
    ...(dataset === undefined ? {} : { dataset }),
    tokenEnv: values['token-env'] ?? config.tokenEnv,
    clientId: values['client-id'] ?? config.clientId,
    clientSecretEnv: values['client-secret-env'] ?? config.clientSecretEnv,
    budget: intOption('--budget', values.budget, 1, Number.MAX_SAFE_INTEGER),
    rps: positiveOption('--rps', values.rps),
    concurrency: intOption('--concurrency', values.concurrency, 1, 8),
  };
  const credentials = spec === 'sim' ? {} : readCredentials(targetOptions); // usage errors before any work
  const tags = values.tag ?? [];
  const paths = positionals.length > 0 ? positionals : [fileURLToPath(new URL('../../scenarios', import.meta.url))];
  const all = await loadScenarios(paths, { ruleExists: (id) => ruleById(id) !== undefined, cwd: io.cwd });
  const scenarios = selectScenarios(all, { ...(values.grep === undefined ? {} : { grep: values.grep }), tags, ...(shard === undefined ? {} : { shard }) });

  const started = Date.now();
  const target = await createTarget(spec, targetOptions);
  const counter = countingTarget(target);
  try {
    const progress = values.json !== true && io.stdout.isTTY === true ? progressLine(io) : undefined;
    const results = await runScenarios(scenarios, {
      target: counter.target,
      ruleById,
      allowWrites: values['allow-writes'] === true,
      ...(targetOptions.concurrency === undefined ? {} : { concurrency: targetOptions.concurrency }),
      secrets: [credentials.token, credentials.clientSecret, target.vars['admin_token']].filter((s): s is string => s !== undefined),
      signal: counter.signal,
      ...(progress === undefined ? {} : { onProgress: progress.update }),
    });
    progress?.clear();
    const strict = values.strict === true;
    const rules = summariseRules(catalogue, results, []);
    const report: RunReport = {
      schemaVersion: 1,
      tool: { name: 'commerce-sim', version: await packageVersion() },
      target: { kind: target.kind, baseUrl: target.baseUrl, ...(deviate.length > 0 ? { deviate: deviate.join(',') } : {}) },
      options: {
        strict,
        allowWrites: values['allow-writes'] === true,
        ...(targetOptions.seed === undefined ? {} : { seed: targetOptions.seed }),
        ...(values.grep === undefined ? {} : { grep: values.grep }),
        ...(tags.length > 0 ? { tags } : {}),
        ...(values.shard === undefined ? {} : { shard: values.shard }),
      },
      summary: summariseRun(rules, results, [], strict),
      rules,
      scenarios: results,
      properties: [],
      timing: { runId: runId(started, target, shard), startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, requests: counter.requests() },
    };
    const written = await writeReports(resolve(io.cwd, values.report ?? 'reports'), report);
    const fatal = counter.fatal();
    if (values.json === true) io.stdout.write(renderJson(report));
    else io.stdout.write(summaryText(report, shown(io.cwd, resolve(written.dir, 'report.html')), fatal !== undefined));
    if (fatal !== undefined) {
      io.stderr.write(`commerce-sim run: stopped: ${fatal.message} (${fatal.code})\n`);
      return EXIT_USAGE;
    }
    return report.summary.verdict === 'pass' ? EXIT_OK : EXIT_RULE_FAILED;
  } finally {
    await target.close();
  }
}

/** Counts requests and stops the run at the first error that makes further requests pointless. */
function countingTarget(target: Target) {
  let requests = 0;
  let fatal: TargetError | undefined;
  const controller = new AbortController();
  const wrapped: Target = {
    kind: target.kind,
    baseUrl: target.baseUrl,
    vars: target.vars,
    async send(request) {
      requests += 1;
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
  return { target: wrapped, signal: controller.signal, requests: () => requests, fatal: () => fatal };
}

function progressLine(io: CliIo) {
  let done = 0;
  const columns = io.stdout.columns ?? 0;
  const width = columns > 20 ? columns - 1 : 79;
  return {
    update(event: RunProgress) {
      if (event.kind === 'done') {
        done = event.done;
        return;
      }
      const line = `[${done}/${event.total}] ${event.scenario.name}`;
      io.stdout.write(`\r\x1b[K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    },
    clear() {
      io.stdout.write('\r\x1b[K');
    },
  };
}

/** `20261122T204512Z-sim`: when and against what; the shard keeps parallel CI jobs apart. */
function runId(started: number, target: Target, shard: Shard | undefined): string {
  const when = new Date(started).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  const what = target.kind === 'sim' ? 'sim' : new URL(target.baseUrl).host.replace(/[^A-Za-z0-9.-]/g, '-');
  return `${when}-${what}${shard === undefined ? '' : `-shard${shard.index}of${shard.count}`}`;
}

async function packageVersion(): Promise<string> {
  try {
    const pkg: unknown = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    return typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function shown(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

function summaryText(report: RunReport, reportPath: string, stopped: boolean): string {
  const { summary } = report;
  const failing = stopped ? [] : report.rules.filter((r) => r.status === 'fail');
  const documentedFails = failing.filter((r) => r.level === 'documented').length;
  const headline = stopped
    ? 'STOPPED: the target could not be used; results are incomplete'
    : summary.verdict === 'pass'
      ? 'PASS: every documented rule holds'
      : documentedFails > 0
        ? `FAIL: ${documentedFails} documented rule${documentedFails === 1 ? '' : 's'} failed`
        : 'FAIL: assumed rules failed (--strict)';
  const row = (label: string, c: { pass: number; fail: number; notCovered: number }, note = '') =>
    `  ${label.padEnd(11)} ${String(c.pass).padStart(4)} pass ${String(c.fail).padStart(4)} fail ${String(c.notCovered).padStart(4)} not covered${note}`;
  const assumedNote = summary.assumed.fail > 0 && !report.options.strict ? '  (observed behaviour; fails the run only with --strict)' : '';
  const lines = [
    `commerce-sim run: ${headline}`,
    row('documented', summary.documented),
    row('assumed', summary.assumed, assumedNote),
    `  ${'cases'.padEnd(11)} ${String(summary.cases.pass).padStart(4)} pass ${String(summary.cases.fail).padStart(4)} fail ${String(summary.cases.skip).padStart(4)} skipped`,
  ];
  const order = (r: RuleSummary) => (r.level === 'documented' ? 0 : 1);
  for (const r of [...failing].sort((a, b) => order(a) - order(b)).slice(0, 15)) lines.push(`  failed: ${r.id} (${r.level}, ${r.section})`);
  if (failing.length > 15) lines.push(`  ... and ${failing.length - 15} more failing rules`);
  lines.push(`  requests: ${report.timing.requests} in ${(report.timing.durationMs / 1000).toFixed(1)} s`, `  report: ${reportPath}`);
  return `${lines.join('\n')}\n`;
}
