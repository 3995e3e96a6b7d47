/**
 * The report model: what a run of scenarios and/or properties produced. Runners build it,
 * reporters are pure functions from it to text, only the CLI writes files.
 * Everything outside `timing` is deterministic for the same seed and target.
 */
import type { Level, Outcome, RuleId } from '../rules/rule.js';

/** A request/response pair as it may appear in a report: secrets redacted, body cut to an excerpt. */
export interface ExchangeExcerpt {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody?: string;
  readonly status: number;
  /** Lower-cased names; secrets redacted. */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  readonly responseBody: string;
  /** True on the exchange(s) a failing or inconclusive verdict rests on. */
  readonly evidence?: boolean;
}

/** One judgement of one rule: by the rule's oracle check, or by a scenario expectation attributed to it. */
export interface Verdict {
  readonly ruleId: string;
  readonly source: 'check' | 'expectation' | 'property';
  /** What was judged, e.g. `status is 201` or `$.data.type equals "user_authentication_password_profile_info"`. */
  readonly description: string;
  readonly outcome: Outcome;
  /** Set on an observation handed to an assumed rule while a documented rule could not be judged. */
  readonly observedFor?: RuleId;
}

/** `inconclusive`: nothing failed, but a verdict could not be reached (see the verdicts' reasons). */
export type CaseStatus = 'pass' | 'fail' | 'skip' | 'inconclusive';

/** `setup` and `cleanup` steps give no rule verdicts; a `probe` step's verdicts name their rules. */
type StepRole = 'setup' | 'probe' | 'cleanup';

export interface StepResult {
  readonly index: number;
  readonly name: string;
  /** 1-based line of the step in its scenario file (for annotations); absent for steps not from a file. */
  readonly line?: number;
  readonly role: StepRole;
  readonly status: CaseStatus;
  /** Why the step was skipped or is inconclusive. */
  readonly skipReason?: string;
  readonly verdicts: readonly Verdict[];
  /** The exchanges of this step, redacted (kept whole for failing steps, first one only otherwise). */
  readonly exchanges: readonly ExchangeExcerpt[];
  /**
   * Set when the step stopped before its end, or never started (a missing variable or capture, an unmet
   * setup, a request that could not be sent, an earlier step that blocked it): its `exchanges` are all it made.
   * Not in the reports; `diff` uses it not to compare what one side never sent.
   */
  readonly notRun?: true;
}

export interface ScenarioResult {
  readonly name: string;
  readonly file: string;
  /** 1-based line of the scenario's document in its file. */
  readonly line?: number;
  readonly tags: readonly string[];
  readonly rules: readonly string[];
  readonly status: CaseStatus;
  readonly skipReason?: string;
  readonly steps: readonly StepResult[];
}

export interface PropertyResult {
  readonly name: string;
  readonly rules: readonly string[];
  readonly status: CaseStatus;
  readonly skipReason?: string;
  readonly numRuns: number;
  readonly seed: number;
  /** fast-check path of the failing run, for replay. */
  readonly path?: string;
  readonly counterexample?: string;
  /** One command that replays the failure exactly. */
  readonly replay?: string;
  readonly verdicts: readonly Verdict[];
  readonly exchanges: readonly ExchangeExcerpt[];
}

/**
 * Per-rule roll-up. `fail` on an assumed rule fails the run only under --strict; `inconclusive` (no
 * pass, no fail, at least one inconclusive verdict) never fails a run.
 */
export type RuleStatus = 'pass' | 'fail' | 'inconclusive' | 'not-covered';

export interface RuleSummary {
  readonly id: string;
  readonly section: string;
  readonly level: Level;
  readonly statement: string;
  /** Documented rules: the document's own sentence. */
  readonly quote?: string;
  readonly status: RuleStatus;
  readonly passed: number;
  readonly failed: number;
  readonly inconclusive: number;
  readonly skipped: number;
  /** Names of the scenarios/properties that judged it. */
  readonly coveredBy: readonly string[];
}

export interface LevelCounts {
  readonly pass: number;
  readonly fail: number;
  readonly inconclusive: number;
  readonly notCovered: number;
}

/**
 * A check of the scenario author's own (`expect: {rule: user.<name>}`), rolled up like a rule and never
 * mixed with the catalogue's: no level, no section, and a failing one fails the run.
 */
export interface UserCheckSummary {
  readonly id: string;
  readonly status: RuleStatus;
  readonly passed: number;
  readonly failed: number;
  readonly inconclusive: number;
  readonly skipped: number;
  /** Where it is written: each scenario and step line that names it, in report order. */
  readonly places: readonly { readonly scenario: string; readonly file: string; readonly line?: number }[];
}

