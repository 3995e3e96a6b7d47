/**
 * The seeded records of one dataset, generated once and shared read-only by every project that starts
 * from it: a new client id costs its own writes, not a copy of the seed (copy-on-write, collection.ts).
 *
 * `list()` is the one way to the seeded records, and it builds a resource's records on first use, at
 * once (no build runs in the background): whatever reads the data first (a request over HTTP or in
 * process, a reset, a snapshot, a restore, a fixture) gets it complete, and no order of those can see a
 * half-built or stale base. A SeededBases belongs to one dataset for life: another dataset gets another
 * SeededBases (Simulator.reconfigure, prepare), so a base is never swapped under a project that holds it.
 */
import { Collection, type Ties } from './collection.js';
import { countFor, generateRecords, generateSteps, type DatasetOptions } from './datasets.js';
import { indexedFields, type ResourceDef } from './resources.js';
import type { Steps } from './steps.js';

const keyOf = (d: DatasetOptions): string => JSON.stringify([d.seed, d.profile, d.burst, Object.entries(d.counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);

export class SeededBases {
  private readonly key: string;
  private readonly lists = new Map<string, Collection>();

  /** `ties`: how records sharing a sort value are ordered in every base (the reading `order.ties`). */
  constructor(
    readonly dataset: DatasetOptions,
    private readonly ties: Ties = 'asc',
  ) {
    this.key = keyOf(dataset);
  }

  /** The shared base of a list resource, its records generated now if nothing asked for them before. */
  list(resource: ResourceDef): Collection {
    let base = this.lists.get(resource.name);
    if (base === undefined) {
      base = new Collection(resource.filter, undefined, this.ties);
      base.load(generateRecords(resource, this.dataset));
      this.lists.set(resource.name, base);
    }
    return base;
  }

  /** Whether these are the bases of this dataset (built or not yet). */
  holds(dataset: DatasetOptions): boolean {
    return this.key === keyOf(dataset);
  }

  /**
   * Every base generated and every index a read may use built, as steps: what would otherwise happen on
   * the first reads (seconds at a million records) happens before any read. A base `list()` built
   * already is only indexed; one built here is the same records `list()` would have made.
   */
  *warmSteps(resources: readonly ResourceDef[]): Steps<number> {
    let records = 0;
    for (const resource of resources) {
      let base = this.lists.get(resource.name);
      if (base === undefined) {
        const created = new Collection(resource.filter, undefined, this.ties);
        yield* created.loadSteps(yield* generateSteps(resource, this.dataset));
        // A list() between these steps may have built it meanwhile: the first one built is kept.
        base = this.lists.get(resource.name) ?? created;
        this.lists.set(resource.name, base);
      }
      yield* base.warmSteps(indexedFields(resource));
      records += countFor(resource, this.dataset);
    }
    return records;
  }
}
