/**
 * Ground truth: when the upstream is the simulator, the judge knows every record. For each walk it
 * counts, per record of the walked set, how often the client was sent it, and at the walk's end sets
 * that against the records that were visible throughout, minus those the document excuses: created
 * during the walk, deleted, or inside the consistency window (§4.3).
 */
import { compileClause, parseFilter } from '../engine/filter.js';
import type { Exchange } from '../port.js';
import { asList, idsOf, pageMeta } from '../rules/inspect.js';
import { DEFAULT_CLIENT_ID, type Simulator } from '../sim/simulator.js';
import { iso } from '../store/clock.js';
import { listResources } from '../store/resources.js';
import type { SimRecord } from '../store/sim-record.js';
import type { TrafficEntry } from './entry.js';
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
  return {
    startWalk(read, entry) {
      const resource = listResources.find((r) => r.paths.some((p) => p.replace(/\/$/, '') === read.path));
      if (resource === undefined) return NO_TRACKER;
      const clauses = read.cursor === undefined ? read.base : [...read.base, { op: read.cursor.op, field: read.cursor.field, values: [read.cursor.value] }];
      const text = clauses.map((c) => `${c.op}(${c.field},${c.values.join(',')})`).join(':');
      const parsed = text === '' ? { ok: true as const, value: [] } : parseFilter(text, resource.filter);
      if (!parsed.ok) return NO_TRACKER;
      const tests = parsed.value.map((c) => ({ field: c.field, test: compileClause(c, resource.filter) }));
      const matching = (): Set<string> => {
        const project = sim.project(clientId);
        const visible = project.visibility();
        const out = new Set<string>();
        for (const r of project.list(resource).values()) {
          if (visible !== undefined && !visible(r)) continue;
          if (tests.every((t) => t.test(valueOf(r, t.field)))) out.add(r.id);
        }
        return out;
      };
      const atStart = matching();
      const received = new Map<string, number>();
      let previous = new Set<string>();
      let pages = 0;
      let lastShort = false;
      void entry;
      return {
        page(ex) {
          pages++;
          const list = asList(ex.json);
          const ids = idsOf(ex.json);
          const limit = pageMeta(ex.json).limit;
          lastShort = list !== undefined && (ids.length === 0 || (limit !== undefined && ids.length < limit));
          for (const id of ids) {
            // A keyset walk meets the previous page's boundary records again by design (ge): not a repeat.
            if (read.cursor !== undefined && previous.has(id)) continue;
            received.set(id, (received.get(id) ?? 0) + 1);
          }
          previous = new Set(ids);
        },
        also(ex) {
          for (const id of idsOf(ex.json)) if (!received.has(id)) received.set(id, 1);
        },
        finish(cause) {
          if (!isTraversal(pages, lastShort)) return undefined;
          const atEnd = matching();
          let visible = 0;
          let once = 0;
          let twice = 0;
          const neverIds: string[] = [];
          const repeatedIds: string[] = [];
          for (const id of atStart) {
            if (!atEnd.has(id)) continue;
            visible++;
            const n = received.get(id) ?? 0;
            if (n === 1) once++;
            else if (n >= 2) {
              twice++;
              if (repeatedIds.length < 5) repeatedIds.push(id);
            } else if (neverIds.length < 5) neverIds.push(id);
          }
          const never = visible - once - twice;
          let union = atStart.size;
          for (const id of atEnd) if (!atStart.has(id)) union++;
          const excused = union - visible;
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

function valueOf(r: SimRecord, field: string): string | null | undefined {
  if (field === 'id') return r.id;
  if (field === 'created_at') return iso(r.createdMs);
  if (field === 'updated_at') return iso(r.updatedMs);
  return r.attrs[field];
}
