/**
 * How a traffic report speaks (issue 35): of the HAR files or the proxy it judged, and of exchanges,
 * clients and walks; never of "cases" or of a conformance run, which are a suite's words. One home, so
 * the terminal, report.md, report.html, the job summary and junit.xml say it alike. Pure: report in, text out.
 */
import type { RunReport, TrafficSection } from './model.js';

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What the traffic came from: the HAR files or recordings by name, or the proxy and what it stood in front of. */
export function trafficSubject(report: RunReport, traffic: TrafficSection): string {
  const proxy = `proxy → ${report.target.kind === 'sim' ? 'the embedded simulator' : report.target.baseUrl}`;
  return traffic.sources.map((source) => (source === 'proxy' ? proxy : source)).join(', ');
}

/** `3 exchanges, 1 client, 2 walks`. */
export const trafficCounts = (t: TrafficSection): string => `${count(t.entries, 'exchange')}, ${count(t.clients, 'client')}, ${count(t.walksTotal, 'walk')}`;

/** `traffic.har: 3 exchanges, 1 client, 2 walks`: the headline of every traffic report. */
export const trafficHeadline = (report: RunReport, t: TrafficSection): string => `${trafficSubject(report, t)}: ${trafficCounts(t)}`;

/** `commerce-sim check traffic.har`, `commerce-sim proxy → https://api.example.com`: the command and what it judged. */
export const trafficCommand = (command: string, report: RunReport, t: TrafficSection): string =>
  command === 'proxy' ? `commerce-sim ${trafficSubject(report, t)}` : `commerce-sim ${command} ${trafficSubject(report, t)}`;

/** The report's title: a suite's run is a conformance run; traffic is named for what was judged. */
export const reportTitle = (report: RunReport): string => (report.traffic === undefined ? 'commerce-sim conformance' : `commerce-sim traffic: ${trafficSubject(report, report.traffic)}`);

/**
 * Where a suite's report counts cases, a traffic report's own count: the walks (and, for findings outside
 * any walk, the clients) with findings, failed or inconclusive. A walk without findings has no entry.
 */
export function findingGroups(report: RunReport): string {
  const failed = report.scenarios.filter((s) => s.status === 'fail').length;
  const inconclusive = report.scenarios.filter((s) => s.status === 'inconclusive').length;
  return `walks or clients with findings: ${failed} failed, ${inconclusive} inconclusive`;
}
