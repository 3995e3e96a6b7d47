/**
 * A HAR larger than the heap it is read with: 20,000 entries (about 100 MB) read by a child node
 * process whose heap is capped at 48 MB, where reading the file whole (readFile + JSON.parse) runs out
 * of memory. The child imports the built reader from dist/ (test/global-setup.ts builds it).
 */
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeLargeHar } from '../../src/bench/traffic-har.js';
import { withTempDir } from './samples.js';

const READER = pathToFileURL(resolve(import.meta.dirname, '../../dist/traffic/har/read.js')).href;

const HEAP_MB = 48;

/** Node run with a capped heap; prints what `script` logs. */
async function capped(script: string, file: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--input-type=module', '-e', script, file], { maxBuffer: 1 << 20 });
  return stdout;
}

describe('a HAR larger than the heap', () => {
  it('streams 20,000 entries through a 48 MB heap; reading it whole does not fit', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'large.har');
      await writeLargeHar(file, 20_000, 3800);
      expect((await stat(file)).size).toBeGreaterThan(90_000_000);
      const count = `import { readTraffic } from ${JSON.stringify(READER)};
        let n = 0, last = '';
        for await (const e of readTraffic(process.argv[1])) { n += 1; last = e.source; }
        console.log(JSON.stringify({ n, last }));`;
      expect(JSON.parse(await capped(count, file))).toEqual({ n: 20_000, last: 'large.har entry 20000' });
      // The control: the same heap cannot hold the file read whole, so the count above was streamed.
      const whole = `import { readFile } from 'node:fs/promises'; JSON.parse(await readFile(process.argv[1], 'utf8'));`;
      await expect(capped(whole, file)).rejects.toThrow();
    });
  });
});
