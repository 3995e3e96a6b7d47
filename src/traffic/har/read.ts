/**
 * Traffic files in, entries out, one at a time: `readTraffic(path)` reads a HAR 1.2 file (a browser's
 * export, Playwright's `recordHar`, mitmproxy's, our proxy's) as a stream, so a file of any size is read
 * in bounded memory, or the kit's own recordings (a fixture file, or a directory of them). Each entry's
 * `source` is `<file name> entry <n>` (1-based); every failure is a TrafficInputError naming the file
 * and the entry. Entries before a failure have been yielded already: a file cut short still gives the
 * entries it holds, then the error.
 */
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { BASE_URL } from '../../recordings/format.js';
import { toExchange } from '../../port.js';
import type { TrafficEntry } from '../entry.js';
import { trafficInputError } from '../errors.js';
import { bodyText } from './body.js';
import { readHarEntry, type BodySource, type HarDraft } from './entry.js';
import { HarSplitter } from './split.js';
import { headerValue } from './headers.js';
import { codeOf, isSystemError, readFixtureFile, readRecordingDir } from './recording-read.js';

export interface ReadTrafficOptions {
  /** Longest single entry (and decoded body, and fixture file) accepted, in bytes; default 64 MiB. The file itself may be any size. */
  readonly maxEntryBytes?: number;
  /** Told of each entry left out and why (a request that got no answer, a `data:` URL). */
  readonly onSkip?: (source: string, reason: string) => void;
}

const DEFAULT_MAX_ENTRY_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

/** The entries of a HAR file, a fixture file or a recording directory, in file order. */
export async function* readTraffic(path: string, opts: ReadTrafficOptions = {}): AsyncGenerator<TrafficEntry> {
  const limits = { maxEntryBytes: opts.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES };
  const info = await stat(path).catch((error: unknown) => {
    throw trafficInputError(path, `cannot be read (${codeOf(error)})`, undefined, error);
  });
  if (info.isDirectory()) {
    yield* readRecordingDir(path, limits);
    return;
  }
  const splitter = new HarSplitter({ file: path, maxEntryBytes: limits.maxEntryBytes });
  // This kit's proxy writes every header it relayed; another capture may have dropped credentials (a browser's sanitized export).
  const whole = (await readTrafficLog(path))?.creatorName?.startsWith('commerce-sim') === true;
  yield* harEntries(path, splitter, { ...opts, ...limits, headersWhole: whole });
  if (splitter.sawEntries) return;
  // Not a HAR: one of the kit's own files, or nothing this reads.
  const keys = new Set(splitter.rootKeys);
  if (keys.has('log')) throw trafficInputError(path, 'not a HAR file: log.entries missing');
  if (keys.has('request') && keys.has('response')) yield await readFixtureFile(path, basename(path), BASE_URL, limits);
  else if (keys.has('fixtures')) yield* readRecordingDir(dirname(path), limits);
  else throw trafficInputError(path, 'neither a HAR file (no log.entries) nor a fixture or recording of this kit');
}

async function* harEntries(path: string, splitter: HarSplitter, opts: ReadTrafficOptions & { readonly maxEntryBytes: number; readonly headersWhole: boolean }): AsyncGenerator<TrafficEntry> {
  const label = basename(path);
  // Once the capture has shown one Authorization header, it keeps them: a later request without one sent none.
  let credentialsShown = opts.headersWhole;
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  let n = 0;
  try {
    for await (const chunk of stream) {
      if (!Buffer.isBuffer(chunk)) continue;
      for (const text of splitter.push(chunk)) {
        n += 1;
        const entry = await harEntry(text, { path, label, n, maxEntryBytes: opts.maxEntryBytes });
        if (entry.kind === 'skip') {
          opts.onSkip?.(`${label} entry ${n}`, entry.reason);
          continue;
        }
        credentialsShown ||= headerValue(entry.entry.exchange.request.headers ?? {}, 'authorization') !== undefined;
        yield credentialsShown ? entry.entry : { ...entry.entry, headersMayBeStripped: true };
      }
    }
  } catch (error) {
    if (!isSystemError(error)) throw error;
    throw trafficInputError(path, `cannot be read (${codeOf(error)})`, undefined, error);
  } finally {
    stream.destroy();
  }
  splitter.end();
}

interface EntryPlace {
  readonly path: string;
  readonly label: string;
  /** 1-based. */
  readonly n: number;
  readonly maxEntryBytes: number;
}

type Read = { readonly kind: 'entry'; readonly entry: TrafficEntry } | { readonly kind: 'skip'; readonly reason: string };

