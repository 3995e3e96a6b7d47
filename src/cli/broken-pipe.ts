/**
 * `commerce-sim openapi | head`: a reader that stops reading is not a failure of the tool. Writing to a
 * closed pipe fails with EPIPE, which unhandled is a stack trace and exit 1; the output nobody reads
 * any more is dropped and the process ends quietly with 0, as other command-line tools do.
 */

/** Whether a stream error is the reader having gone away. */
export const isBrokenPipe = (error: unknown): boolean => typeof error === 'object' && error !== null && 'code' in error && error.code === 'EPIPE';

/** On EPIPE, `exit(0)`; any other error of the stream is thrown on, as it was without a listener. */
export function exitQuietlyOnBrokenPipe(stream: NodeJS.WritableStream, exit: (code: number) => void): void {
  stream.on('error', (error: unknown) => {
    if (!isBrokenPipe(error)) throw error;
    exit(0);
  });
}
