/**
 * `commerce-sim proxy --upstream URL|sim`: a transparent reverse proxy that judges the traffic it relays.
 * Answers go back unchanged; each finding is printed as it is made; the reports are written on
 * SIGINT/SIGTERM, after --requests N or after --duration S. This adapter is where real time enters.
 */
import { resolve } from 'node:path';
import { defineCommand, type DefinedCommand } from './command.js';
import { UsageError } from './io.js';
import { DEFAULT_PROXY_PORT, MAX_PORT } from '../limits.js';
import { OLD_SEED_OPTION, readSimFlags, refuseOldSeed, SIM_OPTIONS, simOptionsUsage } from './sim-options.js';
import { wholeOption } from '../numbers.js';
import { reporterFor } from './style.js';
import { nextStopSignal } from './stop-signal.js';
import { findingPrinter, parseExpect, parseJudged, writeTrafficReports } from './traffic-output.js';

const USAGE = `usage: commerce-sim proxy --upstream URL|sim [--port ${DEFAULT_PROXY_PORT}] [--host H] [--har FILE] [--report DIR]
                            [--annotate] [--requests N] [--duration S] [--judge both|server|client]
                            [--complete] [--strict] [--reporter summary|github] [--json] [--quiet]
                             [--timeout MS] [--insecure] [--expect RULE]... [simulator options, with --upstream sim]

Relays every request to the upstream and its answer back unchanged (status, headers, body bytes,
streamed; keep-alive to the upstream; http or https), and judges each exchange off the request path: the
server's answers against the catalogue's rules, the client's requests against the client rules of §4.3
and §8. One line per finding as it happens (rule, level, walk, where); the usual reports at the end.
  --upstream URL|sim   the server to relay to; sim: the embedded simulator, started here (ground truth:
                       each walk's records received once, twice or never; the traffic is complete)
  --port N             where clients connect (default ${DEFAULT_PROXY_PORT}; 0 picks one)
  --host H             address to listen on (default 127.0.0.1)
  --har FILE           also write the traffic as HAR 1.2, secrets redacted (commerce-sim check reads it)
  --report DIR         where the reports go at the end (default reports)
  --annotate           add one header, x-commerce-sim-findings (at most 1,024 bytes), naming the rules an
                       exchange failed (its answer is then buffered); off by default: answers unchanged
  --requests N         stop after N relayed exchanges
  --duration S         stop after S seconds
  --judge WHO          both (default), server or client
  --complete           this proxy sees every request the upstream receives (implied by --upstream sim)
  --strict             assumed rules fail the run too
  --reporter github    also print GitHub annotations at the end (the default when GITHUB_ACTIONS=true)
  --json               print report.json at the end instead of the summary
  --quiet              no line per finding
  --timeout MS         upstream connect/answer timeout before a 504 (default 30000)
  --insecure           accept an upstream certificate that does not verify (a test server's)
  --expect RULE        a client rule the traffic breaks on purpose (negative tests that cannot send
                       x-commerce-sim-expect): its findings are counted as deliberate, never failures;
                       repeat the flag for several rules
  -h, --help           this help
with --upstream sim, the embedded simulator, as serve, run, props and export take it:
${simOptionsUsage('  ', 23)}
  --seed                 refused: the simulator's data seed is --sim-seed, in every command

Upstream unreachable: the client gets a 502, too slow: a 504 (JSON error bodies); each is an
infrastructure note in the report, never a rule failure. Secrets (Authorization, client secrets,
passwords, tokens) are redacted in everything written, the HAR included.
Exit 0 when every documented rule judged held, 1 when one failed (server or client), 2 on a usage error
or when no documented rule was judged at all (NOTHING JUDGED).`;

const OPTIONS = {
  upstream: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  har: { type: 'string' },
  report: { type: 'string' },
  annotate: { type: 'boolean' },
  requests: { type: 'string' },
  duration: { type: 'string' },
  judge: { type: 'string' },
  complete: { type: 'boolean' },
  strict: { type: 'boolean' },
  reporter: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  ...SIM_OPTIONS,
  ...OLD_SEED_OPTION,
  timeout: { type: 'string' },
  insecure: { type: 'boolean' },
  expect: { type: 'string', multiple: true },
} as const;

