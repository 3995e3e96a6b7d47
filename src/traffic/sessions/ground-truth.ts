/**
 * Ground truth: when the upstream is the simulator, the judge knows every record. For each walk it
 * counts, per record of the walked set, how often the client was sent it, and at the walk's end sets
 * that against the records that were visible throughout, minus those the document excuses: created
 * during the walk, deleted, or inside the consistency window (§4.3).
 */
import { compileClause, parseFilter } from '../../engine/filter.js';
import type { Exchange } from '../../port.js';
import { asList, idsOf, pageMeta } from '../../rules/inspect.js';
import { DEFAULT_CLIENT_ID, type Simulator } from '../../sim/simulator.js';
import { iso } from '../../store/clock.js';
import { listResources } from '../../store/resources.js';
import type { SimRecord } from '../../store/sim-record.js';
import type { TrafficEntry } from '../entry.js';
import type { ListRead } from './walks.js';

export interface WalkTruth {
  /** Records of the walked set visible from the walk's start to its end. */
  readonly visible: number;
  readonly once: number;
  readonly twice: number;
  /** Visible records the client was never sent. */
  readonly never: number;
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
}

export interface WalkTracker {
  page(ex: Exchange, entry: TrafficEntry): void;
  /** Records this walk's client read of the same run by another query (eq on the walk's timestamp): counted once, if new. */
  also(ex: Exchange): void;
  /** `cause`: the walk's first finding about the client, to say where records were lost. */
  finish(cause?: string): WalkTruth | undefined;
}

const NO_TRACKER: WalkTracker = { page: () => undefined, also: () => undefined, finish: () => undefined };

/** Walks too short to say anything: a single full page (a peek such as the newest record), not a traversal. */
const isTraversal = (pages: number, lastShort: boolean): boolean => pages >= 2 || lastShort;

const fmt = (n: number): string => n.toLocaleString('en-US');

/**
 * The records a walk should have met, from the simulator's own store: those matching the walk's
 * filter (its cursor at the start, if it began with one) and visible both when the walk began and when
 * it ended. Records created, deleted, moved out of the filter or hidden by the consistency window in
 * between are excused, as the document excuses them (§4.3).
 */
export function simulatorTruth(sim: Simulator, clientId: string = DEFAULT_CLIENT_ID): GroundTruth {
  const ordinals = new Ordinals();
  return {
    startWalk(read) {
      const resource = listResources.find((r) => r.paths.some((p) => p.replace(/\/$/, '') === read.path));
      if (resource === undefined) return NO_TRACKER;
      const clauses = read.cursor === undefined ? read.base : [...read.base, { op: read.cursor.op, field: read.cursor.field, values: [read.cursor.value] }];
      const text = clauses.map((c) => `${c.op}(${c.field},${c.values.join(',')})`).join(':');
      const parsed = text === '' ? { ok: true as const, value: [] } : parseFilter(text, resource.filter);
      if (!parsed.ok) return NO_TRACKER;
      const tests = parsed.value.map((c) => ({ field: c.field, test: compileClause(c, resource.filter) }));
      /** Marks in `into` (by ordinal) the records that match and are visible now; returns how many. */
      const matching = (into: Marks): number => {
        const project = sim.project(clientId);
        const visible = project.visibility();
        let n = 0;
        for (const r of project.list(resource).values()) {
          if (visible !== undefined && !visible(r)) continue;
          if (tests.every((t) => t.test(valueOf(r, t.field)))) {
            into.set(ordinals.of(resource.name, r.id));
            n++;
          }
        }
        return n;
      };
      const atStart = new Marks();
      const startCount = matching(atStart);
      // One byte per record: 0 never, 1 once, 2 more than once (saturating). Bounded by the collection, not the traffic.
      const received = new Marks();
      let previous = new Set<string>();
      let pages = 0;
      let lastShort = false;
      const receive = (id: string, onlyIfNew: boolean) => {
        const k = ordinals.known(resource.name, id);
        if (k === undefined) return;
        const n = received.get(k);
        if (onlyIfNew && n > 0) return;
        received.put(k, Math.min(2, n + 1));
      };
      return {
        page(ex) {
          pages++;
          const list = asList(ex.json);
          const ids = idsOf(ex.json);
          const limit = pageMeta(ex.json).limit;
          lastShort = list !== undefined && (ids.length === 0 || (limit !== undefined && ids.length < limit));
          // A keyset walk meets the previous page's boundary records again by design (ge): not a repeat.
          for (const id of ids) if (!(read.cursor !== undefined && previous.has(id))) receive(id, false);
          previous = new Set(ids);
        },
        also(ex) {
          for (const id of idsOf(ex.json)) receive(id, true);
        },
        finish(cause) {
          if (!isTraversal(pages, lastShort)) return undefined;
          const atEnd = new Marks();
          const endCount = matching(atEnd);
          let visible = 0;
          let once = 0;
          let twice = 0;
          const neverIds: string[] = [];
          const repeatedIds: string[] = [];
          for (let k = 0; k < atStart.size; k++) {
            if (atStart.get(k) === 0 || atEnd.get(k) === 0) continue;
            visible++;
            const n = received.get(k);
            if (n === 1) once++;
            else if (n >= 2) {
              twice++;
              if (repeatedIds.length < 5) repeatedIds.push(ordinals.id(resource.name, k));
            } else if (neverIds.length < 5) neverIds.push(ordinals.id(resource.name, k));
          }
          const never = visible - once - twice;
          const excused = startCount + endCount - 2 * visible;
          const parts = [`${fmt(visible)} visible`, `${fmt(once)} received once`];
          if (twice > 0) parts.push(`${fmt(twice)} more than once`);
          if (never > 0) parts.push(`${fmt(never)} never`);
          if (excused > 0) parts.push(`${fmt(excused)} excused (created, deleted or changed during the walk, or inside the consistency window)`);
          const why = cause === undefined || (never === 0 && twice === 0) ? '' : ` (${cause})`;
          return { visible, once, twice, never, excused, neverIds, repeatedIds, summary: `${resource.name}: ${parts.join(', ')}${why}` };
        },
      };
    },
  };
}

/** A number per record ordinal, one byte each, growing as ordinals do. */
class Marks {
  private bytes = new Uint8Array(1024);
  size = 0;
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
    if (k >= this.size) this.size = k + 1;
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
  id(collection: string, k: number): string {
    return this.table(collection).ids[k] ?? '';
  }
}

function valueOf(r: SimRecord, field: string): string | null | undefined {
  if (field === 'id') return r.id;
  if (field === 'created_at') return iso(r.createdMs);
  if (field === 'updated_at') return iso(r.updatedMs);
  return r.attrs[field];
}
