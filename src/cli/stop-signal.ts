/** The stop signals (SIGINT, SIGTERM) of the commands that run until stopped (serve, proxy). */

/** The first SIGINT or SIGTERM (proxy: it stops at once, so no second one is waited for), through `stopSignals`. */
export function nextStopSignal(cancel?: AbortSignal): Promise<NodeJS.Signals> {
  const signals = stopSignals();
  // Stopped for another reason (a count, a duration): the listeners go, the promise never settles.
  cancel?.addEventListener('abort', () => signals.dispose(), { once: true });
  return signals.first.then((signal) => {
    signals.dispose();
    return signal;
  });
}

export interface StopSignals {
  /** The first: finish what is in flight. */
  readonly first: Promise<NodeJS.Signals>;
  /** The second: cut it. */
  readonly second: Promise<NodeJS.Signals>;
  /** The listeners go (at the command's end). */
  dispose(): void;
}

/**
 * The first and the second stop signal (serve), through one pair of listeners kept until `dispose()`. Two
 * `nextStopSignal()` in a row left a moment with no listener, and a signal then gets Node's default, which
 * kills the process (a test that sent the second signal as soon as the first was acknowledged saw it).
 */
export function stopSignals(): StopSignals {
  let seen = 0;
  let onFirst: (s: NodeJS.Signals) => void = () => undefined;
  let onSecond: (s: NodeJS.Signals) => void = () => undefined;
  const first = new Promise<NodeJS.Signals>((resolve) => (onFirst = resolve));
  const second = new Promise<NodeJS.Signals>((resolve) => (onSecond = resolve));
  const stop = (signal: NodeJS.Signals) => {
    seen += 1;
    if (seen === 1) onFirst(signal);
    else onSecond(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    first,
    second,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