async function harEntry(text: string, at: EntryPlace): Promise<Read> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw trafficInputError(at.path, `malformed JSON (${error instanceof Error ? error.message : String(error)})`, at.n);
  }
  const read = readHarEntry(value);
  if (read.kind === 'bad') throw trafficInputError(at.path, read.message, at.n);
  if (read.kind === 'skip') return read;
  const d = read.draft;
  const requestBody = await body(d.requestBody, d.requestHeaders, at);
  const responseBody = await body(d.responseBody, d.responseHeaders, at);
  const exchange = toExchange(
    { method: d.method, url: d.url, headers: d.requestHeaders, ...(requestBody === undefined ? {} : { body: requestBody.text }) },
    { status: d.status, headers: d.responseHeaders, body: responseBody?.text ?? '' },
  );
  const entry = entryOf(d, exchange, `${at.label} entry ${at.n}`);
  const undecodable =
    responseBody?.undecodable === undefined
      ? requestBody?.undecodable === undefined
        ? undefined
        : `the request's ${requestBody.undecodable.replace(/^the /, '')}`
      : `the answer's ${responseBody.undecodable.replace(/^the /, '')}`;
  return { kind: 'entry', entry: undecodable === undefined ? entry : { ...entry, undecodable } };
}

function entryOf(d: HarDraft, exchange: TrafficEntry['exchange'], source: string): TrafficEntry {
  return {
    exchange,
    origin: d.origin,
    ...(d.startedAt === undefined ? {} : { startedAt: d.startedAt }),
    ...(d.durationMs === undefined ? {} : { durationMs: d.durationMs }),
    source,
  };
}

/** A body's text: inline as is; base64 or a file decoded (a content coding still on the bytes undone). */
async function body(source: BodySource, headers: Record<string, string>, at: EntryPlace): Promise<{ readonly text: string; readonly undecodable?: string } | undefined> {
  switch (source.kind) {
    case 'none':
      return undefined;
    case 'text':
      return { text: source.text };
    case 'base64':
      return decoded(Buffer.from(source.data, 'base64'), source.member, headers, at);
    case 'file':
      return decoded(await attachment(source.name, source.member, at), source.member, headers, at);
  }
}

function decoded(bytes: Buffer, member: string, headers: Record<string, string>, at: EntryPlace): { readonly text: string; readonly undecodable?: string } {
  const text = bodyText(bytes, headerValue(headers, 'content-encoding'), headerValue(headers, 'content-type'), at.maxEntryBytes);
  if (!text.ok) throw trafficInputError(at.path, `${member}: ${text.message}`, at.n);
  return text.value;
}

/** A body Playwright's `attach` mode left beside the HAR (`_file`, relative to the HAR's directory). */
async function attachment(name: string, member: string, at: EntryPlace): Promise<Buffer> {
  if (isAbsolute(name) || name.split(/[\\/]/).includes('..')) throw trafficInputError(at.path, `${member}._file must name a file beside the HAR: ${JSON.stringify(name)}`, at.n);
  const file = join(dirname(at.path), name);
  try {
    const { size } = await stat(file);
    if (size > at.maxEntryBytes) throw trafficInputError(at.path, `${member}._file ${name} is larger than ${at.maxEntryBytes} bytes (maxEntryBytes)`, at.n);
    return await readFile(file);
  } catch (error) {
    if (!isSystemError(error)) throw error;
    throw trafficInputError(at.path, `${member}._file ${name} cannot be read (${codeOf(error)})`, at.n, error);
  }
}

/** What a HAR says of itself before its entries: who wrote it, and that writer's comment. */
export interface TrafficLog {
  readonly creatorName?: string;
  readonly creatorComment?: string;
}

/** The head of a HAR file (its `creator`), read without reading its entries; undefined for a recording or an unreadable file. */
export async function readTrafficLog(path: string): Promise<TrafficLog | undefined> {
  let head: string;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  const before = head.slice(0, Math.max(0, head.indexOf('"entries"')));
  const creator = /"creator"\s*:\s*(\{[^{}]*\})/.exec(before)?.[1];
  if (creator === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(creator);
    if (typeof value !== 'object' || value === null) return undefined;
    const name = 'name' in value && typeof value.name === 'string' ? value.name : undefined;
    const comment = 'comment' in value && typeof value.comment === 'string' ? value.comment : undefined;
    return { ...(name === undefined ? {} : { creatorName: name }), ...(comment === undefined ? {} : { creatorComment: comment }) };
  } catch {
    return undefined;
  }
}

/** How much of a file's start holds a HAR's `creator`: writers put `log.creator` before `entries`. */
const HEAD_BYTES = 64 * 1024;
