/**
 * What the admin API and snapshots may see and do of the simulator: its dataset options and its
 * projects, nothing of routing, tokens or authentication. The Simulator implements it.
 */
import type { Deviations } from '../engine/deviations.js';
import type { Project } from '../store/project.js';
import type { RecordBudget } from '../store/record-budget.js';
import type { Steps } from '../store/steps.js';
import type { Journal } from './journal.js';
import type { Slicer } from './long-reads.js';
import type { Readings } from '../rules/readings.js';
import type { SeededIds, SimulatorOptions } from './options.js';

export interface AdminPort {
  readonly settings: SimulatorOptions;
  readonly seed: number;
  readonly baseUrl: string;
  readonly defaultClientId: string;
  readonly deviations: Deviations;
  /** What the simulator answers where the document is silent. */
  readonly readings: Readings;
  /** Projects kept at most (`--max-projects`). */
  readonly maxProjects: number;
  /** Records one project may write (`--max-project-records`). */
  readonly maxProjectRecords: number;
  /** The records the whole simulator may hold, and what is taken of it (`--max-records`). */
  readonly budget: RecordBudget;
  readonly evictedProjects: number;
  /** The request journal (GET /__sim/requests), cleared by a reset. */
  readonly journal: Journal;
  seededIds(): SeededIds;
  projectIds(): readonly string[];
  /** A project if it exists, without making it or counting a use. */
  existingProject(clientId: string): Project | undefined;
  /** The project of a client id, made when missing. */
  project(clientId: string): Project;
  /** Replace the dataset options and forget every project; `prepared`: their data, built by `prepare`. */
  reconfigure(options: SimulatorOptions, prepared?: PreparedData): void;
  /**
   * A project made off to the side for `options` (over `prepared`'s seeded data, or the current data), counted
   * by itself: reads see nothing of it until `install`.
   */
  detachedProject(clientId: string, options: SimulatorOptions, prepared?: PreparedData): Project;
  /** `reconfigure`, then these projects (made by `detachedProject` for the same options) in their order, in one go. */
  install(options: SimulatorOptions, prepared: PreparedData | undefined, projects: readonly Project[]): void;
  /** The seeded records of these options built off to the side, as steps; undefined when nothing is to build. */
  prepare(options: SimulatorOptions): PreparedData | undefined;
  /** Runs steps in slices between requests (a served simulator); undefined in process. */
  readonly slicer: Slicer | undefined;
}

/** Seeded data built off to the side (`prepare`): run its steps, then hand it to `reconfigure`. */
export interface PreparedData {
  /** The building, a few thousand records a step; returns how many records it built. */
  readonly steps: Steps<number>;
}
