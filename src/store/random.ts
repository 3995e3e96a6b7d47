/**
 * Seeded randomness for everything the simulator invents (ids, names, salts, adversity).
 * sfc32 seeded through splitmix32: fast, good enough statistically, and identical on every machine.
 */

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** A UUID-v4-shaped id. */
  uuid(): string;
  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string;
  pick<T>(items: readonly T[]): T;
  /** The generator's position, so a snapshot can resume the same sequence (admin snapshot/restore). */
  save(): RandomState;
  /** Resume from a saved position. */
  load(state: RandomState): void;
}

/** The four 32-bit words of sfc32. */
export type RandomState = readonly [number, number, number, number];

export function isRandomState(value: unknown): value is RandomState {
  return Array.isArray(value) && value.length === 4 && value.every((v) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff);
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Strings are built in this buffer and read out once, flat: concatenated strings would be trees of fragments. */
const SCRATCH = Buffer.alloc(64);
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const VARIANTS = Buffer.from('89ab', 'latin1');
const DASH = 45;

/** Write `count` hex digits of `word` (8 digits, most significant first), from digit `from`, at `at`. */
function nibbles(word: number, from: number, at: number, count: number): void {
  for (let i = 0; i < count; i++) SCRATCH[at + i] = HEX_DIGITS[(word >>> (28 - 4 * (from + i))) & 15] ?? 48;
}

export function createRandom(seed: number): Random {
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const u32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) u32();
  const random: Random = {
    next: () => u32() / 4294967296,
    int: (n) => Math.floor((u32() / 4294967296) * n),
    hex: (bytes) => {
      const n = Math.min(bytes, SCRATCH.length / 2);
      for (let i = 0; i < n; i++) {
        const v = u32() & 0xff;
        SCRATCH[2 * i] = HEX_DIGITS[v >>> 4] ?? 48;
        SCRATCH[2 * i + 1] = HEX_DIGITS[v & 15] ?? 48;
      }
      return SCRATCH.toString('latin1', 0, 2 * n);
    },
    uuid: () => {
      // Four 32-bit draws laid out as 8-4-4-4-12 hex digits with the version and variant nibbles set,
      // written into a byte buffer so the id is one flat string (a million of them stay small).
      const a = u32();
      const b = u32();
      const c = u32();
      const d = u32();
      const variant = u32() & 3;
      nibbles(a, 0, 0, 8);
      SCRATCH[8] = DASH;
      nibbles(b, 0, 9, 4);
      SCRATCH[13] = DASH;
      SCRATCH[14] = 52; // '4'
      nibbles(b, 5, 15, 3);
      SCRATCH[18] = DASH;
      SCRATCH[19] = VARIANTS[variant] ?? 56;
      nibbles(c, 1, 20, 3);
      SCRATCH[23] = DASH;
      nibbles(c, 4, 24, 4);
      nibbles(d, 0, 28, 8);
      return SCRATCH.toString('latin1', 0, 36);
    },
    pick: <T>(items: readonly T[]): T => {
      const item = items[random.int(items.length)];
      if (item === undefined) throw new RangeError('pick from an empty list');
      return item;
    },
    save: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0],
    load: (state) => {
      [a, b, c, d] = state;
    },
  };
  return random;
}

/** Derive a sub-seed from a seed and a label, so each collection's data is independent of access order. */
export function deriveSeed(seed: number, label: string): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
