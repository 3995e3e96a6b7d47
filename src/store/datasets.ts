/**
 * Seeded data for the list collections. Each collection draws from its own sub-seed, so the data of
 * one resource does not depend on which others were generated first.
 */
import { drain, RECORDS_PER_STEP, type Steps } from './steps.js';
import type { SimRecord } from './collection.js';
import { createRandom, deriveSeed, type Random } from './random.js';
import type { ResourceDef } from './resources.js';

/** `default`: distinct creation times. `shared-timestamps`: bursts of records with one timestamp, larger than a page. */
export type DatasetProfile = 'default' | 'shared-timestamps';
export const DATASET_PROFILES: readonly DatasetProfile[] = ['default', 'shared-timestamps'];
/** Most records one collection may be seeded with (CLI, admin API, dataset files, snapshots). */
export const MAX_RECORDS = 2_000_000;

export interface DatasetOptions {
  readonly seed: number;
  readonly profile: DatasetProfile;
  /** Record counts by collection name; unnamed collections use their default count. */
  readonly counts: Readonly<Record<string, number>>;
  /** Size of a shared-timestamp burst (> 100 so that a full page cannot get past it). */
  readonly burst: number;
}

/** Seeded records are created over the year before the virtual clock starts. */
const DATA_START = Date.UTC(2024, 0, 1, 0, 0, 0, 0);
const SPACING_MS = 30_000;

const ADJECTIVES = ['Acme', 'Blue', 'Crimson', 'Delta', 'Echo', 'Fjord', 'Granite', 'Harbor', 'Ivory', 'Juniper', 'Kestrel', 'Lumen', 'Meridian', 'Nimbus', 'Orchid', 'Pioneer'] as const;
const NOUNS = ['Traders', 'Supply', 'Outfitters', 'Goods', 'Partners', 'Labs', 'Works', 'Market', 'Studio', 'Foods', 'Logistics', 'Retail'] as const;

const TEXT = Buffer.alloc(256);

/**
 * Join ASCII parts into one flat string. A template literal would leave a tree of fragments behind
 * each value, which doubles the memory of a million seeded accounts.
 */
function flat(...parts: readonly string[]): string {
  let n = 0;
  for (const part of parts) n += TEXT.write(part, n, 'latin1');
  return TEXT.toString('latin1', 0, n);
}

function name(random: Random, i: number): string {
  return flat(random.pick(ADJECTIVES), ' ', random.pick(NOUNS), ' ', String(i + 1));
}

/** The counts dataset options mean: `accounts`, when given, wins over `counts.accounts`. */
export function datasetCounts(o: { readonly accounts?: number | undefined; readonly counts?: Readonly<Record<string, number>> | undefined }): Readonly<Record<string, number>> {
  return { ...(o.counts ?? {}), ...(o.accounts === undefined ? {} : { accounts: o.accounts }) };
}

export function countFor(resource: ResourceDef, options: DatasetOptions): number {
  return options.counts[resource.name] ?? resource.defaultCount;
}

export function generateRecords(resource: ResourceDef, options: DatasetOptions, label = resource.name): SimRecord[] {
  return drain(generateSteps(resource, options, label));
}

/** The same records as steps, yielding every few thousand (a reseed of a million builds them in slices). */
export function* generateSteps(resource: ResourceDef, options: DatasetOptions, label = resource.name): Steps<SimRecord[]> {
  const random = createRandom(deriveSeed(options.seed, label));
  const count = countFor(resource, options);
  const bursty = options.profile === 'shared-timestamps';
  const records: SimRecord[] = new Array<SimRecord>(count);
  for (let i = 0; i < count; i++) {
    const createdMs = bursty ? DATA_START + Math.floor(i / options.burst) * 60_000 : DATA_START + i * SPACING_MS;
    // Updates land later than creation; in bursts they share the burst's time too.
    const updatedMs = bursty ? createdMs : createdMs + random.int(20) * SPACING_MS;
    records[i] = { id: random.uuid(), createdMs, updatedMs, attrs: attributes(resource, random, i) };
    if ((i & (RECORDS_PER_STEP - 1)) === RECORDS_PER_STEP - 1) yield;
  }
  return records;
}

function attributes(resource: ResourceDef, random: Random, i: number): Record<string, string | null> {
  const n = name(random, i);
  switch (resource.name) {
    case 'accounts':
      return {
        name: n,
        legal_name: flat(n, ' Ltd'),
        registration_id: flat('REG-', String(i + 1).padStart(8, '0')),
        external_ref: flat('ext-', random.hex(4)),
      };
    case 'user-authentication-info':
      return { name: n, email: flat('user', String(i + 1), '@example.com') };
    default:
      return { name: n };
  }
}
