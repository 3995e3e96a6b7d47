/**
 * `commerce-sim props`: the property suites against the simulator or a base URL. Prints the seed
 * first, a line per property, and for each failure its counterexample, the rules it breaks and one
 * command that replays it; writes every report format. Exit 0 / 1 (a documented rule failed) / 2.
 */
import { resolve } from 'node:path';
import type { PropertyResult, RunReport } from '../report/model.js';
import { catalogue, ruleById } from '../rules/catalogue.js';
import { isSecretKey } from '../report/redact.js';
import { judgedLine, readingsLine } from '../report/summarise.js';
import { DEFAULT_RUNS, NOT_RUN, PROPERTY_NAMES, STOPPED } from '../properties/names.js';
import { createTarget } from './targets.js';
import { wholeOption } from '../numbers.js';
import { MAX_SEED } from '../limits.js';
import { guardTarget } from '../adapters/guarded.js';
import { fingerprinted } from '../kit/fingerprint-target.js';
import { appendStepSummary } from './step-summary.js';
import { githubPlaces } from './annotation-places.js';
import { tellReportDir } from './report-dir-file.js';
import { CodedKitError } from '../kit-errors.js';
import { TargetError } from '../port.js';
import { defineCommand, type DefinedCommand, type Values } from './command.js';
import { EXIT_OK, EXIT_RULE_FAILED, UsageError, type CliIo } from './io.js';
import { styleFor, type Style } from './style.js';
import { packageVersion, reportTarget, runTiming } from './run-meta.js';
import { hasCredentials, preflight } from '../adapters/preflight.js';
import { credentialsFor, runBasics, TARGET_OPTIONS, targetOptionsFrom, warnWithoutCredentials } from './target-options.js';
import { readSimFlags, SIM_OPTIONS, simOptionsUsage, simTargetOptions } from './sim-options.js';

export const USAGE = `usage: commerce-sim props [options]

Runs the property suites (fast-check) against the embedded simulator or a live base URL, prints
the seed, each property's verdict and, for a failure, the shrunk counterexample and a replay
command; writes report.json, junit.xml, report.md and report.html.

target:
  --target sim|URL            the simulator (default) or a base URL
  --token-env VAR             read a bearer token from the environment variable VAR
  --client-id ID              exchange client credentials for a token at /oauth/access_token ...
  --client-secret-env VAR     ... with the client secret read from the environment variable VAR
  --var name=value            a variable (realm_id, user_authentication_info_id, password_profile_id,
                              admin_token for a served simulator's admin API) (repeatable)
  --config FILE               YAML: {vars: {...}, token_env, client_id, client_secret_env, base_url}
  --allow-writes              run properties that write against a live target
  --budget N                  at most N requests to a live target (default 5000)
  --rps N                     at most N requests per second to a live target
the embedded simulator (--target sim), as serve, run, proxy --upstream sim and export take it:
${simOptionsUsage('  ', 28)}
properties:
  --grep NAME                 properties whose name contains NAME (${PROPERTY_NAMES.join(', ')})
  --runs N                    runs per property (default ${DEFAULT_RUNS})
  --seed S                    fast-check seed (default: a fresh one, printed first)
  --path P                    replay the failing run at path P (with --grep naming one property)
output:
  --strict                    failing assumed rules fail the run (and are shrunk) too
  --report DIR                report directory (default: reports)
  --json                      print report.json to stdout instead of the summary
  --reporter summary|github   github adds ::error/::warning annotations (default when GITHUB_ACTIONS=true)
  -h, --help                  this help`;

const OPTIONS = {
  target: { type: 'string' },
  ...TARGET_OPTIONS,
  ...SIM_OPTIONS,
  grep: { type: 'string' },
  runs: { type: 'string' },
  seed: { type: 'string' },
  path: { type: 'string' },
  strict: { type: 'boolean' },
  report: { type: 'string' },
  json: { type: 'boolean' },
  reporter: { type: 'string' },
} as const;

type PropsValues = Values<typeof OPTIONS>;

export const props: DefinedCommand = defineCommand({
  name: 'props',
  usage: USAGE,
  options: OPTIONS,
  main: propsCommand,
});

/** A property broke while running: it judged nothing, so the run has no verdict (exit 2). */
class PropertiesNotRun extends CodedKitError<'PROPS_NOT_RUN'> {
  override readonly name = 'PropertiesNotRun';
}

/** A fresh seed when none is given: the only unseeded value of a run, and it is printed first. */
const freshSeed = (): number => (Date.now() ^ Math.floor(Math.random() * 0x1_0000_0000)) >>> 0;

