/**
 * `serve --ready-file FILE`: a script or a CI step waits for FILE instead of parsing stdout. The file
 * holds the line `serve --json` prints and appears only once the port listens, whole or not at all: it is
 * written beside FILE under another name, then renamed (atomic within one file system), so a waiter that
 * sees it never reads half of it. It holds the tokens, so only its owner may read it.
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { UsageError } from '../kit-errors.js';

const cannot = (path: string, error: unknown): UsageError => new UsageError('CLI_USAGE', `--ready-file ${path}: cannot write it (${error instanceof Error ? error.message : String(error)})`);

/** Writes `text` to `path` atomically; a failure is a usage error naming the file. */
export async function writeReadyFile(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw cannot(path, error);
  }
}

/**
 * Removes a ready file: before listening, so a waiter never takes a previous server's file for this one's,
 * and after stopping, so none takes a stopped server's for a running one.
 */
export async function removeReadyFile(path: string): Promise<void> {
  try {
    await rm(path, { force: true });
  } catch (error) {
    throw cannot(path, error);
  }
}
