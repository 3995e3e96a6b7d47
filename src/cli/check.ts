/** `commerce-sim check FILE...`: the traffic judge over HAR files and the kit's recordings, merged into one report. */
import { resolve } from 'node:path';
import { defineCommand, type DefinedCommand } from './command.js';
import { UsageError } from './io.js';
import { wholeOption } from '../numbers.js';
import { parseShard } from '../shard.js';
import { reporterFor } from './style.js';
import { findingPrinter, parseExpect, parseJudged, writeTrafficReports } from './traffic-output.js';

const USAGE = `usage: commerce-sim check FILE... [--report DIR] [--judge both|server|client] [--complete] [--strict]
                            [--reporter summary|github] [--json] [--findings] [--max-entry-bytes N] [--shard I/N]
                            [--expect RULE]...

Judges recorded traffic with the rules of the API document: the server's answers (the catalogue's rules)
and the client's use of the large-data pattern (the client rules of §4.3 and §8). Reads HAR 1.2 files (a
browser's export, Playwright's recordHar, mitmproxy's, Redocly's proxy, commerce-sim proxy --har; gzip,
br and base64 bodies decoded) and the kit's recordings (a fixture file or directory); several files are
judged as one traffic, in the order given. A HAR of any size is streamed.
  FILE                 a .har file, a recording (fixture JSON) or a directory of recordings
  --report DIR         where the reports go (default reports): DIR/<run id>/ and DIR/latest
  --judge WHO          both (default), server (the answers only) or client (the requests only)
  --complete           the traffic holds every request the server received since it started, so a
                       failure resting on several exchanges stands (a HAR written by
                       commerce-sim proxy --upstream sim says so itself); without it such a failure is
                       inconclusive: another client's writes between the reads would explain it
  --strict             assumed rules fail the run too
  --reporter github    also print GitHub annotations (the default when GITHUB_ACTIONS=true)
  --json               print report.json instead of the summary
  --findings           print each finding as it is made (as the proxy does)
  --max-entry-bytes N  the longest single entry or body accepted (default 64 MiB)
  --shard I/N          judge only the I-th of N shards of the clients (origin and credential): N machines
                       judge a day of traffic side by side, each reading every file; report merge joins them
  --expect RULE        a client rule the traffic breaks on purpose (a test of the server's refusals that
                       cannot send x-commerce-sim-expect): its findings are counted as deliberate, never
                       failures; repeat the flag for several rules
  -h, --help           this help

Exit 0 when every documented rule judged holds, 1 when one fails (server or client), 2 when no documented
rule was judged at all (NOTHING JUDGED: an empty HAR, only 502s, no API traffic), or when a file is unreadable
or malformed (the message names the file and the entry).
Under GitHub Actions the summary is also appended to $GITHUB_STEP_SUMMARY.`;

const OPTIONS = {
  report: { type: 'string' },
  judge: { type: 'string' },
  complete: { type: 'boolean' },
  strict: { type: 'boolean' },
  reporter: { type: 'string' },
  json: { type: 'boolean' },
  findings: { type: 'boolean' },
  'max-entry-bytes': { type: 'string' },
  shard: { type: 'string' },
  expect: { type: 'string', multiple: true },
} as const;

export const check: DefinedCommand = defineCommand({
  name: 'check',
  usage: USAGE,
  options: OPTIONS,
  allowPositionals: true,
  async main(values, io, files) {
    if (files.length === 0) throw new UsageError('CLI_USAGE', 'check needs at least one HAR file or recording');
    const judged = parseJudged(values.judge);
    const reporter = reporterFor(values.reporter, io.env);
    if (reporter === undefined) throw new UsageError('CLI_USAGE', `--reporter must be summary or github, got '${values.reporter ?? ''}'`);
    const maxEntryBytes = wholeOption('--max-entry-bytes', values['max-entry-bytes'], 1, Number.MAX_SAFE_INTEGER);
    const shard = values.shard === undefined ? undefined : parseShard(values.shard);
    if (shard !== undefined && !shard.ok) throw new UsageError('CLI_USAGE', shard.message);
    const started = Date.now();
    const [{ readTraffic, readTrafficLog }, { createTrafficJudge }, { COMPLETE_MARK }] = await Promise.all([
      import('../traffic/har/read.js'),
      import('../traffic/judge/judge.js'),
      import('../traffic/har/format.js'),
    ]);
    const paths = files.map((f) => resolve(io.cwd, f));
    // A HAR the proxy wrote in front of the embedded simulator says it is complete; every file must.
    const marked = (await Promise.all(paths.map((p) => readTrafficLog(p)))).every((log) => log?.creatorComment === COMPLETE_MARK);
    const complete = values.complete === true || marked;
    const expect = parseExpect(values.expect);
    const judge = createTrafficJudge({ complete, expect, ...(shard === undefined ? {} : { shard: shard.value }), ...(values.findings === true ? { onFinding: findingPrinter(io, judged) } : {}) });
    let origin: string | undefined;
    for (const path of paths) {
      for await (const entry of readTraffic(path, maxEntryBytes === undefined ? {} : { maxEntryBytes })) {
        origin ??= entry.origin;
        judge.observe(entry);
      }
    }
    const result = judge.finish();
    return writeTrafficReports(io, {
      command: 'check',
      result,
      judged,
      strict: values.strict === true,
      sources: files,
      target: { kind: 'http', baseUrl: origin ?? 'traffic' },
      started,
      reportDir: values.report,
      json: values.json === true,
      reporter,
      ...(shard === undefined ? {} : { shard: shard.value }),
      ...(files.length === 1 && files[0] !== undefined ? { caseFile: files[0] } : {}),
    });
  },
});