async function propsCommand(values: PropsValues, io: CliIo): Promise<number> {
  const { config, reporter, spec, deviate } = await runBasics(values, io);
  // The suites, their runner and the reporters load here: a usage error or --help does not wait for fast-check.
  const [{ selectProperties }, { runProperties }, { buildRunReport }, { writeReports }, { renderJson }, { renderGithub }] = await Promise.all([
    import('../properties/registry.js'),
    import('../properties/runner.js'),
    import('../report/build.js'),
    import('../report/write.js'),
    import('../report/json.js'),
    import('../report/github.js'),
  ]);
  const suites = selectProperties(values.grep);
  if (suites.length === 0) throw new UsageError('CLI_USAGE', `--grep ${values.grep ?? ''}: no property matches (${PROPERTY_NAMES.join(', ')})`);
  if (values.path !== undefined && suites.length !== 1) throw new UsageError('CLI_USAGE', '--path replays one property: add --grep with its name');
  if (values.path !== undefined && !/^\d+(:\d+)*(@[A-Za-z0-9+/:]*)?$/.test(values.path))
    throw new UsageError('CLI_USAGE', `--path takes the path a failure printed, such as 4:2:0, got '${values.path}'`);
  const seed = wholeOption('--seed', values.seed, 0, MAX_SEED) ?? freshSeed();
  const runs = wholeOption('--runs', values.runs, 1, 1_000_000) ?? DEFAULT_RUNS;
  // --sim-seed also seeds a live target's retry jitter.
  const sim = await readSimFlags(values, { embedded: spec === 'sim', where: '--target sim', cwd: io.cwd, seedElsewhere: true });
  const targetOptions = { ...targetOptionsFrom(values, config, io), ...simTargetOptions(sim, io.cwd) };
  const userVars = targetOptions.vars;
  const credentials = credentialsFor(spec, targetOptions);
  warnWithoutCredentials(spec, credentials, io);
  const strict = values.strict === true;
  const allowWrites = values['allow-writes'] === true;
  // The seed comes first whatever the output: with --json on stderr, so stdout stays one JSON document.
  const seedLine = `commerce-sim props: seed ${seed} (replay with --seed ${seed}), target ${spec}, ${runs} runs per property\n`;
  (values.json === true ? io.stderr : io.stdout).write(seedLine);

  const started = Date.now();
  const target = await createTarget(spec, targetOptions);
  const prints = fingerprinted(target);
  const counter = guardTarget(prints.target);
  try {
    if (target.kind === 'http') await preflight(target, { credentials: hasCredentials(credentials) });
    const secrets = [
      credentials.token,
      credentials.clientSecret,
      target.vars['admin_token'],
      ...Object.entries(userVars)
        .filter(([k]) => isSecretKey(k))
        .map(([, v]) => v),
    ];
    const results = await runProperties(suites, {
      target: counter.target,
      ruleById,
      seed,
      runs,
      ...(values.path === undefined ? {} : { path: values.path }),
      strict,
      allowWrites,
      secrets: secrets.filter((s): s is string => s !== undefined && s !== ''),
      command: replayBase(spec, values),
      ...(values.json === true ? {} : { onResult: (r: PropertyResult) => io.stdout.write(resultText(r)) }),
    });
    const report = buildRunReport({
      catalogue,
      version: await packageVersion(),
      target: reportTarget(target, deviate),
      options: { strict, allowWrites, ...(targetOptions.seed === undefined ? {} : { simSeed: targetOptions.seed }), seed, ...(values.grep === undefined ? {} : { grep: values.grep }) },
      properties: results,
      readings: prints.result(),
      timing: runTiming(started, target, '-props', counter.requests()),
    });
    const written = await writeReports(resolve(io.cwd, values.report ?? 'reports'), report);
    await tellReportDir(io, written.dir);
    await appendStepSummary(io, report, 'props', written.dir);
    if (values.json === true) io.stdout.write(renderJson(report));
    const incomplete = counter.firstError() !== undefined || results.some(isStopped);
    if (values.json !== true) io.stdout.write(summaryText(report, resolve(written.dir, 'report.html'), incomplete, styleFor(io.stdout, io.env)));
    // A property has no file of its own: its annotations go on the workflow file that ran it.
    if (reporter === 'github' && values.json !== true) io.stdout.write(renderGithub(report, githubPlaces(io, [])));
    const fatal = counter.fatal() ?? counter.firstError();
    if (fatal !== undefined) throw new TargetError(fatal.code, `incomplete: ${fatal.message}`, { cause: fatal });
    const broken = results.filter((r) => r.skipReason?.startsWith(NOT_RUN) === true);
    if (broken.length > 0) throw new PropertiesNotRun('PROPS_NOT_RUN', `${broken.map((r) => r.name).join(', ')} could not run; see above`);
    return report.summary.verdict === 'pass' && outsideCatalogue(results).length === 0 ? EXIT_OK : EXIT_RULE_FAILED;
  } finally {
    await target.close();
  }
}

