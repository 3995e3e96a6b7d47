/**
 * The traffic reader's speed and memory on a large HAR: `node dist/bench/traffic-read.js [--entries N]
 * [--body-bytes B] [--file F]` generates a HAR of N list reads (default 200,000 of about 4,500 bytes of
 * body each, about 1 GB) in a temporary directory, or takes F, then reads it through readTraffic and
 * prints entries per second (of wall time and of CPU time, the steadier figure on a shared machine), MB per second and the process's peak RSS. The goal: at least
 * 20,000 entries a second, a 1 GB file under 1 GiB of RSS.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readTraffic } from '../traffic/har-read.js';
import { writeLargeHar } from './traffic-har.js';

const { values } = parseArgs({ options: { entries: { type: 'string', default: '200000' }, 'body-bytes': { type: 'string', default: '4500' }, file: { type: 'string' } }, strict: true });

const dir = values.file === undefined ? await mkdtemp(join(tmpdir(), 'traffic-bench-')) : undefined;
try {
  const file = values.file ?? join(dir ?? '.', 'bench.har');
  if (values.file === undefined) {
    const started = performance.now();
    await writeLargeHar(file, Number(values.entries), Number(values['body-bytes']));
    console.log(`generated ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const { size } = await stat(file);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let count = 0;
  let bodyChars = 0;
  for await (const entry of readTraffic(file)) {
    count += 1;
    bodyChars += entry.exchange.response.body.length;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const rssMiB = process.resourceUsage().maxRSS / 1024;
  console.log(
    `read ${count} entries (${(size / 1e6).toFixed(0)} MB, ${(bodyChars / 1e6).toFixed(0)} M body chars) in ${seconds.toFixed(2)} s: ` +
      `${Math.round(count / seconds)} entries/s, ${(size / 1e6 / seconds).toFixed(0)} MB/s; CPU ${cpuSeconds.toFixed(2)} s (${Math.round(count / cpuSeconds)} entries per CPU second); peak RSS ${rssMiB.toFixed(0)} MiB`,
  );
} finally {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
}
