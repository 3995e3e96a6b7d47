/**
 * A vitest reporter that lists the slowest test files at the end of a run (issue 27: `npm test` within
 * four minutes on a 2-core CI machine, its slowest files named so a slowdown has an address).
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((m) => ({ file: relative(process.cwd(), m.moduleId), ms: m.diagnostic().duration + m.diagnostic().collectDuration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (rows.length === 0) return;
    const lines = rows.map((r) => `  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}`);
    process.stdout.write(`\nslowest test files (tests and import; files run side by side, so they add up to more than the wall time):\n${lines.join('\n')}\n`);
  }
}
