/** A CliIo whose output is kept in memory, for calling commands in-process. */
import { Writable } from 'node:stream';
import type { CliIo } from '../../src/cli/io.js';

export interface CapturedIo {
  readonly io: CliIo;
  out(): string;
  err(): string;
}

export function captureIo(options: { cwd?: string; env?: Readonly<Record<string, string | undefined>> } = {}): CapturedIo {
  let out = '';
  let err = '';
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        append(chunk.toString());
        done();
      },
    });
  return {
    io: { stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)), env: options.env ?? {}, cwd: options.cwd ?? process.cwd() },
    out: () => out,
    err: () => err,
  };
}
