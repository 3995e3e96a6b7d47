/**
 * What the traffic judge gives back: findings (a failure, or a documented rule that could not be
 * judged), per-rule tallies, the walks it rebuilt (with ground truth in front of the simulator) and the
 * infrastructure notes of a proxy. Plain data: src/traffic/report.ts turns it into the kit's report.
 */
import type { Level } from '../../rules/rule.js';
import type { ExchangeExcerpt, TrafficNote, TrafficWalk } from '../../report/model.js';
import type { WalkTruth } from '../sessions/ground-truth.js';
import type { WalkKind } from '../sessions/walks.js';

/** What every finding says, a failure or an inconclusive. */
export interface FindingBase {
  readonly ruleId: string;
  readonly level: Level;
  /** Whose conduct: the server's answers, or the client's requests. */
  readonly party: 'server' | 'client';
  /** What failed; for an inconclusive one, why it could not be judged. */
  readonly message: string;
  /** `accounts by created_at (keyset) #3`, when the finding is about a walk. */
  readonly walk?: string;
  /** Where the exchanges it rests on were observed (`proxy #12`, `traffic.har entry 40`). */
  readonly evidence: readonly string[];
  /** Those exchanges, redacted. */
  readonly exchanges: readonly ExchangeExcerpt[];
}

/** A failure, with what was expected and what was seen; or a documented rule that could not be judged. */
export type Finding = (FindingBase & { readonly status: 'fail'; readonly expected: unknown; readonly actual: unknown }) | (FindingBase & { readonly status: 'inconclusive' });

export interface RuleTally {
  passed: number;
  failed: number;
  inconclusive: number;
  skipped: number;
}

/** A walk as a report lists it (report/model.ts TrafficWalk), with ground truth's ids kept. */
export type WalkResult = TrafficWalk & { readonly kind: WalkKind; readonly truth?: WalkTruth };

export type InfraNote = TrafficNote;

export interface TrafficResult {
  readonly entries: number;
  readonly clients: number;
  readonly complete: boolean;
  readonly tallies: ReadonlyMap<string, RuleTally>;
  /** Kept findings (at most `maxFindingsPerRule` per rule; the tallies count them all). */
  readonly findings: readonly Finding[];
  readonly walks: readonly WalkResult[];
  /** Walks beyond `maxWalks` are counted, not listed. */
  readonly walksTotal: number;
  readonly infrastructure: readonly InfraNote[];
  /** Exchanges not judged because the judge fell behind the traffic (a proxy under load sheds whole clients). */
  readonly shed?: Shed;
  /** Client findings the traffic asked for (x-commerce-sim-expect, --expect): never failures, counted per rule. */
  readonly deliberate?: Deliberate;
}

export interface Deliberate {
  readonly byRule: ReadonlyMap<string, number>;
  /** The first few of each rule, with where they were seen. */
  readonly kept: readonly DeliberateFinding[];
}

export interface DeliberateFinding {
  readonly ruleId: string;
  readonly message: string;
  readonly evidence: readonly string[];
}

export interface Shed {
  readonly exchanges: number;
  readonly clients: number;
}
