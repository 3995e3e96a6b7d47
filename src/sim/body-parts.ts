/**
 * A served list page's body as parts: a head, each record's cached UTF-8 bytes separated by commas, a
 * tail. The items are taken when the page is read (a later write must not show in it); what is never built
 * is the page as one string or one fresh buffer: the HTTP adapter copies the parts into a buffer it reuses
 * once the answer is handed to the socket.
 */
export interface BodyParts {
  readonly head: string;
  readonly items: readonly Buffer[];
  readonly tail: string;
  /** Bytes of the whole body. */
  readonly size: number;
}

const COMMA = 0x2c;

export function bodyParts(head: string, items: readonly Buffer[], tail: string): BodyParts {
  let size = Buffer.byteLength(head, 'utf8') + Buffer.byteLength(tail, 'utf8') + Math.max(0, items.length - 1);
  for (let i = 0; i < items.length; i++) size += (items[i] as Buffer).length;
  return { head, items, tail, size };
}

/** The body copied into `out` (at least `parts.size` long); returns the bytes written. */
export function writeParts(parts: BodyParts, out: Buffer): number {
  let at = out.write(parts.head, 0, 'utf8');
  const { items } = parts;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out[at++] = COMMA;
    // TypedArray set, not Buffer.copy: copy makes a view of its source per call, garbage at this rate.
    const item = items[i] as Buffer;
    out.set(item, at);
    at += item.length;
  }
  return at + out.write(parts.tail, at, 'utf8');
}

/** The body as text (only a reading that reshapes a served page asks). */
export function partsText(parts: BodyParts): string {
  const out = Buffer.allocUnsafe(parts.size);
  return out.toString('utf8', 0, writeParts(parts, out));
}

/**
 * Buffers for answers in flight to sockets: taken to assemble an answer, given back once node has handed
 * it to the socket ('finish'), so steady traffic allocates nothing. Only buffers of the common size are
 * kept, and at most `keep` of them.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];

  constructor(
    private readonly size = 64 * 1024,
    private readonly keep = 256,
  ) {}

  take(bytes: number): Buffer {
    if (bytes > this.size) return Buffer.allocUnsafe(bytes);
    return this.free.pop() ?? Buffer.allocUnsafe(this.size);
  }

  give(buffer: Buffer): void {
    if (buffer.length === this.size && this.free.length < this.keep) this.free.push(buffer);
  }
}
