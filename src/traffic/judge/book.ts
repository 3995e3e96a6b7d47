/**
 * What the traffic judge writes down as it goes: each rule's tally, the findings (the first few per rule
 * kept with their evidence excerpted, the rest counted), the walks it rebuilt and the infrastructure notes.
 * Every list is bounded; what does not fit is counted.
 */
import { catalogue } from '../../rules/catalogue.js';
import type { Level, Outcome } from '../../rules/rule.js';
import { excerpt } from '../../report/redact.js';
import { clientRuleMetas } from '../client-rules/catalogue.js';
import type { ClientOutcome } from '../client-rules/rule.js';
import type { TrafficEntry } from '../entry.js';
import type { DeliberateFinding, Finding, InfraNote, RuleTally, Shed, TrafficResult, WalkResult } from './result.js';

export type TallyStatus = 'pass' | 'fail' | 'inconclusive' | 'skip';

/** A verdict of any rule, the server's or the client's, as the judge hears it. */
export interface Verdict {
  readonly ruleId: string;
  readonly party: 'server' | 'client';
  readonly outcome: Outcome | ClientOutcome;
  /** The walk it is about, by name (undefined: none; the finding then has no `walk`). */
  readonly walk?: string | undefined;
  /** The exchanges it rests on: asked only when the verdict is recorded. */
  readonly evidence: () => readonly TrafficEntry[];
}

/** `Omit` of each member of a union on its own, so each keeps its discriminant's fields. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const MAX_NOTES = 1_000;
/** Deliberate findings kept per rule for the report (the rest are counted). */
const MAX_DELIBERATE_KEPT = 3;

export class Book {
  readonly tallies = new Map<string, RuleTally>();
  private readonly findings: Finding[] = [];
  private readonly kept = new Map<string, number>();
  private readonly walks: WalkResult[] = [];
  private readonly infrastructure: InfraNote[] = [];
  private readonly shed = { exchanges: 0, clients: 0 };
  /** Client findings a request asked for (x-commerce-sim-expect, --expect): counted per rule, a few kept, never failures. */
  private readonly deliberateByRule = new Map<string, number>();
  private readonly deliberateKept: DeliberateFinding[] = [];
  entries = 0;
  clients = 0;
  walksTotal = 0;

  constructor(
    private readonly maxFindingsPerRule: number,
    private readonly maxWalks: number,
    private readonly onFinding: ((finding: Finding) => void) | undefined,
  ) {
    for (const r of catalogue) this.tallies.set(r.id, { passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
    for (const r of clientRuleMetas) this.tallies.set(r.id, { passed: 0, failed: 0, inconclusive: 0, skipped: 0 });
  }

  tally(id: string, status: TallyStatus): void {
    const t = this.tallies.get(id);
    if (t === undefined) return;
    if (status === 'pass') t.passed++;
    else if (status === 'fail') t.failed++;
    else if (status === 'inconclusive') t.inconclusive++;
    else t.skipped++;
  }

  /**
   * The one recorder of verdicts: each is tallied; a failure, or a documented rule's inconclusive, is recorded
   * with the exchanges it rests on (true then). An assumed rule's inconclusive is counted only.
   */
  verdict(v: Verdict): boolean {
    const o = v.outcome;
    this.tally(v.ruleId, o.status);
    if (o.status !== 'fail' && o.status !== 'inconclusive') return false;
    const level = levelOf(v.ruleId);
    if (o.status === 'inconclusive' && level !== 'documented') return false;
    const evidence = v.evidence();
    const where = { ...(v.walk === undefined ? {} : { walk: v.walk }), evidence: evidence.map((e) => e.source) };
    const base = { ruleId: v.ruleId, level, party: v.party };
    this.record(
      o.status === 'fail' ? { ...base, status: 'fail', message: o.message, expected: o.expected, actual: o.actual, ...where } : { ...base, status: 'inconclusive', message: o.reason, ...where },
      evidence,
    );
    return true;
  }

  /** A finding, its evidence excerpted (redacted, cut) only when it is kept: past the first few per rule it is counted. */
  private record(base: DistributiveOmit<Finding, 'exchanges'>, evidence: readonly TrafficEntry[]): void {
    const n = this.kept.get(base.ruleId) ?? 0;
    this.kept.set(base.ruleId, n + 1);
    const keep = n < this.maxFindingsPerRule;
    if (!keep && this.onFinding === undefined) return;
    const f: Finding = { ...base, exchanges: keep ? evidence.map((e) => excerpt(e.exchange, { evidence: true })) : [] };
    if (keep) this.findings.push(f);
    try {
      this.onFinding?.(f);
    } catch {
      // A printer's failure never stops the judging.
    }
  }

  /** A finding the traffic asked for: counted, and the first few per rule kept with where they were seen. */
  deliberate(ruleId: string, message: string, evidence: readonly TrafficEntry[]): void {
    const n = this.deliberateByRule.get(ruleId) ?? 0;
    this.deliberateByRule.set(ruleId, n + 1);
    if (n < MAX_DELIBERATE_KEPT) this.deliberateKept.push({ ruleId, message, evidence: evidence.map((e) => e.source) });
  }

  walk(w: WalkResult): void {
    this.walksTotal++;
    if (this.walks.length < this.maxWalks) this.walks.push(w);
  }

  note(n: InfraNote): void {
    if (this.infrastructure.length < MAX_NOTES) this.infrastructure.push(n);
  }

  /** Exchanges of clients the judge let go unjudged (it fell behind). */
  shedExchanges(exchanges: number, clients: number): void {
    this.shed.exchanges += exchanges;
    this.shed.clients += clients;
  }

  result(complete: boolean): TrafficResult {
    const walks = [...this.walks].sort((a, b) => a.n - b.n);
    const shed: Shed | undefined = this.shed.exchanges > 0 ? { ...this.shed } : undefined;
    return {
      entries: this.entries,
      clients: this.clients,
      complete,
      tallies: this.tallies,
      findings: this.findings,
      walks,
      walksTotal: this.walksTotal,
      infrastructure: this.infrastructure,
      ...(shed === undefined ? {} : { shed }),
      ...(this.deliberateByRule.size === 0 ? {} : { deliberate: { byRule: new Map(this.deliberateByRule), kept: [...this.deliberateKept] } }),
    };
  }
}

const LEVELS = new Map<string, Level>([...catalogue, ...clientRuleMetas].map((r) => [r.id, r.level]));

/** A rule's level, catalogue or client rule. */
const levelOf = (id: string): Level => LEVELS.get(id) ?? 'assumed';
