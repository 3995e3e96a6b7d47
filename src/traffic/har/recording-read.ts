/**
 * The kit's own recordings as traffic: a fixture file (src/recordings/format.ts), or a directory of
 * them, `commerce-sim record`'s or `commerce-sim fixtures`' (in the order of its index.json; without one,
 * every .json below it in path order). A fixture's JSON body becomes its compact JSON text (the bytes it
 * came as are not kept), a text body stays as it is. The origin is the index's `base_url`, which for a
 * recording is the `{base_url}` placeholder that also stands in its bodies' links, so links and origin
 * still agree; a fixture read alone gets that placeholder too. Each entry's `source` is the fixture's path.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { BASE_URL, INDEX_FILE, parseFixture, type Fixture, type FixtureBody } from '../../recordings/format.js';
import { isObject } from '../../rules/inspect-json.js';
import { toExchange } from '../../port.js';
import type { TrafficEntry } from '../entry.js';
import { trafficInputError } from '../errors.js';

export interface RecordingReadOptions {
  /** Largest fixture file read, in bytes. */
  readonly maxEntryBytes: number;
}

/** A fixture as an entry of traffic. Pure. */
function entryOfFixture(fixture: Fixture, origin: string, source: string): TrafficEntry {
  const { request, response } = fixture;
  const exchange = toExchange(
    { method: request.method, url: request.url, headers: request.headers, ...(request.body === undefined ? {} : { body: bodyText(request.body) }) },
    { status: response.status, headers: response.headers, body: bodyText(response.body) },
  );
  return { exchange, origin, source };
}

const bodyText = (body: FixtureBody): string => (typeof body === 'string' ? body : JSON.stringify(body));

/** One fixture file; `source` names it in messages and in the entry. */
export async function readFixtureFile(file: string, source: string, origin: string, opts: RecordingReadOptions): Promise<TrafficEntry> {
  const parsed = parseFixture(await readJson(file, opts));
  if (!parsed.ok) throw trafficInputError(file, `not a fixture of this kit: ${parsed.message}`);
  return entryOfFixture(parsed.value, origin, source);
}

/** A directory of fixtures, in its index's order, or every .json below it when it has no index. */
export async function* readRecordingDir(dir: string, opts: RecordingReadOptions): AsyncGenerator<TrafficEntry> {
  const label = basename(dir);
  const indexFile = join(dir, INDEX_FILE);
  const index = await stat(indexFile).then(
    () => readJson(indexFile, opts),
    () => undefined,
  );
  if (index === undefined) {
    const files = await jsonFilesBelow(dir);
    if (files.length === 0) throw trafficInputError(dir, `neither a HAR nor a recording (no ${INDEX_FILE}, no .json fixtures)`);
    for (const file of files) yield await readFixtureFile(join(dir, file), `${label}/${file}`, BASE_URL, opts);
    return;
  }
  if (!isObject(index) || !Array.isArray(index['fixtures'])) throw trafficInputError(indexFile, 'not the index of a recording or of fixtures (no fixtures list)');
  const baseUrl = index['base_url'];
  const origin = typeof baseUrl === 'string' && baseUrl !== '' ? baseUrl.replace(/\/+$/, '') : BASE_URL;
  for (const [i, e] of index['fixtures'].entries()) {
    const file = isObject(e) ? e['file'] : undefined;
    if (typeof file !== 'string' || file === '' || file.startsWith('/') || file.split('/').includes('..')) {
      throw trafficInputError(indexFile, `fixtures[${i}] needs a relative file`);
    }
    yield await readFixtureFile(join(dir, ...file.split('/')), `${label}/${file}`, origin, opts);
  }
}

async function readJson(file: string, opts: RecordingReadOptions): Promise<unknown> {
  let text: string;
  try {
    const { size } = await stat(file);
    if (size > opts.maxEntryBytes) throw trafficInputError(file, `larger than ${opts.maxEntryBytes} bytes, the most one fixture may hold (maxEntryBytes)`);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (!isSystemError(error)) throw error;
    throw trafficInputError(file, `cannot be read (${codeOf(error)})`, undefined, error);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw trafficInputError(file, `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** An error of the file system (ENOENT, EACCES, EISDIR, ...), as opposed to one of ours. */
export const isSystemError = (error: unknown): error is Error & { readonly code: string } =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' && /^E[A-Z]+$/.test(error.code);

export const codeOf = (error: unknown): string => (isSystemError(error) ? error.code : String(error));

/** `/`-separated paths of the .json files below `dir` (its index.json aside), sorted. */
async function jsonFilesBelow(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = `${prefix}${e.name}`;
    if (e.isDirectory()) out.push(...(await jsonFilesBelow(join(dir, e.name), `${path}/`)));
    else if (e.isFile() && e.name.endsWith('.json') && path !== INDEX_FILE) out.push(path);
  }
  return out.sort();
}
