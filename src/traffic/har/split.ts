/**
 * Cuts the entries out of a HAR's bytes as they stream in, so a file of any size is read in bounded
 * memory: the JSON scanner (src/json-scan.ts) reads strings, escapes and scalars, and this tracks the
 * nesting, knows the members of the root and of `log` by name, and hands back the JSON text of each
 * element of `log.entries` as soon as it closes.
 * Nothing else is kept (`pages`, `creator` are skipped), and one entry longer than the limit is refused
 * with its number and the limit. The text of an entry is validated by JSON.parse afterwards; outside the
 * entries the scanner checks only what it must to find them. No I/O: bytes in, entry texts out.
 */
import { isAscii } from 'node:buffer';
import { JSON_MARKS, isJsonSpace, scalarEnd, stringClose } from '../../json-scan.js';
import { trafficInputError } from '../errors.js';

const { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = JSON_MARKS;

/** Member names longer than this are not `log` or `entries`: kept only as far as needed to say so. */
const MAX_KEY_BYTES = 64;
/** Root member names remembered, to tell a fixture or an index from a HAR. */
const MAX_ROOT_KEYS = 32;

export interface SplitOptions {
  /** The file's name as the caller gave it, for messages. */
  readonly file: string;
  /** Longest entry accepted, in bytes. */
  readonly maxEntryBytes: number;
}

export class HarSplitter {
  /** Member names of the root object (the first few), to tell what a file without `log.entries` is. */
  readonly rootKeys: string[] = [];
  /** Whether `log.entries` was found (an array). */
  sawEntries = false;
  /** Entries begun so far (the number of the one being read, 1-based). */
  entryCount = 0;

  private depth = 0;
  private started = false;
  private rootClosed = false;
  private inString = false;
  private escaped = false;
  /** Objects at depth 1 (root) and 2 (a root member): whether a member name comes next. */
  private keyExpected = false;
  private kind2: 'object' | 'array' | undefined;
  private capturingKey = false;
  private keyParts: Buffer[] = [];
  private keyBytes = 0;
  private rootKey = '';
  private logKey = '';
  private inLog = false;
  private inEntries = false;
  /** Start of the entry being read within the current chunk (-1: it began in an earlier chunk, or none). */
  private entryStart = -1;
  private entryParts: Buffer[] = [];
  private entryBytes = 0;
  private capturing = false;
  private offset = 0;

  constructor(private readonly opts: SplitOptions) {}

  /** Feeds the next bytes; returns the JSON texts of the entries that closed in them, in order. */
  push(chunk: Buffer): string[] {
    const out: string[] = [];
    let i = 0;
    const n = chunk.length;
    if (!this.started) i = this.skipPreamble(chunk);
    // The hot loop: most bytes of a HAR are inside strings (bodies), read here with locals only.
    let inString = this.inString;
    let from = i;
    if (this.escaped) {
      i += 1; // the character a backslash at the end of the last chunk escapes
      this.escaped = false;
    }
    while (i < n) {
      if (inString) {
        i = stringClose(chunk, i, n);
        if (i >= n) {
          this.escaped = i > n;
          i = n;
          break;
        }
        if (this.capturingKey) this.keyPart(chunk, from, i);
        inString = false;
        i++;
        if (this.capturingKey) this.endKey();
        continue;
      }
      const c = chunk[i] ?? 0;
      if (c === QUOTE) {
        inString = true;
        from = i + 1;
        this.openString();
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (this.depth >= 4) this.depth += 1;
        else this.open(c, i);
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (this.depth > 4) this.depth -= 1;
        else {
          const text = this.close(chunk, i);
          if (text !== undefined) out.push(text);
        }
      } else if (c === COMMA) {
        if (this.depth === 1 || (this.depth === 2 && this.kind2 === 'object')) this.keyExpected = true;
      } else if (!isJsonSpace(c)) {
        this.other();
        if (c !== COLON) i = scalarEnd(chunk, i + 1, n) - 1; // the rest of a scalar asks nothing more
      }
      i++;
    }
    if (inString && this.capturingKey) this.keyPart(chunk, from, n);
    this.inString = inString;
    if (this.capturing) {
      const start = this.entryStart === -1 ? 0 : this.entryStart;
      if (start < n) this.addEntryPart(chunk.subarray(start, n));
      this.entryStart = -1;
    }
    this.offset += n;
    return out;
  }

  /** The input ended: throws when it ended inside the JSON (a file cut short). */
  end(): void {
    if (!this.started) throw trafficInputError(this.opts.file, 'empty file (a HAR is a JSON object with log.entries)');
    if (this.capturing) throw trafficInputError(this.opts.file, 'the file ends inside this entry (cut short?)', this.entryCount);
    if (!this.rootClosed) throw trafficInputError(this.opts.file, 'the file ends before its JSON does (cut short?)');
  }

  private skipPreamble(chunk: Buffer): number {
    let i = 0;
    if (this.offset === 0 && chunk[0] === 0x50 && chunk[1] === 0x4b) {
      throw trafficInputError(this.opts.file, 'a zip archive, not a HAR (Playwright writes .zip HARs: unzip it and pass the .har inside)');
    }
    if (this.offset === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3; // a UTF-8 byte order mark
    while (i < chunk.length && isJsonSpace(chunk[i] ?? 0)) i++;
    if (i < chunk.length) {
      this.started = true;
      if (chunk[i] !== OPEN_OBJECT) throw trafficInputError(this.opts.file, 'not a HAR file (a HAR is a JSON object with log.entries)');
    }
    return i;
  }

  private openString(): void {
    if (this.rootClosed) throw trafficInputError(this.opts.file, 'text after the end of the JSON');
    if (this.inEntries && this.depth === 3) throw trafficInputError(this.opts.file, 'not an object', this.entryCount + 1);
    if (this.keyExpected && (this.depth === 1 || this.depth === 2)) {
      this.capturingKey = true;
      this.keyExpected = false;
      this.keyParts = [];
      this.keyBytes = 0;
    }
  }

  private keyPart(chunk: Buffer, from: number, to: number): void {
    if (this.keyBytes > MAX_KEY_BYTES) return;
    const part = chunk.subarray(from, Math.min(to, from + MAX_KEY_BYTES + 1));
    this.keyParts.push(part);
    this.keyBytes += part.length;
  }

  private endKey(): void {
    this.capturingKey = false;
    let key = '';
    if (this.keyBytes <= MAX_KEY_BYTES) {
      try {
        key = String(JSON.parse(`"${Buffer.concat(this.keyParts).toString('utf8')}"`));
      } catch {
        key = ''; // a malformed name is not `log` or `entries`
      }
    }
    this.keyParts = [];
    if (this.depth === 1) {
      this.rootKey = key;
      if (this.rootKeys.length < MAX_ROOT_KEYS) this.rootKeys.push(key);
    } else this.logKey = key;
  }

  private open(c: number, i: number): void {
    if (this.rootClosed) throw trafficInputError(this.opts.file, 'text after the end of the JSON');
    const object = c === OPEN_OBJECT;
    switch (this.depth) {
      case 0:
        this.keyExpected = true;
        break;
      case 1:
        this.kind2 = object ? 'object' : 'array';
        this.keyExpected = object;
        this.inLog = object && this.rootKey === 'log';
        if (this.rootKey === 'log' && !object) throw trafficInputError(this.opts.file, 'not a HAR file (log is not an object)');
        break;
      case 2:
        if (this.inLog && this.logKey === 'entries') {
          if (object) throw trafficInputError(this.opts.file, 'log.entries is not a list');
          this.inEntries = true;
          this.sawEntries = true;
        }
        break;
      case 3:
        if (this.inEntries) {
          this.entryCount += 1;
          if (!object) throw trafficInputError(this.opts.file, 'not an object', this.entryCount);
          this.capturing = true;
          this.entryStart = i;
          this.entryParts = [];
          this.entryBytes = 0;
        }
        break;
      default:
        break;
    }
    this.depth += 1;
  }

  /** Closes a container; returns an entry's text when that container was one. */
  private close(chunk: Buffer, i: number): string | undefined {
    if (this.depth === 0) throw trafficInputError(this.opts.file, 'malformed JSON (a bracket closes nothing)');
    this.depth -= 1;
    switch (this.depth) {
      case 3:
        return this.inEntries ? this.endEntry(chunk, i) : undefined;
      case 2:
        this.inEntries = false;
        return undefined;
      case 1:
        this.inLog = false;
        this.kind2 = undefined;
        return undefined;
      case 0:
        this.rootClosed = true;
        return undefined;
      default:
        return undefined;
    }
  }

  private endEntry(chunk: Buffer, i: number): string {
    const from = this.entryStart === -1 ? 0 : this.entryStart;
    this.addEntryPart(chunk.subarray(from, i + 1));
    const parts = this.entryParts;
    this.capturing = false;
    this.entryStart = -1;
    this.entryParts = [];
    const only = parts.length === 1 ? parts[0] : undefined;
    const bytes = only ?? Buffer.concat(parts);
    // ASCII reads the same in latin1, which decodes several times faster than UTF-8.
    return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  }

  private addEntryPart(part: Buffer): void {
    this.entryBytes += part.length;
    if (this.entryBytes > this.opts.maxEntryBytes) {
      throw trafficInputError(this.opts.file, `longer than ${this.opts.maxEntryBytes} bytes, the most one entry may hold (maxEntryBytes)`, this.entryCount);
    }
    this.entryParts.push(part);
  }

  /** A byte outside strings that is neither a bracket nor a separator: a number, true, false, null, `:`. */
  private other(): void {
    if (this.rootClosed) throw trafficInputError(this.opts.file, 'text after the end of the JSON');
    if (this.inEntries && this.depth === 3) throw trafficInputError(this.opts.file, 'not an object', this.entryCount + 1);
  }
}
