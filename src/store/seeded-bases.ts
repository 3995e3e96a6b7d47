/**
 * The seeded records of one dataset, generated once and shared read-only by every project that starts
 * from it: a new client id costs its own writes, not a copy of the seed (copy-on-write, collection.ts).
 */
import { Collection, type Ties } from './collection.js';
import { countFor, generateRecords, generateSteps, type DatasetOptions } from './datasets.js';
import { indexedFields, type ResourceDef } from './resources.js';
import type { Steps } from './steps.js';

const keyOf = (d: DatasetOptions): string => JSON.stringify([d.seed, d.profile, d.burst, Object.entries(d.counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);

export class SeededBases {
  private key = '';
  private readonly lists = new Map<string, Collection>();

  /** `ties`: how records sharing a sort value are ordered in every base (the reading `order.ties`). */
  constructor(private readonly ties: Ties = 'asc') {}

  /** The shared base of a list resource for this dataset; a different dataset replaces the old one. */
  list(resource: ResourceDef, dataset: DatasetOptions): Collection {
    this.use(dataset);
    let base = this.lists.get(resource.name);
    if (base === undefined) {
      base = new Collection(resource.filter, undefined, this.ties);
      base.load(generateRecords(resource, dataset));
      this.lists.set(resource.name, base);
    }
    return base;
  }

  /** Whether these bases are built for this dataset (or are empty, ready to be). */
  holds(dataset: DatasetOptions): boolean {
    return this.key === keyOf(dataset);
  }

  /**
   * Every base of the dataset generated and every index a read may use built, as steps: what would
   * otherwise happen on the first reads (seconds at a million records) happens before any read.
   */
  *warmSteps(resources: readonly ResourceDef[], dataset: DatasetOptions): Steps<number> {
    this.use(dataset);
    let records = 0;
    for (const resource of resources) {
      let base = this.lists.get(resource.name);
      if (base === undefined) {
        const created = new Collection(resource.filter, undefined, this.ties);
        yield* created.loadSteps(yield* generateSteps(resource, dataset));
        this.lists.set(resource.name, created);
        base = created;
      }
      yield* base.warmSteps(indexedFields(resource));
      records += countFor(resource, dataset);
    }
    return records;
  }

  private use(dataset: DatasetOptions): void {
    const key = keyOf(dataset);
    if (key === this.key) return;
    this.lists.clear();
    this.key = key;
  }
}
