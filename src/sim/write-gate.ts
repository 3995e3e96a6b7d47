/**
 * Answers to one connection are built in order, one at a time, each only once the one before it has
 * been handed to the socket and the socket is not backed up. A client that pipelines requests and never
 * reads so holds about one page of the server's memory, not one per request it managed to send: node
 * stops reading such a socket, but not before serving every request it had already read, and answers
 * queued behind an unsent one wait in memory.
 */

/**
 * What the gate needs of a socket: pause and resume stop and restart reading its requests, and its
 * `resume` event, to keep a pause the gate holds. Node's HTTP server resumes a connection by itself
 * after every request it parses (unless its own flood check paused it, which counts answers written,
 * and the gate writes none ahead): so a pause alone held nothing, a client that pipelined 20,000
 * requests had all of them read, and node's clean-up of them when it left held the event loop for
 * 200-800 ms. The gate answers such a resume with a pause, in the same tick, before the next read (node
 * does the same for its own pause, with a flag of its internals).
 */
export interface Writable {
  readonly writableNeedDrain: boolean;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  on?(event: 'resume', listener: () => void): unknown;
  pause?(): unknown;
  resume?(): unknown;
}

/**
 * Requests of one connection read and waiting for their answer at most: past it the gate stops reading
 * the connection until its queue is half empty, so a client that pipelines thousands of requests keeps
 * a few in the server at a time and everyone else's requests are read between them.
 */
export const MAX_PIPELINED = 16;

/** What the gate needs of an answer: whether it has been handed to the socket whole. */
export interface Sent {
  readonly writableFinished: boolean;
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

interface Gate {
  readonly queue: (() => Sent)[];
  /** Reading stopped by the gate (not by node's own back-pressure). */
  paused: boolean;
  /** Whether the gate listens to the socket's `resume` (added at its first pause). */
  held: boolean;
  /** Waiting for the socket to drain or the last answer to finish. */
  waiting: boolean;
  last: Sent | undefined;
}
const gates = new WeakMap<Writable, Gate>();

/** Build and send one answer (`run`) now if the connection is clear, else when it is. */
export function whenWritable(socket: Writable, run: () => Sent): void {
  let gate = gates.get(socket);
  if (gate === undefined) {
    const created: Gate = { queue: [], paused: false, held: false, waiting: false, last: undefined };
    gate = created;
    gates.set(socket, created);
    socket.once('close', () => {
      created.queue.length = 0;
    });
  }
  gate.queue.push(run);
  if (gate.queue.length >= MAX_PIPELINED && !gate.paused && socket.pause !== undefined) {
    if (!gate.held) {
      gate.held = true;
      const held = gate;
      socket.on?.('resume', () => {
        if (held.paused) socket.pause?.();
      });
    }
    gate.paused = true;
    socket.pause();
  }
  pump(socket, gate);
}

function pump(socket: Writable, gate: Gate): void {
  while (gate.queue.length > 0 && !gate.waiting) {
    const last = gate.last;
    if (last !== undefined && !last.writableFinished) {
      gate.waiting = true;
      // The next answer of this connection after a turn of the event loop, not in the finish callback:
      // a client that pipelines and reads fast would otherwise chain answer after answer in one tick
      // (each write finishing at once) and no other connection would be read for hundreds of ms.
      const resume = once(() =>
        setImmediate(() => {
          gate.waiting = false;
          pump(socket, gate);
        }),
      );
      last.once('finish', resume);
      last.once('close', resume);
      return;
    }
    if (socket.writableNeedDrain) {
      gate.waiting = true;
      socket.once('drain', () => {
        gate.waiting = false;
        pump(socket, gate);
      });
      return;
    }
    gate.last = (gate.queue.shift() as () => Sent)();
    if (gate.paused && gate.queue.length <= MAX_PIPELINED / 2) {
      gate.paused = false;
      socket.resume?.();
    }
  }
}

function once(f: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    f();
  };
}
