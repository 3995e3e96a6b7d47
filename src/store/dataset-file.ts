/**
 * Reads a JSON or YAML file (a `--dataset FILE`, a `--clients FILE`) into a plain value; the callers
 * validate it. A thin adapter: the only file I/O of these options, nothing decided here.
 */
import type { Result } from '../result.js';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DatasetError } from './dataset-error.js';

export type DataFileReading = Result<unknown, { readonly kind: 'unreadable' | 'invalid'; readonly message: string; readonly cause: unknown }>;

export async function readDataFile(path: string, cwd: string = process.cwd()): Promise<DataFileReading> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    return { ok: false, kind: 'unreadable', message: error instanceof Error ? error.message : String(error), cause: error };
  }
  try {
    // YAML is a superset of JSON, so one parser reads both; loaded here, so importing the library does not load it.
    const { parse } = await import('yaml');
    return { ok: true, value: parse(text, { prettyErrors: true }) as unknown };
  } catch (error) {
    return { ok: false, kind: 'invalid', message: error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error), cause: error };
  }
}

export async function readDatasetFile(path: string, cwd: string = process.cwd()): Promise<unknown> {
  const read = await readDataFile(path, cwd);
  if (read.ok) return read.value;
  throw new DatasetError(read.kind === 'unreadable' ? 'DATASET_UNREADABLE' : 'DATASET_INVALID', `${path}: ${read.message}`, { cause: read.cause });
}
