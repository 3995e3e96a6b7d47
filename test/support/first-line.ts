/** The first line a child process prints on stdout (serve's `--json` line, say); fails if it exits first. */
import type { ChildProcess } from 'node:child_process';

export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let text = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      text += chunk;
      const nl = text.indexOf('\n');
      if (nl >= 0) done(text.slice(0, nl));
    });
    child.once('exit', (code) => fail(new Error(`serve exited (${code}) before printing a line: ${text}`)));
  });
}
