/**
 * Why a port could not be opened, as the kit's own error: a busy port is the commonest first stumble
 * (a second `serve`, a forgotten one), so it gets a stable code and one line naming the port, not
 * node's EADDRINUSE with its stack.
 */
import { CodedKitError, type KitErrorOptions } from '../kit-errors.js';

export class SimulatorPortInUseError extends CodedKitError<'SIM_PORT_IN_USE'> {
  override readonly name = 'SimulatorPortInUseError';
  readonly port: number;
  readonly host: string;
  constructor(code: 'SIM_PORT_IN_USE', message: string, options: KitErrorOptions & { readonly port: number; readonly host: string }) {
    super(code, message, options);
    this.port = options.port;
    this.host = options.host;
  }
}

/** A listen error as the kit reports it: EADDRINUSE becomes SIM_PORT_IN_USE; anything else is passed on as it came. */
export function listenError(error: unknown, port: number, host: string): unknown {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (code !== 'EADDRINUSE') return error;
  const message = `port ${port} on ${host} is already in use (another server listens there): choose another port, or 0 for a free one`;
  return new SimulatorPortInUseError('SIM_PORT_IN_USE', message, { cause: error, port, host });
}
