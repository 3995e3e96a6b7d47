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

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

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
  const byte = (): string => HEX[u32() & 0xff] ?? '00';
  const random: Random = {
    next: () => u32() / 4294967296,
    int: (n) => Math.floor((u32() / 4294967296) * n),
    hex: (bytes) => {
      let out = '';
      for (let i = 0; i < bytes; i++) out += byte();
      return out;
    },
    uuid: () => {
      // Four 32-bit draws, hex-formatted, version and variant nibbles set: cheap enough for a million ids.
      const a = u32().toString(16).padStart(8, '0');
      const b = u32().toString(16).padStart(8, '0');
      const c = u32().toString(16).padStart(8, '0');
      const d = u32().toString(16).padStart(8, '0');
      const variant = '89ab'[u32() & 3] ?? '8';
      return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4, 8)}${d}`;
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