export interface RunSummary {
  /** `fail` when a documented rule failed (or, with strict, any rule), or a check of the author's own failed. */
  readonly verdict: 'pass' | 'fail';
  readonly documented: LevelCounts;
  readonly assumed: LevelCounts;
  /** Checks of the scenario authors' own, by status (see UserCheckSummary). */
  readonly user: { readonly pass: number; readonly fail: number; readonly inconclusive: number };
  readonly cases: { readonly pass: number; readonly fail: number; readonly skip: number; readonly inconclusive: number };
}

export interface RunReport {
  readonly schemaVersion: 1;
  readonly tool: { readonly name: 'commerce-sim'; readonly version: string };
  readonly target: { readonly kind: 'sim' | 'http'; readonly baseUrl: string; readonly deviate?: string };
  readonly options: {
    readonly strict: boolean;
    readonly allowWrites: boolean;
    /** The simulator's data seed (`--sim-seed`), when the run gave one. */
    readonly simSeed?: number;
    /** fast-check's seed (`props --seed`). */
    readonly seed?: number;
    readonly grep?: string;
    readonly tags?: readonly string[];
    readonly shard?: string;
  };
  readonly summary: RunSummary;
  readonly rules: readonly RuleSummary[];
  readonly scenarios: readonly ScenarioResult[];
  readonly properties: readonly PropertyResult[];
  /** Set on reports of observed traffic (commerce-sim proxy, check): its cases are findings, grouped by walk. */
  readonly traffic?: TrafficSection;
  /** What the run's answers showed of each point the document leaves open (rules/fingerprint.ts), in the table's order. */
  readonly readings?: readonly ReadingPointReport[];
  /** The only part that varies between identical runs. */
  readonly timing: {
    readonly runId: string;
    readonly startedAt: string;
    readonly durationMs: number;
    readonly requests: number;
  };
}

/** One point the document leaves open, as the run saw it: the reading it takes, none it could see, or none of the known ones. */
export interface ReadingPointReport {
  readonly name: string;
  readonly question: string;
  readonly status: 'observed' | 'not-observed' | 'unknown';
  /** The reading observed (status `observed`). */
  readonly value?: string;
  /** The answer that showed it, or (status `unknown`) what was seen instead. */
  readonly evidence?: string;
  /** Why nothing was seen (status `not-observed`). */
  readonly reason?: string;
}

/** What a traffic report says beyond its rules: what was observed, the walks, the infrastructure. */
export interface TrafficSection {
  /** The HAR files, recordings or `proxy` the traffic came from. */
  readonly sources: readonly string[];
  readonly entries: number;
  readonly clients: number;
  /** The traffic holds every request the server received since it started (failures resting on several exchanges stand). */
  readonly complete: boolean;
  /** Whose conduct was judged: the server's answers, the client's requests, or both. */
  readonly judged: 'both' | 'server' | 'client';
  readonly walks: readonly TrafficWalk[];
  /** Walks observed; those beyond the listed ones are counted only. */
  readonly walksTotal: number;
  /** Upstream unreachable or timing out, a body that cannot be decoded: never a rule failure. */
  readonly infrastructure: readonly TrafficNote[];
  /** Exchanges not judged because the judge fell behind (a proxy under load sheds whole clients). */
  readonly shed?: { readonly exchanges: number; readonly clients: number };
  /**
   * Client findings the traffic asked for: requests that named the rule they break (`x-commerce-sim-expect`,
   * the kit's own negative tests) or rules named by `--expect`. Never failures; counted per rule, a few shown.
   */
  readonly deliberate?: TrafficDeliberate;
}

export interface TrafficDeliberate {
  readonly total: number;
  readonly byRule: Readonly<Record<string, number>>;
  readonly examples: readonly { readonly ruleId: string; readonly message: string; readonly evidence: readonly string[] }[];
}

/** An event of the path to the server, not an answer of it: upstream unreachable, too slow, an answer cut. */
export interface TrafficNote {
  readonly kind: string;
  readonly message: string;
  readonly at?: string;
}

export interface TrafficWalk {
  readonly n: number;
  readonly label: string;
  readonly kind: 'offset' | 'keyset';
  readonly client: string;
  readonly pages: number;
  readonly records: number;
  /** Where its first and last pages were observed. */
  readonly from: string;
  readonly to: string;
  readonly findings: number;
  /** Records the walk was sent again that it held already (§4.3 read literally re-reads a run; a retry re-reads its page): waste, never a failure. */
  readonly reread?: number;
  /** Ground truth (upstream the simulator): what the client was sent against what it should have been. */
  readonly truth?: { readonly visible: number; readonly once: number; readonly twice: number; readonly never: number; readonly unread: number; readonly excused: number; readonly summary: string };
}
