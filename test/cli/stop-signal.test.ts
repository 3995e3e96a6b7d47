/**
 * The stop signals of `serve`: the first finishes what is in flight, the second cuts it. A signal that
 * finds no listener gets Node's default, which kills the process (exit code null instead of 0), so from the
 * first signal to the command's end a listener is always there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { nextStopSignal, stopSignals, type StopSignals } from '../../src/cli/stop-signal.js';

const listeners = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];

describe('stop signals', () => {
  let open: StopSignals | undefined;
  afterEach(() => open?.dispose());

  it('the first and the second, in order, with a listener on both signals all the while', async () => {
    const before = listeners();
    open = stopSignals();
    const during = listeners();
    expect(during).toEqual([before[0]! + 1, before[1]! + 1]);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await open.first).toBe('SIGTERM');
    // Between the two, where the old pair of nextStopSignal() calls had none.
    expect(listeners()).toEqual(during);
    process.emit('SIGINT', 'SIGINT');
    expect(await open.second).toBe('SIGINT');
    expect(listeners()).toEqual(during);
    open.dispose();
    expect(listeners()).toEqual(before);
  });

  it('the second waits for a second signal; a third changes nothing', async () => {
    open = stopSignals();
    let second: string | undefined;
    void open.second.then((s) => (second = s));
    process.emit('SIGINT', 'SIGINT');
    expect(await open.first).toBe('SIGINT');
    await new Promise((r) => setImmediate(r));
    expect(second).toBeUndefined();
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    await new Promise((r) => setImmediate(r));
    expect(second).toBe('SIGTERM');
  });

  it('nextStopSignal: the first, its listeners gone with it or with a cancel', async () => {
    const before = listeners();
    const next = nextStopSignal();
    process.emit('SIGINT', 'SIGINT');
    expect(await next).toBe('SIGINT');
    expect(listeners()).toEqual(before);
    const cancel = new AbortController();
    void nextStopSignal(cancel.signal);
    expect(listeners()).toEqual([before[0]! + 1, before[1]! + 1]);
    cancel.abort();
    expect(listeners()).toEqual(before);
  });
});
