/** The first SIGINT or SIGTERM, for the commands that run until stopped (serve, proxy). */
export function nextStopSignal(cancel?: AbortSignal): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const off = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    };
    // Stopped for another reason (a count, a duration): the listeners go, the promise never settles.
    cancel?.addEventListener('abort', off, { once: true });
    function stop(signal: NodeJS.Signals) {
      off();
      resolve(signal);
    }
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
