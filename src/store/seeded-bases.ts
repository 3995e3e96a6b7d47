/**
 * The seeded records of one dataset, generated once and shared read-only by every project that starts
 * from it: a new client id costs its own writes, not a copy of the seed (copy-on-write, collection.ts).
 */
import { Collection, type Ties } from './collection.js';
import { generateRecords, type DatasetOptions } from './datasets.js';
import type { ResourceDef } from './resources.js';

const keyOf = (d: DatasetOptions): string => JSON.stringify([d.seed, d.profile, d.burst, Object.entries(d.counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);

export class SeededBases {
  private key = '';
  private readonly lists = new Map<string, Collection>();

  /** `ties`: how records sharing a sort value are ordered in every base (the reading `order.ties`). */
  constructor(private readonly ties: Ties = 'asc') {}

  /** The shared base of a list resource for this dataset; a different dataset replaces the old one. */
  list(resource: ResourceDef, dataset: DatasetOptions): Collection {
    const key = keyOf(dataset);
    if (key !== this.key) {
      this.lists.clear();
      this.key = key;
    }
    let base = this.lists.get(resource.name);
    if (base === undefined) {
      base = new Collection(resource.filter, undefined, this.ties);
      base.load(generateRecords(resource, dataset));
      this.lists.set(resource.name, base);
    }
    return base;
  }
}
