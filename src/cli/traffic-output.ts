/**
 * What `proxy` and `check` do with a traffic judge's result: one line per finding as it is made, the
 * usual reports (JSON, JUnit, Markdown, HTML; GitHub annotations with --reporter github; the job summary
 * under GitHub Actions), a short summary on stdout, and the exit code (1 when a documented rule failed,
 * server or client, with --strict any rule; 2, TRAFFIC_NOTHING_JUDGED, when no documented rule was judged at all).
 */
import { resolve } from 'node:path';
import type { Finding, TrafficResult } from '../traffic/judge/judge.js';
import { buildTrafficReport, type JudgedParty } from '../traffic/report.js';
import type { RunReport } from '../report/model.js';
import { deliberateLine, rereadLine, verdictReason } from '../report/summarise.js';
import { trafficCommand, trafficCounts } from '../report/traffic-words.js';
import { EXIT_OK, EXIT_RULE_FAILED, UsageError, type CliIo } from './io.js';
import { CLIENT_RULE_IDS, isClientRuleId } from '../rules/ids.js';
import { suggest } from '../suggest.js';
import { CodedKitError } from '../kit-errors.js';
import { githubPlaces } from './annotation-places.js';
import { tellReportDir } from './report-dir-file.js';
import { packageVersion } from './run-meta.js';
import { appendStepSummary } from './step-summary.js';
import type { Reporter } from './style.js';
import type { Shard } from '../shard.js';

/** Nothing judged is no pass: exit 2, like an incomplete run. */
class NothingJudged extends CodedKitError<'TRAFFIC_NOTHING_JUDGED'> {
  override readonly name = 'NothingJudged';
}

export function parseJudged(value: string | undefined): JudgedParty {
  if (value === undefined || value === 'both' || value === 'server' || value === 'client') return value ?? 'both';
  throw new UsageError('CLI_USAGE', `--judge must be both, server or client, got '${value}'`);
}

/** `--expect RULE`, repeatable: client rule ids, each checked ("did you mean"). */
export function parseExpect(values: readonly string[] | undefined): readonly string[] {
  const ids = (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const id of ids) {
    if (isClientRuleId(id)) continue;
    const near = suggest(id, CLIENT_RULE_IDS);
    throw new UsageError('CLI_USAGE', `--expect takes a client rule id, got '${id}'${near === undefined ? '' : ` (did you mean ${near}?)`}; \`commerce-sim rules --client\` lists them`);
  }
  return ids;
}

/** Prints a finding when its party is judged (`--judge server` prints no finding about the client). */
export function findingPrinter(io: CliIo, judged: JudgedParty): (f: Finding) => void {
  return (f) => {
    if (judged === 'both' || f.party === judged) io.stdout.write(findingLine(f));
  };
}

/** `✗ client.keyset.timestamp-ge (documented, client) accounts by created_at (keyset) #3 · proxy #12: message` */
function findingLine(f: Finding): string {
  const mark = f.status === 'fail' ? (f.level === 'documented' ? '✗' : '!') : '?';
  const where = [f.walk, f.evidence.join(', ')].filter((x) => x !== undefined && x !== '').join(' · ');
  const text = f.message.replace(/\s+/g, ' ');
  return `${mark} ${f.ruleId} (${f.level}, ${f.party}${f.status === 'inconclusive' ? ', inconclusive' : ''}) ${where}: ${text.length > 300 ? `${text.slice(0, 297)}...` : text}\n`;
}

export interface TrafficOutput {
  readonly command: 'proxy' | 'check';
  readonly result: TrafficResult;
  readonly judged: JudgedParty;
  readonly strict: boolean;
  readonly sources: readonly string[];
  readonly target: RunReport['target'];
  readonly started: number;
  readonly reportDir: string | undefined;
  readonly json: boolean;
  readonly reporter: Reporter;
  readonly caseFile?: string;
  /** `check --shard I/N`: the report is one shard's, for `report merge`. */
  readonly shard?: Shard;
}

