/**
 * Reads a `--dataset FILE` (JSON or YAML) into a plain value; src/store/adversity-profiles.ts
 * validates it. The only file I/O of the dataset profiles: a thin adapter, nothing decided here.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DatasetError } from './dataset-error.js';

export async function readDatasetFile(path: string, cwd: string = process.cwd()): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new DatasetError('DATASET_UNREADABLE', `${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  try {
    // YAML is a superset of JSON, so one parser reads both.
    const value: unknown = parseYaml(text, { prettyErrors: true });
    return value;
  } catch (error) {
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    throw new DatasetError('DATASET_INVALID', `${path}: ${first}`, { cause: error });
  }
}
