/**
 * A HAR 1.2 file written as traffic comes: `openHarWriter(file, { creator })`, then `write(entry)` per
 * exchange and `close()`. Every entry is redacted first (har-redact.ts); secrets learned from one entry
 * (a token response's token) are taken out of later ones too. The file is valid JSON after every write,
 * not only after close: each entry is written over the closing brackets, which follow it again, so a
 * proxy stopped without closing leaves a HAR that reads. The file is its owner's alone (mode 0600):
 * traffic holds customer data even with the secrets out. Writes are queued, never interleaved.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import type { TrafficEntry } from '../entry.js';
import { harEntryOf, harFrame, type HarCreator } from './format.js';
import { redactEntry } from './redact.js';

export interface HarWriterOptions {
  readonly creator: HarCreator;
  /** Literal secrets (a client secret, a token) removed wherever they appear, also escaped or URL-encoded. */
  readonly secrets?: readonly string[];
  /** The instant an entry without `startedAt` is stamped with (default: the wall clock when written). */
  readonly now?: () => Date;
}

export interface HarWriter {
  /** Redacts and appends one entry; resolves once it is in the file. */
  write(entry: TrafficEntry): Promise<void>;
  /** Waits for the queued writes and closes the file. */
  close(): Promise<void>;
  /** Entries written so far. */
  readonly count: number;
}

/** Secrets learned from earlier entries that are still hunted in later ones (the most recent). */
const MAX_LEARNED = 64;

export async function openHarWriter(file: string, options: HarWriterOptions): Promise<HarWriter> {
  const { head, tail } = harFrame(options.creator);
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.write(`${head}${tail}`, 0, 'utf8');
  } catch (error) {
    await handle.close();
    throw error;
  }
  return new Writer(handle, Buffer.byteLength(head, 'utf8'), tail, options);
}

class Writer implements HarWriter {
  count = 0;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly learned: string[] = [];
  /** Keyed by a random key of this file's own: the same credential gets the same mark, and no mark can be reversed. */
  private readonly key = randomBytes(32);
  private readonly fingerprint = (credential: string): string => createHmac('sha256', this.key).update(credential).digest('hex').slice(0, 8);

  constructor(
    private readonly handle: FileHandle,
    /** Where the closing brackets start: the next entry is written there. */
    private position: number,
    private readonly tail: string,
    private readonly options: HarWriterOptions,
  ) {}

  write(entry: TrafficEntry): Promise<void> {
    if (this.closed) return Promise.reject(new Error('HAR writer: write after close'));
    const next = this.queue.then(() => this.append(entry));
    // A failed write fails its caller; the queue goes on for the next.
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.handle.close();
  }

  private async append(entry: TrafficEntry): Promise<void> {
    const { entry: clean, learned } = redactEntry(entry, [...(this.options.secrets ?? []), ...this.learned], this.fingerprint);
    this.learn(learned);
    const startedAt = (this.options.now?.() ?? new Date()).toISOString();
    const text = `${this.count === 0 ? '\n' : ',\n'}${JSON.stringify(harEntryOf(clean, startedAt))}`;
    const bytes = Buffer.from(`${text}${this.tail}`, 'utf8');
    await this.handle.write(bytes, 0, bytes.length, this.position);
    this.position += bytes.length - Buffer.byteLength(this.tail, 'utf8');
    this.count += 1;
  }

  private learn(found: readonly string[]): void {
    for (const secret of found) {
      const at = this.learned.indexOf(secret);
      if (at !== -1) this.learned.splice(at, 1);
      this.learned.push(secret);
    }
    if (this.learned.length > MAX_LEARNED) this.learned.splice(0, this.learned.length - MAX_LEARNED);
  }
}
