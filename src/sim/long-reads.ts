/**
 * Long list reads on a served simulator: a read whose plan costs more than a slice runs as steps between
 * other requests (the server's slicer), so a client's full scan of a million records is answered, not
 * refused, and nobody else waits for it. Its answer must be the one an unsliced read would give, on one
 * version of the data: while a project has a long read running, requests that change that project (its
 * writes, and reads whose adversity changes it) wait, then run in the order they came, before any long
 * read that came after them. Reads that change nothing run at once, long or short.
 */
import { error, json } from './respond.js';
import type { SimResponse } from './messages.js';
import { drain, type Steps } from '../store/steps.js';

/**
 * What a sliced job is for: an answer a client waits for (a long read), finished at shutdown within the
 * grace; or a change of the simulator's state (a reseed, a restore), dropped at shutdown.
 */
export type Work = 'answer' | 'state';

/** Runs steps between other requests (`work` default 'answer'); false when shutdown stopped them first. */
export type Slicer = (steps: Steps<unknown>, work?: Work) => Promise<boolean>;

/**
 * A plan estimated above this many units (engine/read-cost.ts: about 80 ns each on the bench machine, so
 * about 4 ms) runs in slices; below it, at once.
 */
export const SLICE_ABOVE_UNITS = 50_000;

/** What is held of one project: its long reads running, and what waits for them to end. */
interface Hold {
  reads: number;
  readonly waiting: (() => void)[];
}

/** The placeholder a deferred answer travels in (messages.ts `deferred`): the adapter sends the later one. */
function deferredResponse(later: Promise<SimResponse>): SimResponse {
  return { ...json(200, {}), deferred: later };
}

/** What a bug in work done later becomes: a JSON error, never a rejected promise (Simulator.handle's rule). */
function guarded(compute: () => SimResponse): SimResponse {
  try {
    return compute();
  } catch {
    return error('bad-request', 'The simulator could not process this request');
  }
}

/** The answer itself, once any work it waits for is done. */
const settled = (response: SimResponse): Promise<SimResponse> => response.deferred ?? Promise.resolve(response);

/** `f` applied to the answer, now or when a deferred one comes. */
export function thenAnswer(response: SimResponse, f: (r: SimResponse) => SimResponse): SimResponse {
  return response.deferred === undefined ? f(response) : { ...response, deferred: response.deferred.then(f) };
}

/** Where the slicer and the threshold are read at each use (the simulator: the HTTP adapter installs its slicer after start). */
export interface SliceSettings {
  readonly slicer: Slicer | undefined;
  /** Plans above this many units run in slices. */
  readonly sliceAbove: number;
}

/** One per simulator: what its projects' long reads hold, for as long as it runs. */
export class LongReads<P extends object = object> {
  private readonly holds = new WeakMap<P, Hold>();

  constructor(private readonly settings: SliceSettings) {}

  /** Plans above this many units run in slices. */
  get sliceAbove(): number {
    return this.settings.sliceAbove;
  }

  /** Whether a change to `project` is waiting: a long read planned now would start before it, so it waits too. */
  changeWaiting(project: P): boolean {
    return (this.holds.get(project)?.waiting.length ?? 0) > 0;
  }

  /** `compute` now when nothing of `project` is held, else when its long reads are done (in arrival order). */
  whenStill(project: P, compute: () => SimResponse): SimResponse {
    const hold = this.holds.get(project);
    if (hold === undefined || hold.reads === 0) return compute();
    return deferredResponse(new Promise((resolve) => hold.waiting.push(() => resolve(settled(guarded(compute))))));
  }

  /**
   * Run a long read's steps in slices, holding `project` still; `finish` builds the answer from their
   * result before anything waiting may change the project.
   */
  run<T>(project: P, steps: Steps<T>, finish: (value: T) => SimResponse, stopped: () => SimResponse): SimResponse {
    const { slicer } = this.settings;
    // Only handed out with a slicer (context.ts): without one, long reads run at once.
    if (slicer === undefined) return finish(drain(steps));
    let hold = this.holds.get(project);
    if (hold === undefined) {
      hold = { reads: 0, waiting: [] };
      this.holds.set(project, hold);
    }
    const held = hold;
    held.reads++;
    let value: T | undefined;
    function* capture(): Steps<void> {
      value = yield* steps;
    }
    const end = (answer: () => SimResponse): SimResponse => {
      try {
        return guarded(answer);
      } finally {
        held.reads--;
        // What waited runs in order; a long read among it holds the project again, and the rest wait on.
        while (held.reads === 0 && held.waiting.length > 0) (held.waiting.shift() as () => void)();
      }
    };
    const failed = () => {
      throw new Error('a long read failed');
    };
    return deferredResponse(
      slicer(capture()).then(
        (done) => end(() => (done ? finish(value as T) : stopped())),
        () => end(failed),
      ),
    );
  }
}
