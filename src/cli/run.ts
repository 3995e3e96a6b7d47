/**
 * `commerce-sim run`: load scenarios, pick a target, run, write every report format, print a summary.
 * Exit 0 when every documented rule holds, 1 when one fails, 2 on usage or target errors.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunReport } from '../report/model.js';
import { inconclusives, judgedLine, readingsLine, userChecks } from '../report/summarise.js';
import { catalogue, ruleById } from '../rules/catalogue.js';
import type { RunProgress } from '../scenarios/runner.js';
import { selectScenarios } from '../scenarios/select.js';
import { parseShard, type Shard } from '../shard.js';
import { createTarget } from './targets.js';
import { wholeOption } from '../numbers.js';
import { fingerprinted } from '../kit/fingerprint-target.js';
import { failedRuleLines } from './failed-rules.js';
import { guardTarget } from '../adapters/guarded.js';
import { hasCredentials, preflight } from '../adapters/preflight.js';
import { appendStepSummary } from './step-summary.js';
import { githubPlaces } from './annotation-places.js';
import { tellReportDir } from './report-dir-file.js';
import { TargetError } from '../port.js';
import { defineCommand, type DefinedCommand, type Values } from './command.js';
import { EXIT_OK, EXIT_RULE_FAILED, UsageError, type CliIo } from './io.js';
import { styleFor, type Style } from './style.js';
import { packageVersion, reportTarget, runTiming } from './run-meta.js';
import { credentialsFor, runBasics, TARGET_OPTIONS, targetOptionsFrom, warnWithoutCredentials } from './target-options.js';
import { readSimFlags, SIM_OPTIONS, simOptionsUsage, simTargetOptions } from './sim-options.js';

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
the embedded simulator (--target sim), as serve, props, proxy --upstream sim and export take it:
${simOptionsUsage('  ', 28)}
  --seed                      refused: the simulator's data seed is --sim-seed (\`props --seed\` is fast-check's)
selection:
  --grep TEXT                 scenarios whose name or file contains TEXT (case-insensitive)
  --tag T                     scenarios tagged T (repeatable: any of them)
  --shard I/N                 the I-th of N deterministic shards
output:
  --strict                    failing assumed rules fail the run too
  --report DIR                report directory (default: reports)
  --json                      print report.json to stdout instead of the summary
  --reporter summary|github   github adds ::error/::warning annotations at the scenario file and line
                              (the default when GITHUB_ACTIONS=true)
  -h, --help                  this help`;

const OPTIONS = {
  target: { type: 'string' },
  ...TARGET_OPTIONS,
  ...SIM_OPTIONS,
  strict: { type: 'boolean' },
  report: { type: 'string' },
  grep: { type: 'string' },
  tag: { type: 'string', multiple: true },
  shard: { type: 'string' },
  concurrency: { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean' },
  reporter: { type: 'string' },
} as const;

export const run: DefinedCommand = defineCommand({
  name: 'run',
  usage: USAGE,
  options: OPTIONS,
  allowPositionals: true,
  describe: (e) =>
    e.code === 'SCENARIO_INVALID' || e.code === 'SCENARIO_NOT_FOUND' ? `${e.code === 'SCENARIO_INVALID' ? 'invalid scenario file' : 'no scenarios'} (${e.code}):\n${e.message}` : undefined,
  main: runCommand,
});

async function runCommand(values: Values<typeof OPTIONS>, io: CliIo, positionals: readonly string[]): Promise<number> {
  // One name per seed across run and props: --seed is fast-check's (props), --sim-seed the simulator's data.
  if (values.seed !== undefined) throw new UsageError('CLI_USAGE', `run has no fast-check seed: give the simulator's data seed as --sim-seed ${values.seed} (--seed is props' fast-check seed)`);
  const { config, reporter, spec, deviate } = await runBasics(values, io);
  // The dataset and a readings file read here, so a bad one is a usage error before any work; --sim-seed also seeds a live target's retry jitter.
  const sim = await readSimFlags(values, { embedded: spec === 'sim', where: '--target sim', cwd: io.cwd, seedElsewhere: true });
  let shard: Shard | undefined;
  if (values.shard !== undefined) {
    const parsed = parseShard(values.shard);
    if (!parsed.ok) throw new UsageError('CLI_USAGE', parsed.message);
    shard = parsed.value;
  }
  const targetOptions = {
    ...targetOptionsFrom(values, config, io),
    ...simTargetOptions(sim, io.cwd),
    concurrency: wholeOption('--concurrency', values.concurrency, 1, 8),
  };
  const credentials = credentialsFor(spec, targetOptions);
  const tags = values.tag ?? [];
  const paths = positionals.length > 0 ? positionals : [fileURLToPath(new URL('../../scenarios', import.meta.url))];
  // The loader (ajv, yaml), the runner and the reporters load here: a usage error or --help does not wait for them.
  const [{ loadScenarios }, { runScenarios }, { buildRunReport }, { writeReports }, { renderJson }, { renderGithub }] = await Promise.all([
    import('../scenarios/load.js'),
    import('../scenarios/runner.js'),
    import('../report/build.js'),
    import('../report/write.js'),
    import('../report/json.js'),
    import('../report/github.js'),
  ]);
  const all = await loadScenarios(paths, { ruleExists: (id) => ruleById(id) !== undefined, cwd: io.cwd });
  const scenarios = selectScenarios(all, { ...(values.grep === undefined ? {} : { grep: values.grep }), tags, ...(shard === undefined ? {} : { shard }) });
  // A selection that matches nothing would pass having judged nothing.
  if (scenarios.length === 0 && all.length > 0) throw new UsageError('CLI_USAGE', `no scenario matches the selection (${selectionText(values)}) among ${all.length} loaded`);
  warnWithoutCredentials(spec, credentials, io);

  const started = Date.now();
  const target = await createTarget(spec, targetOptions);
  const prints = fingerprinted(target);
  const counter = guardTarget(prints.target);
  try {
    if (target.kind === 'http') await preflight(target, { credentials: hasCredentials(credentials) });
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
    const report = buildRunReport({
      catalogue,
      version: await packageVersion(),
      target: reportTarget(target, deviate),
      options: {
        strict,
        allowWrites: values['allow-writes'] === true,
        ...(targetOptions.seed === undefined ? {} : { simSeed: targetOptions.seed }),
        ...(values.grep === undefined ? {} : { grep: values.grep }),
        ...(tags.length > 0 ? { tags } : {}),
        ...(values.shard === undefined ? {} : { shard: values.shard }),
      },
      scenarios: results,
      readings: prints.result(),
      timing: runTiming(started, target, shard === undefined ? '' : `-shard${shard.index}of${shard.count}`, counter.requests()),
    });
    const written = await writeReports(resolve(io.cwd, values.report ?? 'reports'), report);
    await tellReportDir(io, written.dir);
    await appendStepSummary(io, report, 'run', written.dir);
    // Any target error (unreachable, a timeout or reset past the retries, the budget) leaves the run incomplete: exit 2.
    const fatal = counter.fatal() ?? counter.firstError();
    if (values.json === true) io.stdout.write(renderJson(report));
    else io.stdout.write(summaryText(report, shown(io.cwd, resolve(written.dir, 'report.html')), fatal !== undefined, styleFor(io.stdout, io.env)));
    // Annotations at the scenario files the repository has; the shipped ones (a package's, the Action's) are named in the message.
    const sources = all.flatMap((s) => (s.source === undefined ? [] : [[s.file, s.source] as const]));
    if (reporter === 'github' && values.json !== true) io.stdout.write(renderGithub(report, githubPlaces(io, sources)));
    if (fatal !== undefined) throw new TargetError(fatal.code, `incomplete: ${fatal.message}`, { cause: fatal });
    return report.summary.verdict === 'pass' ? EXIT_OK : EXIT_RULE_FAILED;
  } finally {
    await target.close();
  }
}

function selectionText(values: { grep?: string | undefined; tag?: string[] | undefined; shard?: string | undefined }): string {
  const parts = [values.grep === undefined ? '' : `--grep ${values.grep}`, ...(values.tag ?? []).map((t) => `--tag ${t}`), values.shard === undefined ? '' : `--shard ${values.shard}`];
  return parts.filter((p) => p !== '').join(' ');
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

function shown(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

function summaryText(report: RunReport, reportPath: string, incomplete: boolean, style: Style): string {
  const { summary } = report;
  const failing = report.rules.filter((r) => r.status === 'fail');
  const documentedFails = failing.filter((r) => r.level === 'documented').length;
  // A failure found is a finding even when the run could not finish; a pass is only a pass when it did.
  const headline =
    documentedFails > 0
      ? `FAIL: ${documentedFails} documented rule${documentedFails === 1 ? '' : 's'} failed${incomplete ? ' (and the run is incomplete)' : ''}`
      : incomplete
        ? 'INCOMPLETE: the target could not be used to the end; the verdicts cover only what ran'
        : summary.verdict === 'pass'
          ? `PASS: ${judgedLine(report)}`
          : summary.user.fail > 0
            ? `FAIL: ${summary.user.fail} of your own check${summary.user.fail === 1 ? '' : 's'} failed`
            : 'FAIL: assumed rules failed (--strict)';
  const row = (label: string, c: { pass: number; fail: number; inconclusive: number; notCovered: number }, note = '') =>
    `  ${label.padEnd(11)} ${String(c.pass).padStart(4)} pass ${String(c.fail).padStart(4)} fail ${String(c.inconclusive).padStart(4)} inconclusive ${String(c.notCovered).padStart(4)} not covered${note}`;
  const assumedNote = summary.assumed.fail > 0 && !report.options.strict ? '  (observed behaviour; fails the run only with --strict)' : '';
  const painted = incomplete || summary.verdict !== 'pass' ? style.fail(headline) : style.pass(headline);
  const lines = [
    `commerce-sim run: ${painted}`,
    row('documented', summary.documented),
    row('assumed', summary.assumed, assumedNote),
    ...(userChecks(report).length === 0
      ? []
      : [`  ${'your checks'.padEnd(11)} ${String(summary.user.pass).padStart(4)} pass ${String(summary.user.fail).padStart(4)} fail ${String(summary.user.inconclusive).padStart(4)} inconclusive`]),
    `  ${'cases'.padEnd(11)} ${String(summary.cases.pass).padStart(4)} pass ${String(summary.cases.fail).padStart(4)} fail ${String(summary.cases.inconclusive).padStart(4)} inconclusive ${String(summary.cases.skip).padStart(4)} skipped`,
  ];
  // Causes first; a rule failing beside one of them says which it follows (report/summarise.ts failingRules).
  lines.push(...failedRuleLines(report, style));
  // Documented rules nobody could judge: not a failure, but the reader should know which and why.
  const unjudged = inconclusives(report).filter((u) => u.rule?.level === 'documented' && u.rule.status === 'inconclusive');
  for (const u of unjudged.slice(0, 10)) lines.push(`  ${style.warn('inconclusive')}: ${u.verdict.ruleId}: ${u.reason.length > 160 ? `${u.reason.slice(0, 157)}...` : u.reason}`);
  if (unjudged.length > 10) lines.push(`  ... and ${unjudged.length - 10} more (report.md, "Inconclusive")`);
  const readings = readingsLine(report);
  if (readings !== undefined) lines.push(`  ${readings}`);
  lines.push(`  requests: ${report.timing.requests} in ${(report.timing.durationMs / 1000).toFixed(1)} s`, `  report: ${reportPath}`);
  return `${lines.join('\n')}\n`;
}
