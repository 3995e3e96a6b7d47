/**
 * Why a port could not be opened, as the kit's own error: a busy port is the commonest first stumble
 * (a second `serve`, a forgotten one), so it gets a stable code and one line naming the port, not
 * node's EADDRINUSE with its stack.
 */
import { KitError } from '../kit-errors.js';

export class SimulatorPortInUseError extends KitError {
  override readonly name = 'SimulatorPortInUseError';
  readonly code = 'SIM_PORT_IN_USE' as const;
  constructor(
    readonly port: number,
    readonly host: string,
    options?: { cause?: unknown },
  ) {
    super(`port ${port} on ${host} is already in use (another server listens there): choose another port, or 0 for a free one`, options);
  }
}

/** A listen error as the kit reports it: EADDRINUSE becomes SIM_PORT_IN_USE; anything else is passed on as it came. */
export function listenError(error: unknown, port: number, host: string): unknown {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return code === 'EADDRINUSE' ? new SimulatorPortInUseError(port, host, { cause: error }) : error;
}
