/**
 * Ground truth: when the upstream is the simulator, the judge knows every record. For each walk it
 * counts, per record of the walked set, how often the client was sent it, and at the walk's end sets
 * that against the records that were visible throughout, minus those the document excuses: created
 * during the walk, deleted, changed out of the filter, or inside the consistency window (§4.3).
 *
 * A record not received is `never` when the walk passed it (it lies before the furthest record the
 * walk received, in the walk's order, or the walk read to its end) and `unread` when the client stopped
 * before reaching it, or began past it (a page 3 read first): stopping is the client's choice, skipping
 * is a loss. A record received again is a
 * repeat, except at the boundary of a ge step (the records equal to the value carried, met again by design).
 */
import { compileClause, parseFilter } from '../../engine/filter.js';
import type { Exchange } from '../../port.js';
import { asList, recordAttr, recordId, sameValue } from '../../rules/inspect.js';
import { DEFAULT_CLIENT_ID, type Simulator } from '../../sim/simulator.js';
import { iso } from '../../store/clock.js';
import { recordOrder } from '../../store/sim-record.js';
import { listResources } from '../../store/resources.js';
import type { SimRecord } from '../../store/sim-record.js';
import type { TrafficEntry } from '../entry.js';
import type { ListRead } from './pages.js';

export interface WalkTruth {
  /** Records of the walked set visible from the walk's start to its end. */
  readonly visible: number;
  readonly once: number;
  /** Received more than once (ge boundaries aside). */
  readonly twice: number;
  /** Visible records the walk passed without receiving them: lost. */
  readonly never: number;
  /** Visible records past the point where the client stopped: not read, by its choice. */
  readonly unread: number;
  /** Records left out of the count because the document excuses them (created or deleted during the walk, inside the window). */
  readonly excused: number;
  /** A few ids of each kind, for the report. */
  readonly neverIds: readonly string[];
  readonly repeatedIds: readonly string[];
  /** One line: `accounts by created_at: 4,321 visible, 4,172 received once, 149 never (...)`. */
  readonly summary: string;
}

export interface GroundTruth {
  startWalk(read: ListRead, entry: TrafficEntry): WalkTracker;
  /** The simulator's clock now: a proxy or observed target stamps each request with it as it arrives (`TrafficEntry.simClock`). */
  clock(): number;
}

/** How a walk ended, as ground truth needs it. */
export interface WalkEnd {
  /** The walk's first finding about the client, to say where records were lost. */
  readonly cause?: string;
  /** The order the walk met records in: by the attribute it stepped on (ascending), else its first read's sort; none: the server's own order. */
  readonly order?: { readonly field: string; readonly direction: 'asc' | 'desc' };
  /** Its last page was short: the walk read to the end of its set. */
  readonly reachedEnd: boolean;
}

export interface WalkTracker {
  /** `again`: the very read of the walk's last page once more (a retry): none of its records is a repeat. */
  page(ex: Exchange, read: ListRead, entry: TrafficEntry, again?: boolean): void;
  /** Records this walk's client read of the same run by another query (eq on the walk's timestamp): counted once, if new. */
  also(ex: Exchange): void;
  finish(end: WalkEnd): WalkTruth | undefined;
}

const NO_TRACKER: WalkTracker = { page: () => undefined, also: () => undefined, finish: () => undefined };

const fmt = (n: number): string => n.toLocaleString('en-US');

/**
 * The records a walk should have met, from the simulator's own store: those matching the walk's filter
 * (its cursor at the start, if it began with one) and visible both when the walk began and when it ended.
 */
