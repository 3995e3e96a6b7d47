/**
 * The scheduler of long work on a served simulator (long reads, a reseed, a restore): steps run in slices
 * of about 10 ms between other requests, so a client's full scan of a million records or an admin's
 * restore holds nobody else for longer than a slice, and a long read running when shutdown begins is
 * finished within the grace. The HTTP adapter makes one per server.
 */
import { performance } from 'node:perf_hooks';
import type { Steps } from '../store/steps.js';
import type { Slicer, Work } from './long-reads.js';

/** What the scheduler reads of the server's life. */
export interface ServerLife {
  /** Shutdown has begun. */
  readonly closing: boolean;
  /** Once closing, when (performance.now()) work still running must stop, so its answer is written within the grace. */
  readonly finishBy: number;
}

/** Work in slices of about this many ms, each followed by whatever requests are waiting. */
const SLICE_MS = 10;
/**
 * Jobs sliced at once, taking turns: more wait their turn to start (a started long read holds what it has
 * found so far; one not started holds nothing), so memory stays bounded whatever the number of them.
 */
const RUNNING_JOBS = 4;
/**
 * A change of state (a restore, a reseed) rests this share of its slice's time after each one (issue 36):
 * the event loop is then free half the time, so another client's page beside a 230 MiB restore is answered
 * at once rather than after a slice (p50 24-26 ms -> 0.2-1.3 ms at load 6-10), and the collector's threads
 * get a CPU on a 2-core machine. The restore takes twice as long, and its collector pauses are not shorter
 * (at load 1-2 its longest turn was 105-143 ms against 73-81 ms without the rest): 0 gives that behaviour.
 */
const STATE_REST = 1;

interface Job {
  readonly steps: Steps<unknown>;
  readonly work: Work;
  readonly resolve: (done: boolean) => void;
  readonly reject: (error: unknown) => void;
  /** performance.now() before which the job does not take a turn (a change of state resting). */
  restUntil: number;
}

/**
 * Run steps between other requests. One slice of one job a turn, round robin, then the event loop reads
 * and answers what came meanwhile: a cheap request waits for one slice at most, however many long jobs
 * run. Once shutdown begins, the answers clients wait for are finished oldest first, each to its end (no
 * new request is served then, so they have the loop), until `finishBy`; what is left then resolves false
 * (its answer a 503), and so does a change of state at once (the state it would make ends with the process).
 */
export function sliced(life: ServerLife, sliceMs = SLICE_MS, now: () => number = () => performance.now(), stateRest = STATE_REST): Slicer {
  const running: Job[] = [];
  const queued: Job[] = [];
  let scheduled = false;
  let timer: NodeJS.Timeout | undefined;
  /** Shutdown: the jobs that are to stop now resolve false, the others go on. */
  const stopping = () => {
    const late = now() >= life.finishBy;
    for (const list of [running, queued]) {
      const kept = list.filter((job) => !(late || job.work === 'state'));
      for (const job of list) if (!kept.includes(job)) job.resolve(false);
      list.splice(0, list.length, ...kept);
    }
  };
  /** `rested`: the turn a rest's timer gives, which the job resting least longer takes whatever the clock says. */
  const turn = (rested = false) => {
    scheduled = false;
    if (life.closing) stopping();
    while (running.length < RUNNING_JOBS && queued.length > 0) running.push(queued.shift() as Job);
    if (running.length === 0) return;
    // The first job not resting (at shutdown none rests: the loop is the answers' then).
    const started = now();
    const soonest = Math.min(...running.map((j) => j.restUntil));
    let at = life.closing ? 0 : running.findIndex((j) => j.restUntil <= started);
    if (at < 0 && rested) at = running.findIndex((j) => j.restUntil === soonest);
    if (at < 0) {
      rest(soonest - started);
      return;
    }
    const job = running.splice(at, 1)[0] as Job;
    const until = started + sliceMs;
    let finished = false;
    try {
      for (;;) {
        if (job.steps.next().done === true) {
          finished = true;
          break;
        }
        if (now() >= until) break;
      }
    } catch (error) {
      // A bug in the work fails that job's answer, not the server.
      job.reject(error);
      finished = true;
    }
    if (finished) job.resolve(true);
    // Serving, the next job takes the next turn; shutting down, the oldest keeps it until it is done.
    else if (life.closing) running.unshift(job);
    else {
      if (job.work === 'state') {
        const ended = now();
        job.restUntil = ended + (ended - started) * stateRest;
      }
      running.push(job);
    }
    schedule();
  };
  /** Every running job rests: the next turn after `ms` (a timer, so the loop sleeps and the collector's threads run). */
  const rest = (ms: number) => {
    scheduled = true;
    timer = setTimeout(
      () => {
        timer = undefined;
        turn(true);
      },
      Math.max(1, Math.ceil(ms)),
    );
  };
  const schedule = () => {
    if (running.length + queued.length === 0) return;
    // A resting wait ends early when other work comes.
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
      scheduled = false;
    }
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => turn());
  };
  return (steps, work = 'answer') =>
    new Promise((resolve, reject) => {
      queued.push({ steps, work, resolve, reject, restUntil: 0 });
      schedule();
    });
}
