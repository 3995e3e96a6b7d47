/**
 * Child process of the bench's traffic section: one HAR file read as `commerce-sim check` reads it, in
 * a fresh process so that its peak RSS is this file's. argv: `read` (readTraffic alone: the reader's
 * share) or `judge` (readTraffic + createTrafficJudge, as check runs them, less the report), then the
 * file. Sends its figures once and exits.
 */
import { performance } from 'node:perf_hooks';
import { COMPLETE_MARK } from '../traffic/har/format.js';
import { readTraffic, readTrafficLog } from '../traffic/har/read.js';
import { createTrafficJudge } from '../traffic/judge/judge.js';

export interface CheckFigures {
  readonly entries: number;
  readonly ms: number;
  /** CPU time of the process meanwhile (user + system). */
  readonly cpuMs: number;
  readonly maxRssMiB: number;
  /** Kept findings and walks of the judge's result (0 when only read). */
  readonly findings: number;
  readonly walks: number;
}

const judging = process.argv[2] === 'judge';
const file = process.argv[3] ?? '';

const cpu = process.cpuUsage();
const started = performance.now();
let entries = 0;
let findings = 0;
let walks = 0;
if (judging) {
  // As check does: a HAR the proxy wrote in front of the simulator says it is complete.
  const complete = (await readTrafficLog(file))?.creatorComment === COMPLETE_MARK;
  const judge = createTrafficJudge({ complete });
  for await (const entry of readTraffic(file)) judge.observe(entry);
  const result = judge.finish();
  entries = result.entries;
  findings = result.findings.length;
  walks = result.walksTotal;
} else {
  for await (const _entry of readTraffic(file)) entries++;
}
const used = process.cpuUsage(cpu);
const figures: CheckFigures = {
  entries,
  ms: performance.now() - started,
  cpuMs: (used.user + used.system) / 1000,
  // maxRSS is in KiB.
  maxRssMiB: process.resourceUsage().maxRSS / 1024,
  findings,
  walks,
};
process.send?.(figures);
process.disconnect?.();