export function simulatorTruth(sim: Simulator, clientId: string = DEFAULT_CLIENT_ID): GroundTruth {
  const ordinals = new Ordinals();
  const now = () => sim.project(clientId).clock.now();
  return {
    clock: now,
    startWalk(first, entry) {
      const resource = listResources.find((r) => r.paths.some((p) => p.replace(/\/$/, '') === first.path));
      if (resource === undefined) return NO_TRACKER;
      const clauses = first.cursor === undefined ? first.base : [...first.base, { op: first.cursor.op, field: first.cursor.field, values: [first.cursor.value] }];
      const text = clauses.map((c) => `${c.op}(${c.field},${c.values.join(',')})`).join(':');
      const parsed = text === '' ? { ok: true as const, value: [] } : parseFilter(text, resource.filter);
      if (!parsed.ok) return NO_TRACKER;
      const tests = parsed.value.map((c) => ({ field: c.field, test: compileClause(c, resource.filter) }));
      /** The records that match and are visible now (or at `at`), marked in `into` by ordinal; `each` sees them. */
      /** `at`: the moment asked about (the simulator's clock; default now). */
      const matching = (into: Marks | undefined, each?: (r: SimRecord, k: number) => void, at?: number): number => {
        const project = sim.project(clientId);
        const visible = project.visibility(at);
        let n = 0;
        for (const r of project.list(resource).values()) {
          if ((visible !== undefined && !visible(r)) || (at !== undefined && r.createdMs > at)) continue;
          if (tests.every((t) => t.test(valueOf(r, t.field)))) {
            const k = ordinals.of(resource.name, r.id);
            into?.set(k);
            each?.(r, k);
            n++;
          }
        }
        return n;
      };
      // As of the moment the first page was asked for: what the simulator created after it (between reads) was not there.
      const startedAt = entry.simClock ?? now();
      const atStart = new Marks();
      const startCount = matching(atStart, undefined, startedAt);
      let lastPageAt = startedAt;
      // One byte per record: 0 never, 1 once, 2 more than once (saturating). Bounded by the collection, not the traffic.
      const received = new Marks();
      // The nearest and furthest records received in each order the walk may turn out to have (known only at its end).
      const nearest = new Map<string, SimRecord>();
      const furthest = new Map<string, SimRecord>();
      const orders = [...ORDERS, ...(first.sort === undefined ? [] : [first.sort])].map((o) => ({ key: orderKey(o), compare: orderOf(sim, o) }));
      const unsorted = { key: orderKey(undefined), compare: orderOf(sim, undefined) };
      orders.push(unsorted);
      const receive = (id: string, onlyIfNew: boolean) => {
        const k = ordinals.known(resource.name, id);
        if (k === undefined) return;
        const n = received.get(k);
        if (onlyIfNew && n > 0) return;
        received.put(k, Math.min(2, n + 1));
        const r = sim.project(clientId).list(resource).get(id);
        if (r === undefined) return;
        for (const o of orders) {
          const f = furthest.get(o.key);
          if (f === undefined || o.compare(r, f) > 0) furthest.set(o.key, r);
          const e = nearest.get(o.key);
          if (e === undefined || o.compare(r, e) < 0) nearest.set(o.key, r);
        }
      };
      return {
        page(ex, read, entry, again = false) {
          lastPageAt = entry.simClock ?? now();
          const cursor = read.cursor;
          for (const r of asList(ex.json)?.data ?? []) {
            const id = recordId(r);
            if (id === undefined) continue;
            const k = ordinals.known(resource.name, id);
            // A ge step meets the records equal to the value it carries again, by design, and a read sent again meets its page again: not repeats.
            const boundary = cursor?.op === 'ge' && k !== undefined && received.get(k) > 0 && sameValue(cursor.field, recordAttr(r, cursor.field) ?? '', cursor.value);
            receive(id, boundary || again);
          }
        },
        also(ex) {
          for (const r of asList(ex.json)?.data ?? []) {
            const id = recordId(r);
            if (id !== undefined) receive(id, true);
          }
        },
        finish(end) {
          const order = orderOf(sim, end.order);
          const far = furthest.get(orderKey(end.order));
          const near = nearest.get(orderKey(end.order));
          // A walk from the start of its set passed what lies before its nearest record; one that began further on (a UI's page 3) did not.
          const fromStart = first.offset === 0;
          // By updated_at, a record updated after the walk's last page moved where the walk no longer was: excused.
          const movedAfter = (r: SimRecord) => end.order?.field === 'updated_at' && r.updatedMs > lastPageAt;
          let throughout = 0;
          let once = 0;
          let twice = 0;
          let never = 0;
          let unread = 0;
          let moved = 0;
          const neverIds: string[] = [];
          const repeatedIds: string[] = [];
          // One pass over the records visible now, each classified as it comes: no list of them is kept.
          const endCount = matching(undefined, (r, k) => {
            if (atStart.get(k) === 0) return;
            throughout++;
            const n = received.get(k);
            if (n === 1) once++;
            else if (n >= 2) {
              twice++;
              keepLowest(repeatedIds, r.id);
            } else if (movedAfter(r)) moved++;
            else if (near !== undefined && !fromStart && order(r, near) < 0) unread++;
            else if (end.reachedEnd || (far !== undefined && order(r, far) < 0)) {
              never++;
              keepLowest(neverIds, r.id);
            } else unread++;
          });
          const visible = throughout - moved;
          const excused = startCount + endCount - 2 * throughout + moved;
          const parts = [`${fmt(visible)} visible`, `${fmt(once)} received once`];
          if (twice > 0) parts.push(`${fmt(twice)} more than once`);
          if (never > 0) parts.push(`${fmt(never)} never`);
          if (unread > 0) parts.push(`${fmt(unread)} not read (the client stopped before them)`);
          if (excused > 0) parts.push(`${fmt(excused)} excused (created, deleted or changed during the walk, or inside the consistency window)`);
          const why = end.cause === undefined || (never === 0 && twice === 0) ? '' : ` (${end.cause})`;
          return { visible, once, twice, never, unread, excused, neverIds, repeatedIds, summary: `${resource.name}: ${parts.join(', ')}${why}` };
        },
      };
    },
  };
}