/** Shell-safe: bare when harmless, else single-quoted. */
const quote = (s: string): string => (/^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The command that reaches the same target the same way; the runner appends --seed, --path and --grep. */
export function replayBase(spec: string, v: PropsValues): string {
  const parts = ['commerce-sim', 'props', '--target', quote(spec)];
  const add = (flag: string, value: string | undefined) => {
    if (value !== undefined) parts.push(flag, quote(value));
  };
  add('--config', v.config);
  add('--token-env', v['token-env']);
  add('--client-id', v['client-id']);
  add('--client-secret-env', v['client-secret-env']);
  for (const assignment of v.var ?? []) {
    const name = assignment.split('=')[0] ?? '';
    // A secret never goes into a printed command: the reader puts it back.
    add('--var', isSecretKey(name) ? `${name}=<${name}>` : assignment);
  }
  add('--sim-seed', v['sim-seed']);
  add('--accounts', v.accounts);
  for (const c of v.count ?? []) add('--count', c);
  add('--dataset', v.dataset);
  add('--surface', v.surface);
  for (const r of v.reading ?? []) add('--reading', r);
  add('--readings', v.readings);
  for (const id of v.deviate ?? []) add('--deviate', id);
  if (v['allow-writes'] === true) parts.push('--allow-writes');
  add('--runs', v.runs);
  return parts.join(' ');
}

/** A property a target error stopped (unreachable, budget): incomplete, not skipped. */
const isStopped = (r: PropertyResult): boolean => r.status === 'skip' && r.skipReason?.startsWith(`${STOPPED} `) === true;

function resultText(r: PropertyResult): string {
  const label = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP', inconclusive: 'INCONCLUSIVE' } as const;
  const head = `  ${isStopped(r) ? 'STOPPED' : label[r.status]}  ${r.name.padEnd(16)}`;
  // Verdicts no run could reach: never a failure, but named, with why (also under a pass or a failure).
  const unsure = r.verdicts.flatMap((v) => (v.outcome.status === 'inconclusive' ? [`        inconclusive ${v.ruleId}: ${v.outcome.reason}`] : []));
  const tail = unsure.length === 0 ? '' : `${unsure.join('\n')}\n`;
  if (r.status === 'pass') return `${head} ${r.numRuns} runs\n${tail}`;
  if (r.status === 'inconclusive') return `${head} ${r.skipReason ?? 'no verdict could be reached'}\n${tail}`;
  if (r.status === 'skip') return `${head} skipped: ${r.skipReason ?? ''}\n${r.replay === undefined ? '' : `        replay: ${r.replay}\n`}`;
  const lines = [`${head} counterexample: ${r.counterexample ?? '(none)'}`];
  for (const v of r.verdicts) {
    if (v.outcome.status !== 'fail') continue;
    const rule = ruleById(v.ruleId);
    lines.push(`        breaks ${v.ruleId}${rule === undefined ? '' : ` (${rule.level}, ${rule.section})`}: ${v.outcome.message}`);
  }
  if (r.replay !== undefined) lines.push(`        replay: ${r.replay}`);
  return `${lines.join('\n')}\n${tail}`;
}

/**
 * Failing checks of the simulator itself that no catalogue rule covers (the model test's virtual
 * clock): the report's rule roll-up cannot show them, so they fail the run here.
 */
function outsideCatalogue(results: readonly PropertyResult[]): string[] {
  return [...new Set(results.flatMap((r) => r.verdicts.filter((v) => v.outcome.status === 'fail' && ruleById(v.ruleId) === undefined).map((v) => v.ruleId)))];
}

function summaryText(report: RunReport, reportPath: string, incomplete: boolean, style: Style): string {
  const { summary } = report;
  const failing = report.rules.filter((r) => r.status === 'fail');
  const documented = failing.filter((r) => r.level === 'documented').length;
  const outside = outsideCatalogue(report.properties);
  // A failure found is a finding even in an incomplete run; a pass is only a pass when every run ran.
  const headline =
    documented > 0
      ? `FAIL: ${documented} documented rule${documented === 1 ? '' : 's'} failed${incomplete ? ' (and the run is incomplete)' : ''}`
      : summary.verdict === 'fail'
        ? 'FAIL: assumed rules failed (--strict)'
        : outside.length > 0
          ? `FAIL: simulator checks outside the rule catalogue failed (${outside.join(', ')})`
          : incomplete
            ? 'INCOMPLETE: the target could not be used for every run; the verdicts cover only what ran'
            : `PASS: ${judgedLine(report)}`;
  const assumed = summary.assumed.fail > 0 && !report.options.strict ? ` (${summary.assumed.fail} assumed rules failed: observed behaviour, fails the run only with --strict)` : '';
  return [
    `commerce-sim props: ${headline.startsWith('PASS') ? style.pass(headline) : style.fail(headline)}${assumed}`,
    `  properties: ${summary.cases.pass} pass, ${summary.cases.fail} fail, ${summary.cases.inconclusive} inconclusive, ${summary.cases.skip} skipped`,
    `  documented rules: ${summary.documented.pass} pass, ${summary.documented.fail} fail, ${summary.documented.inconclusive} inconclusive, ${summary.documented.notCovered} not covered`,
    ...(readingsLine(report) === undefined ? [] : [`  ${readingsLine(report) ?? ''}`]),
    `  requests: ${report.timing.requests} in ${(report.timing.durationMs / 1000).toFixed(1)} s`,
    `  report: ${reportPath}`,
    '',
  ].join('\n');
}
