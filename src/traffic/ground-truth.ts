/**
 * Ground truth: when the upstream is the simulator, the judge knows every record. For each walk it
 * counts, per record of the walked set, how often the client was sent it, and at the walk's end sets
 * that against the records that were visible throughout, minus those the document excuses: created
 * during the walk, deleted, or inside the consistency window (§4.3).
 */
import type { Exchange } from '../port.js';
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
  finish(): WalkTruth | undefined;
}
