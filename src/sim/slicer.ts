/**
 * The scheduler of long work on a served simulator (long reads, a reseed, a restore): steps run in slices
 * of about 10 ms between other requests, so a client's full scan of a million records or an admin's
 * restore holds nobody else for longer than a slice. The HTTP adapter makes one per server.
 */
import { performance } from 'node:perf_hooks';
import type { Steps } from '../store/steps.js';

/** What the scheduler reads of the server's life: whether shutdown has begun. */
export interface ServerLife {
  readonly closing: boolean;
}

/** Work in slices of about this many ms, each followed by whatever requests are waiting. */
const SLICE_MS = 10;
/**
 * Jobs sliced at once, taking turns: more wait their turn to start (a started long read holds what it has
 * found so far; one not started holds nothing), so memory stays bounded whatever the number of them.
 */
const RUNNING_JOBS = 4;

interface Job {
  readonly steps: Steps<unknown>;
  readonly resolve: (done: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Run steps between other requests; false when shutdown began first (the work is then dropped). One
 * slice of one job a turn, round robin, then the event loop reads and answers what came meanwhile: a
 * cheap request waits for one slice at most, however many long jobs run.
 */
export function sliced(lifecycle: ServerLife, sliceMs = SLICE_MS): (steps: Steps<unknown>) => Promise<boolean> {
  const running: Job[] = [];
  const queued: Job[] = [];
  let scheduled = false;
  const turn = () => {
    scheduled = false;
    while (running.length < RUNNING_JOBS && queued.length > 0) running.push(queued.shift() as Job);
    const job = running.shift();
    if (job === undefined) return;
    if (lifecycle.closing) job.resolve(false);
    else {
      const until = performance.now() + sliceMs;
      let finished = false;
      try {
        for (;;) {
          if (job.steps.next().done === true) {
            finished = true;
            break;
          }
          if (performance.now() >= until) break;
        }
      } catch (error) {
        // A bug in the work fails that job's answer, not the server.
        job.reject(error);
        finished = true;
      }
      if (finished) job.resolve(true);
      else running.push(job);
    }
    schedule();
  };
  const schedule = () => {
    if (scheduled || running.length + queued.length === 0) return;
    scheduled = true;
    setImmediate(turn);
  };
  return (steps) =>
    new Promise((resolve, reject) => {
      queued.push({ steps, resolve, reject });
      schedule();
    });
}
