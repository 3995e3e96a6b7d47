/**
 * Child process of the bench's restore rows: another client, in a process of its own, reading a page of 25
 * in a loop between 'read' and 'times' (its durations in ms, and how many were asked again). Read from the
 * bench's own process, a page also waited for that process's collector, which holds the 230 MiB body it
 * uploads and the million records it was made from (mark-compact steps of 85-143 ms under `--trace-gc`):
 * no other client of the restoring server would.
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';

const [origin = '', token = ''] = process.argv.slice(2);

export interface PageTimes {
  readonly times: readonly number[];
  /** Reads whose kept-alive connection the server closed as the page was sent (seen at load 8-10), asked again on a new one. */
  readonly retried: number;
}

async function page(fresh: boolean): Promise<void> {
  const dispatcher = fresh ? new Agent() : undefined;
  const res = await request(`${origin}/v2/accounts?page[limit]=25`, { ...(dispatcher === undefined ? {} : { dispatcher }), headers: { authorization: `Bearer ${token}` } });
  await res.body.text();
  await dispatcher?.close();
}

let reading = false;
let times: number[] = [];
let retried = 0;
let loop: Promise<void> = Promise.resolve();

/** Pages one after the other, each timed with its retry, until 'times'. */
async function read(): Promise<void> {
  while (reading) {
    const t = performance.now();
    try {
      await page(false);
    } catch {
      retried++;
      await page(true);
    }
    times.push(performance.now() - t);
  }
}

process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
  if (m === 'read') {
    reading = true;
    times = [];
    retried = 0;
    loop = read();
    process.send?.(0);
  }
  if (m === 'times') {
    reading = false;
    void loop.then(() => process.send?.({ times, retried } satisfies PageTimes));
  }
});
process.send?.({ ready: true });
