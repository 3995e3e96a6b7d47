/**
 * commerce-sim as a library: the simulator (in-process or over HTTP), the targets, the readings of the
 * document: what a test file that starts a simulator needs, and nothing it does not (issue 35: its cold
 * start). The rule catalogue and its judging path are `commerce-sim/rules`, the scenario runner
 * `commerce-sim/scenarios`, the property suites `commerce-sim/properties`, the reporters
 * `commerce-sim/report`, the reference client `commerce-sim/client` (each loaded only by who asks).
 */
export { startSimulator, SimulatorOptionError, SimulatorAdminError, type StartSimulatorOptions, type StartedSimulator } from './kit/start-simulator.js';
export { KitError, CodedKitError, isKitError, ERROR_CODES, type KitErrorCode, type KitErrorOptions } from './kit-errors.js';
export { Simulator, DEFAULT_SEED, DEFAULT_CLIENT_ID, type SimulatorOptions, type SeededIds, type Arrival } from './sim/simulator.js';
export type { PreparedData } from './sim/admin-port.js';
export type { BodyParts } from './sim/body-parts.js';
export type { Steps } from './store/steps.js';
export type { RecordBudget, RecordTally } from './store/record-budget.js';
export { SimulatorPortInUseError } from './sim/listen-error.js';
export { listen, createSimServer, type RunningServer, type Lifecycle, type RequestLog, type ServerOptions } from './sim/server.js';
export { Journal, type JournalEntry, type JournalFault, type JournalFilter, type KeptEntry, type Outcome as JournalOutcome, type Delivery as JournalDelivery } from './sim/journal.js';
export type { Snapshot, DatasetView, ProjectSnapshot } from './sim/snapshot.js';
export type { Scope } from './sim/tokens.js';
export type { Project, ProjectOptions, ProjectState, Settings, Adversity, Fault, RateWindow, SeededAuth, ListDelta, StoredRecord, Fullness } from './store/project.js';
export type { DatasetProfile, DatasetOptions } from './store/datasets.js';
export type { DatasetFields } from './store/dataset-spec.js';
export type { Deviations } from './engine/deviations.js';
export type { SimRecord } from './store/sim-record.js';
export type { RandomState, Random } from './store/random.js';
export type { SeededBases } from './store/seeded-bases.js';
export type { Ties } from './store/sim-record.js';
export type { Collection, PageQuery, PageRead, PageResult } from './store/collection.js';
export type { Slicer } from './sim/long-reads.js';
export type { Clock } from './store/clock.js';
export type { ResourceDef, OffsetLimitKind, TimestampPlacement } from './store/resources.js';
export type { Direction, SortSpec } from './engine/sort.js';
export type { ClientRegistry, RegisteredClient } from './sim/clients.js';
export type { Scenario } from './scenarios/format.js';
export type { SimRequest, SimResponse } from './sim/messages.js';
export { createSimTarget, simTargetOf, type SimTargetOptions } from './adapters/simulator.js';
export { createHttpTarget, type HttpTargetOptions } from './adapters/http.js';
export { TargetError, toExchange, type TargetKind, type Target, type TargetRequest, type TargetResponse, type Exchange, type TargetErrorCode } from './port.js';
export type { Rule, RuleBase, Level, Outcome, CheckContext, Family, RuleId } from './rules/rule.js';
export { RULE_IDS, isRuleId } from './rules/ids.js';
// Types only (erased at run time): the report's input names them; the values are commerce-sim/rules'.
export type { Fingerprint, FingerprintOptions, PointObservation } from './rules/fingerprint.js';
export { READING_POINTS, READING_NAMES, DEFAULT_READINGS, readingValues, parseReading, type Readings, type ReadingChoice, type ReadingName, type ReadingValue } from './rules/readings.js';
export type { Result, Problem } from './result.js';
export type { Surface } from './sim/surface.js';
export type {
  RunReport,
  ScenarioResult,
  PropertyResult,
  RuleSummary,
  CaseStatus,
  LevelCounts,
  RuleStatus,
  RunSummary,
  TrafficSection,
  TrafficDeliberate,
  TrafficWalk,
  TrafficNote,
  ReadingPointReport,
} from './report/model.js';
export type { LoadOptions, ScenarioErrorCode, ScenarioProblem } from './scenarios/load.js';
export type { RunOptions, RunProgress } from './scenarios/runner.js';
export type { PropsRunOptions } from './properties/runner.js';
export type { RunReportInput } from './report/build.js';
export { DEVIATION_IDS } from './engine/deviations.js';
