/**
 * Maps and sets keyed by record ids that never rehash more than a few thousand entries at once. A
 * JavaScript Map or Set rehashes every entry when it grows: at half a million ids one insert held the
 * event loop 210-230 ms on a loaded machine (a restore or a reseed built in slices stalled on it). Past
 * SPLIT_AT entries these split into 256 shards by a few characters of the id, and a shard grows a 256th
 * of the whole at a time; below it they are one Map, so the many small collections of projects cost what
 * a Map costs. Iteration goes shard by shard: callers that need an order sort what they read.
 */

const SHARD_BITS = 8;
export const SHARDS = 1 << SHARD_BITS;
/** Entries one Map holds before the split: rehashing this many is a fraction of a millisecond. */
const SPLIT_AT = 8192;

/** The shard of an id: its length and its last six characters (where ids of every shape differ), mixed (murmur3's finaliser), top bits. */
export function shardOf(id: string): number {
  const n = id.length;
  let h = n;
  for (let i = Math.max(0, n - 6); i < n; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> (32 - SHARD_BITS);
}

/** A Map from id to value: one Map while small, shards once large. */
export class IdMap<V> {
  private shards: Map<string, V>[] = [new Map<string, V>()];
  private count = 0;

  get size(): number {
    return this.count;
  }

  private shard(id: string): Map<string, V> {
    return (this.shards.length === 1 ? this.shards[0] : this.shards[shardOf(id)]) as Map<string, V>;
  }

  get(id: string): V | undefined {
    return this.shard(id).get(id);
  }

  has(id: string): boolean {
    return this.shard(id).has(id);
  }

  set(id: string, value: V): void {
    const shard = this.shard(id);
    const before = shard.size;
    shard.set(id, value);
    this.count += shard.size - before;
    if (this.shards.length === 1 && this.count > SPLIT_AT) this.split();
  }

  delete(id: string): boolean {
    const gone = this.shard(id).delete(id);
    if (gone) this.count--;
    return gone;
  }

  keys(): IterableIterator<string> {
    return this.shards.length === 1 ? (this.shards[0] as Map<string, V>).keys() : this.each((shard) => shard.keys());
  }

  values(): IterableIterator<V> {
    return this.shards.length === 1 ? (this.shards[0] as Map<string, V>).values() : this.each((shard) => shard.values());
  }

  private *each<T>(of: (shard: Map<string, V>) => IterableIterator<T>): IterableIterator<T> {
    for (const shard of this.shards) yield* of(shard);
  }

  private split(): void {
    const one = this.shards[0] as Map<string, V>;
    this.shards = Array.from({ length: SHARDS }, () => new Map<string, V>());
    for (const [id, value] of one) (this.shards[shardOf(id)] as Map<string, V>).set(id, value);
  }
}

/** A Set of ids, the same way. */
export class IdSet {
  private readonly map = new IdMap<true>();

  get size(): number {
    return this.map.size;
  }

  has(id: string): boolean {
    return this.map.has(id);
  }

  add(id: string): void {
    this.map.set(id, true);
  }

  values(): IterableIterator<string> {
    return this.map.keys();
  }
}