export const proxy: DefinedCommand = defineCommand({
  name: 'proxy',
  usage: USAGE,
  options: OPTIONS,
  async main(values, io) {
    const upstream = values.upstream;
    if (upstream === undefined) throw new UsageError('CLI_USAGE', 'proxy needs --upstream URL or --upstream sim');
    const judged = parseJudged(values.judge);
    const reporter = reporterFor(values.reporter, io.env);
    if (reporter === undefined) throw new UsageError('CLI_USAGE', `--reporter must be summary or github, got '${values.reporter ?? ''}'`);
    const port = wholeOption('--port', values.port, 0, MAX_PORT) ?? DEFAULT_PROXY_PORT;
    const requests = wholeOption('--requests', values.requests, 1, Number.MAX_SAFE_INTEGER);
    const duration = wholeOption('--duration', values.duration, 1, 31_536_000);
    const timeoutMs = wholeOption('--timeout', values.timeout, 1, 3_600_000);
    refuseOldSeed(values);
    const isSim = upstream === 'sim';
    if (!isSim && !/^https?:\/\//i.test(upstream)) throw new UsageError('CLI_USAGE', `--upstream must be an http(s) base URL or sim, got '${upstream}'`);
    const flags = await readSimFlags(values, { embedded: isSim, where: '--upstream sim', cwd: io.cwd });
    const started = Date.now();
    const [{ startJudgingProxy }, { startSimulator }] = await Promise.all([import('../traffic/proxy/judging-proxy.js'), import('../kit/start-simulator.js')]);
    // A dataset file is named relative to the command's directory; startSimulator reads it relative to the process's.
    const sim = isSim ? await startSimulator({ ...flags, ...(flags.dataset === undefined ? {} : { dataset: datasetPath(flags.dataset, io.cwd) }) }) : undefined;
    let stopRequested: (() => void) | undefined;
    const enough = new Promise<string>((done) => {
      stopRequested = () => done(`${requests ?? 0} requests`);
    });
    const running = await startJudgingProxy({
      upstream: sim ?? upstream,
      port,
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values.har === undefined ? {} : { har: resolve(io.cwd, values.har) }),
      annotate: values.annotate === true,
      expect: parseExpect(values.expect),
      ...(values.complete === true ? { complete: true } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(values.insecure === true ? { rejectUnauthorized: false } : {}),
      ...(values.quiet === true || values.json === true ? {} : { onFinding: findingPrinter(io, judged) }),
      onInfra: (n) => void io.stderr.write(`commerce-sim proxy: ${n.kind}: ${n.message}\n`),
      onRelayed: (count) => {
        if (requests !== undefined && count >= requests) stopRequested?.();
      },
    }).catch(async (error: unknown) => {
      await sim?.close();
      throw error;
    });
    const target = sim === undefined ? upstream : `the embedded simulator (token: ${sim.token})`;
    io.stderr.write(
      `commerce-sim proxy: ${running.url} → ${target}; stops on SIGINT/SIGTERM${requests === undefined ? '' : `, after ${requests} requests`}${duration === undefined ? '' : `, after ${duration} s`}\n`,
    );
    const timers: NodeJS.Timeout[] = [];
    const elapsed = duration === undefined ? new Promise<string>(() => undefined) : new Promise<string>((done) => timers.push(setTimeout(() => done(`${duration} s`), duration * 1000)));
    const cancel = new AbortController();
    const why = await Promise.race([nextStopSignal(cancel.signal), enough, elapsed]);
    cancel.abort();
    for (const t of timers) clearTimeout(t);
    io.stderr.write(`commerce-sim proxy: ${why}, stopping\n`);
    const result = await running.close();
    await sim?.close();
    return writeTrafficReports(io, {
      command: 'proxy',
      result,
      judged,
      strict: values.strict === true,
      sources: ['proxy'],
      target: sim === undefined ? { kind: 'http', baseUrl: upstream } : { kind: 'sim', baseUrl: sim.baseUrl },
      started,
      reportDir: values.report,
      json: values.json === true,
      reporter,
    });
  },
});

/** A dataset name as given; a dataset file (a path with a directory or a .json/.yaml/.yml name) resolved against `cwd`. */
function datasetPath(dataset: string, cwd: string): string {
  return /[\\/]|\.(json|ya?ml)$/i.test(dataset) ? resolve(cwd, dataset) : dataset;
}
