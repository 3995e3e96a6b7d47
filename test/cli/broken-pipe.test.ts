/**
 * `commerce-sim openapi | head -1` and `run --json | head -1`: the reader closes after the first line,
 * and the CLI ends quietly with 0. Both outputs are far larger than a pipe's buffer, so the writer is
 * still writing when the reader goes.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isBrokenPipe } from '../../src/cli/broken-pipe.js';

const run = promisify(execFile);
const MAIN = resolve(import.meta.dirname, '../../dist/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'broken-pipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `commerce-sim ARGS | head -1`, a real shell pipeline (node's own child pipes are socket pairs, whose
 * larger buffers would hide the broken pipe): head reads the first line and exits while the CLI still
 * has output to write. The CLI's exit code and stderr go to files, head's line comes back.
 */
async function pipedToHead(args: readonly string[]): Promise<{ code: number; line: string; stderr: string }> {
  const err = join(dir, `stderr-${args.join('-')}`);
  const code = join(dir, `code-${args.join('-')}`);
  const script = '{ "$@" 2>"$CLI_STDERR"; echo $? >"$CLI_CODE"; } | head -1';
  const { stdout } = await run('sh', ['-c', script, 'sh', process.execPath, MAIN, ...args], { cwd: dir, env: { ...process.env, CLI_STDERR: err, CLI_CODE: code } });
  return { code: Number((await readFile(code, 'utf8')).trim()), line: stdout.trimEnd(), stderr: await readFile(err, 'utf8') };
}

describe('a reader that closes early (| head -1)', () => {
  it('openapi: exit 0, nothing on stderr', async () => {
    const r = await pipedToHead(['openapi']);
    expect(r.line).toBe('{');
    expect(r).toMatchObject({ code: 0, stderr: '' });
  });

  it('run --json: exit 0, nothing on stderr', async () => {
    const r = await pipedToHead(['run', '--json']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
  }, 30_000);

  it('only EPIPE counts as the reader gone', () => {
    expect(isBrokenPipe(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(true);
    expect(isBrokenPipe(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toBe(false);
    expect(isBrokenPipe('EPIPE')).toBe(false);
  });
});