/** The orders a walk may turn out to have walked in, besides its first read's sort: by the attribute it stepped on. */
const ORDERS: readonly NonNullable<WalkEnd['order']>[] = [
  { field: 'id', direction: 'asc' },
  { field: 'created_at', direction: 'asc' },
  { field: 'updated_at', direction: 'asc' },
];

const orderKey = (by: WalkEnd['order']): string => (by === undefined ? '' : `${by.field} ${by.direction}`);

/** The order a walk met records in (ties by id as the simulator orders them), or the simulator's order without a sort. */
function orderOf(sim: Simulator, by: WalkEnd['order']): (a: SimRecord, b: SimRecord) => number {
  const ties = sim.readings['order.ties'] === 'id-desc' ? 'desc' : 'asc';
  if (by !== undefined) return recordOrder(by.field, by.direction, ties);
  const unsorted = sim.readings['order.unsorted'];
  return unsorted === 'id' ? recordOrder('id', 'asc', ties) : recordOrder('created_at', unsorted === 'newest' ? 'desc' : 'asc', ties);
}

/** A number per record ordinal, one byte each, growing as ordinals do. */
class Marks {
  private bytes = new Uint8Array(1024);
  get(k: number): number {
    return k < this.bytes.length ? (this.bytes[k] ?? 0) : 0;
  }
  set(k: number): void {
    this.put(k, 1);
  }
  put(k: number, v: number): void {
    if (k >= this.bytes.length) {
      const grown = new Uint8Array(Math.max(k + 1, this.bytes.length * 2));
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[k] = v;
  }
}

/** Each record of each collection numbered once, for every walk to share: per-walk state is then bytes, not strings. */
class Ordinals {
  private readonly byCollection = new Map<string, { readonly byId: Map<string, number>; readonly ids: string[] }>();
  private table(collection: string) {
    let t = this.byCollection.get(collection);
    if (t === undefined) this.byCollection.set(collection, (t = { byId: new Map(), ids: [] }));
    return t;
  }
  of(collection: string, id: string): number {
    const t = this.table(collection);
    let k = t.byId.get(id);
    if (k === undefined) {
      k = t.ids.length;
      t.byId.set(id, k);
      t.ids.push(id);
    }
    return k;
  }
  known(collection: string, id: string): number | undefined {
    return this.table(collection).byId.get(id);
  }
}

/** Examples a walk's truth names: the lowest ids, whatever order the pass met the records in (the store promises none). */
const EXAMPLES = 5;

/** `id` kept in `lowest` (ascending, at most EXAMPLES) if it is among the lowest seen so far. */
export function keepLowest(lowest: string[], id: string): void {
  // Ids in the store's order (code units), the order `sort=id` reads them in.
  if (lowest.length === EXAMPLES && id >= (lowest[EXAMPLES - 1] ?? id)) return;
  let i = lowest.length;
  while (i > 0 && id < (lowest[i - 1] ?? id)) i--;
  lowest.splice(i, 0, id);
  if (lowest.length > EXAMPLES) lowest.pop();
}

function valueOf(r: SimRecord, field: string): string | null | undefined {
  if (field === 'id') return r.id;
  if (field === 'created_at') return iso(r.createdMs);
  if (field === 'updated_at') return iso(r.updatedMs);
  return r.attrs[field];
}