export async function writeTrafficReports(io: CliIo, o: TrafficOutput): Promise<number> {
  const host =
    o.target.kind === 'sim'
      ? 'sim'
      : (() => {
          try {
            return new URL(o.target.baseUrl).host.replace(/[^A-Za-z0-9.-]/g, '-');
          } catch {
            return 'traffic';
          }
        })();
  const when = new Date(o.started)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  const report = buildTrafficReport({
    result: o.result,
    version: await packageVersion(),
    target: o.target,
    strict: o.strict,
    judged: o.judged,
    sources: o.sources,
    ...(o.caseFile === undefined ? {} : { caseFile: o.caseFile }),
    ...(o.shard === undefined ? {} : { shard: `${o.shard.index}/${o.shard.count}` }),
    timing: {
      runId: `${when}-${host}-${o.command}${o.shard === undefined ? '' : `-shard${o.shard.index}of${o.shard.count}`}`,
      startedAt: new Date(o.started).toISOString(),
      durationMs: Date.now() - o.started,
      requests: o.result.entries,
    },
  });
  const [{ writeReports }, { renderJson }, { renderGithub }] = await Promise.all([import('../report/write.js'), import('../report/json.js'), import('../report/github.js')]);
  const written = await writeReports(resolve(io.cwd, o.reportDir ?? 'reports'), report);
  await tellReportDir(io, written.dir);
  // Nothing judged is no pass: an empty HAR, a proxy that only saw 502s, traffic of paths no rule covers.
  const documentedJudged = report.rules.filter((r) => r.level === 'documented' && r.status !== 'not-covered').length;
  const nothing = documentedJudged === 0 && report.summary.verdict === 'pass';
  const exercised = o.result.entries === 0 ? 'this traffic (no exchanges)' : `these ${o.result.entries} exchanges`;
  const traffic = report.traffic;
  if (o.json) io.stdout.write(renderJson(report));
  else if (traffic !== undefined) {
    const s = report.summary;
    const observed = report.rules.filter((r) => r.status !== 'not-covered').length;
    const rereads = o.result.walks.filter((w) => (w.reread ?? 0) > 0);
    const headline = nothing
      ? `NOTHING JUDGED: no documented rule was exercised by ${exercised}${o.result.infrastructure.length > 0 ? `; ${o.result.infrastructure.length} infrastructure note(s) (report.md, "Infrastructure")` : ''}`
      : `${s.verdict === 'pass' ? 'PASS' : 'FAIL'}: ${verdictReason(report)}`;
    io.stdout.write(
      [
        `${trafficCommand(o.command, report, traffic)}: ${trafficCounts(traffic)}${o.result.infrastructure.length > 0 ? `, ${o.result.infrastructure.length} infrastructure note(s)` : ''}`,
        ...(o.result.shed === undefined
          ? []
          : [`  not judged: ${o.result.shed.exchanges} exchanges of ${o.result.shed.clients} client${o.result.shed.clients === 1 ? '' : 's'} (the judge fell behind the traffic; relaying went on)`]),
        `  ${headline}`,
        ...(report.traffic?.deliberate === undefined ? [] : [`  ${deliberateLine(report.traffic.deliberate)}`]),
        ...(rereads.length === 0 ? [] : [`  ${rereadLine(rereads)}`]),
        `  documented ${s.documented.pass} pass ${s.documented.fail} fail ${s.documented.inconclusive} inconclusive ${s.documented.notCovered} not observed · assumed ${s.assumed.pass} pass ${s.assumed.fail} fail ${s.assumed.inconclusive} inconclusive ${s.assumed.notCovered} not observed (${observed} of ${report.rules.length} rules observed)`,
        ...o.result.walks
          .filter((w) => w.truth !== undefined && (w.truth.never > 0 || w.truth.twice > 0))
          .slice(0, 10)
          .map((w) => `  ${w.label} #${w.n}: ${w.truth?.summary ?? ''}`),
        `  report: ${resolve(written.dir, 'report.html')}`,
        '',
      ].join('\n'),
    );
  }
  // The HAR checked is a file (in the repository or not); the proxy's cases have none.
  const files = o.caseFile === undefined ? [] : [[o.caseFile, resolve(io.cwd, o.caseFile)] as const];
  if (o.reporter === 'github') io.stdout.write(renderGithub(report, githubPlaces(io, files)));
  await appendStepSummary(io, report, o.command, written.dir);
  if (nothing) throw new NothingJudged('TRAFFIC_NOTHING_JUDGED', `nothing judged: no documented rule was exercised by ${exercised}`);
  return report.summary.verdict === 'pass' ? EXIT_OK : EXIT_RULE_FAILED;
}
