/** Roll-ups of a run: per rule across every verdict, and the run's verdict under --strict or not. */
import type { Level } from '../rules/rule.js';
import type { ExchangeExcerpt, PropertyResult, RuleStatus, RuleSummary, RunReport, RunSummary, ScenarioResult, TrafficDeliberate, TrafficWalk, UserCheckSummary, Verdict } from './model.js';
import { trafficSubject } from './traffic-words.js';

export interface CatalogueEntry {
  readonly id: string;
  readonly section: string;
  readonly level: Level;
  readonly statement: string;
  readonly quote?: string;
}

/** Every verdict of the run with the name of the scenario or property that gave it. */
export function verdictsByCase(scenarios: readonly ScenarioResult[], properties: readonly PropertyResult[]): { readonly caseName: string; readonly verdict: Verdict }[] {
  const out: { caseName: string; verdict: Verdict }[] = [];
  for (const s of scenarios) for (const step of s.steps) for (const v of step.verdicts) out.push({ caseName: s.name, verdict: v });
  for (const p of properties) for (const v of p.verdicts) out.push({ caseName: p.name, verdict: v });
  return out;
}

/**
 * One summary per catalogue rule, in catalogue order. Verdicts naming a rule outside the catalogue
 * are not counted here (the scenario loader rejects unknown rule ids).
 */
export function summariseRules(catalogue: readonly CatalogueEntry[], scenarios: readonly ScenarioResult[], properties: readonly PropertyResult[]): RuleSummary[] {
  const tally = new Map<string, { passed: number; failed: number; inconclusive: number; skipped: number; by: Set<string> }>();
  for (const { caseName, verdict } of verdictsByCase(scenarios, properties)) {
    let t = tally.get(verdict.ruleId);
    if (t === undefined) tally.set(verdict.ruleId, (t = { passed: 0, failed: 0, inconclusive: 0, skipped: 0, by: new Set() }));
    switch (verdict.outcome.status) {
      case 'pass':
        t.passed += 1;
        t.by.add(caseName);
        break;
      case 'fail':
        t.failed += 1;
        t.by.add(caseName);
        break;
      case 'inconclusive':
        t.inconclusive += 1;
        t.by.add(caseName);
        break;
      case 'skip':
        t.skipped += 1; // a skip judged nothing, so it does not make the case cover the rule
        break;
    }
  }
  return catalogue.map((rule) => {
    const t = tally.get(rule.id) ?? { passed: 0, failed: 0, inconclusive: 0, skipped: 0, by: new Set<string>() };
    return ruleSummary(rule, t, [...t.by].sort());
  });
}

/** Verdict counts of one rule. */
export interface VerdictCounts {
  readonly passed: number;
  readonly failed: number;
  readonly inconclusive: number;
  readonly skipped: number;
}

/** One rule's roll-up from its counts: any failure fails it, else any pass passes it, else inconclusive, else nothing judged it. */
export function ruleSummary(rule: CatalogueEntry, t: VerdictCounts, coveredBy: readonly string[]): RuleSummary {
  const status: RuleStatus = t.failed > 0 ? 'fail' : t.passed > 0 ? 'pass' : t.inconclusive > 0 ? 'inconclusive' : 'not-covered';
  return {
    id: rule.id,
    section: rule.section,
    level: rule.level,
    statement: rule.statement,
    ...(rule.quote === undefined ? {} : { quote: rule.quote }),
    status,
    passed: t.passed,
    failed: t.failed,
    inconclusive: t.inconclusive,
    skipped: t.skipped,
    coveredBy,
  };
}

const USER_PREFIX = 'user.';

/** The author's own checks (`user.` ids), in the order the report first meets them. */
function summariseUserChecks(scenarios: readonly ScenarioResult[]): UserCheckSummary[] {
  const byId = new Map<string, { passed: number; failed: number; inconclusive: number; skipped: number; places: { scenario: string; file: string; line?: number }[]; seen: Set<string> }>();
  for (const s of scenarios)
    for (const step of s.steps)
      for (const v of step.verdicts) {
        if (!v.ruleId.startsWith(USER_PREFIX)) continue;
        let t = byId.get(v.ruleId);
        if (t === undefined) byId.set(v.ruleId, (t = { passed: 0, failed: 0, inconclusive: 0, skipped: 0, places: [], seen: new Set() }));
        const status = v.outcome.status;
        if (status === 'pass') t.passed += 1;
        else if (status === 'fail') t.failed += 1;
        else if (status === 'inconclusive') t.inconclusive += 1;
        else t.skipped += 1;
        const line = step.line ?? s.line;
        const key = `${s.file}\u0000${line ?? ''}`;
        if (!t.seen.has(key)) {
          t.seen.add(key);
          t.places.push({ scenario: s.name, file: s.file, ...(line === undefined ? {} : { line }) });
        }
      }
  return [...byId].map(([id, t]) => ({
    id,
    status: t.failed > 0 ? 'fail' : t.passed > 0 ? 'pass' : t.inconclusive > 0 ? 'inconclusive' : 'not-covered',
    passed: t.passed,
    failed: t.failed,
    inconclusive: t.inconclusive,
    skipped: t.skipped,
    places: t.places,
  }));
}

/** Where a check of the author's own is written, as `file:line, file:line`. */
export function placesText(check: UserCheckSummary): string {
  return check.places.map((p) => `${p.file}${p.line === undefined ? '' : `:${p.line}`}`).join(', ');
}

/** The author's own checks of a report, computed once. */
export const userChecks: (report: RunReport) => readonly UserCheckSummary[] = once((report) => summariseUserChecks(report.scenarios));

/**
 * `fail` iff a documented rule failed, or with `strict` any rule, or a check of the author's own failed;
 * cases are scenarios plus properties.
 */
export function summariseRun(rules: readonly RuleSummary[], scenarios: readonly ScenarioResult[], properties: readonly PropertyResult[], strict: boolean): RunSummary {
  const byLevel = (level: Level) => ({
    pass: rules.filter((r) => r.level === level && r.status === 'pass').length,
    fail: rules.filter((r) => r.level === level && r.status === 'fail').length,
    inconclusive: rules.filter((r) => r.level === level && r.status === 'inconclusive').length,
    notCovered: rules.filter((r) => r.level === level && r.status === 'not-covered').length,
  });
  const cases = { pass: 0, fail: 0, skip: 0, inconclusive: 0 };
  for (const c of [...scenarios, ...properties]) cases[c.status] += 1;
  const own = summariseUserChecks(scenarios);
  const user = { pass: own.filter((c) => c.status === 'pass').length, fail: own.filter((c) => c.status === 'fail').length, inconclusive: own.filter((c) => c.status === 'inconclusive').length };
  const failing = rules.some((r) => r.status === 'fail' && (strict || r.level === 'documented')) || user.fail > 0;
  return { verdict: failing ? 'fail' : 'pass', documented: byLevel('documented'), assumed: byLevel('assumed'), user, cases };
}

/** True when a failing verdict fails the run: documented (or unknown) rules always, assumed ones only under --strict. */
export function failsRun(level: Level | undefined, strict: boolean): boolean {
  return strict || level !== 'assumed';
}

/** One failing verdict with what a reader needs to act on it; the reporters all list these. */
export interface Failure {
  /** `scenario › step n: name`, or the property's name. */
  readonly where: string;
  readonly verdict: Verdict;
  readonly outcome: Extract<Verdict['outcome'], { status: 'fail' }>;
  readonly rule: RuleSummary | undefined;
  /** False for an assumed rule without --strict: reported, but the run still passes. */
  readonly failsRun: boolean;
  readonly exchanges: readonly ExchangeExcerpt[];
  readonly replay: string | undefined;
  /** The scenario file and the step's line, for a scenario's failure. */
  readonly file?: string;
  readonly line?: number;
}

/**
 * A report's figures, computed once per report and handed to every renderer (JSON, JUnit, Markdown,
 * HTML, GitHub and the terminal all read the same lists). A report is never changed once built.
 */
function once<T>(compute: (report: RunReport) => T): (report: RunReport) => T {
  const computed = new WeakMap<RunReport, T>();
  return (report) => {
    let value = computed.get(report);
    if (value === undefined) {
      value = compute(report);
      computed.set(report, value);
    }
    return value;
  };
}

/**
 * A failing rule as the reports list it: the rules whose failure explains others first. A `large-data`
 * rule is a procedure built on filters, sorts and paging; where it fails in a step beside a failing rule
 * of those, it is listed after it as following it (a knock-on), not as a cause of its own.
 */
export interface FailingRule {
  readonly id: string;
  readonly rule: RuleSummary | undefined;
  /** Failing verdicts, and the distinct steps or properties they are in. */
  readonly verdicts: number;
  readonly places: number;
  readonly failsRun: boolean;
  /** The rule it fails beside, when it is a knock-on. */
  readonly follows: string | undefined;
}

const PROCEDURE_FAMILY = 'large-data.';

export const failingRules: (report: RunReport) => readonly FailingRule[] = once(listFailingRules);

function listFailingRules(report: RunReport): FailingRule[] {
  const byRule = new Map<string, { rule: RuleSummary | undefined; verdicts: number; places: Set<string>; failsRun: boolean; first: number }>();
  const rulesAt = new Map<string, Set<string>>();
  rawFailures(report).forEach((f, i) => {
    const id = f.verdict.ruleId;
    let t = byRule.get(id);
    if (t === undefined) byRule.set(id, (t = { rule: f.rule, verdicts: 0, places: new Set(), failsRun: f.failsRun, first: i }));
    t.verdicts += 1;
    t.places.add(f.where);
    let here = rulesAt.get(f.where);
    if (here === undefined) rulesAt.set(f.where, (here = new Set()));
    here.add(id);
  });
  const follows = (id: string): string | undefined => {
    if (!id.startsWith(PROCEDURE_FAMILY)) return undefined;
    for (const place of byRule.get(id)?.places ?? []) for (const other of rulesAt.get(place) ?? []) if (!other.startsWith(PROCEDURE_FAMILY) && !other.startsWith('user.')) return other;
    return undefined;
  };
  const list = [...byRule].map(([id, t]) => ({ id, rule: t.rule, verdicts: t.verdicts, places: t.places.size, failsRun: t.failsRun, follows: follows(id), first: t.first }));
  // Causes before knock-ons, run-failing before tolerated, documented before the rest, then as the report met them.
  const rank = (x: (typeof list)[number]) => (x.follows === undefined ? 0 : 4) + (x.failsRun ? 0 : 2) + (x.rule?.level === 'documented' ? 0 : 1);
  return list.sort((a, b) => rank(a) - rank(b) || a.first - b.first).map(({ first: _first, ...rest }) => rest);
}

/** Every failing verdict of the report: those failing the run first, then by their rule's place in `failingRules` (a cause before its knock-ons), then in report order. */
export const failures: (report: RunReport) => readonly Failure[] = once((report) => {
  const order = new Map(failingRules(report).map((r, i) => [r.id, i]));
  const list = rawFailures(report);
  const rank = (f: Failure) => order.get(f.verdict.ruleId) ?? 0;
  return [...list].sort((a, b) => Number(b.failsRun) - Number(a.failsRun) || rank(a) - rank(b));
});

/** The failing verdicts in report order, run-failing ones first (no rule ordering: failingRules reads these). */
const rawFailures: (report: RunReport) => readonly Failure[] = once(listFailures);

function listFailures(report: RunReport): Failure[] {
  const rules = new Map(report.rules.map((r) => [r.id, r]));
  const out: Failure[] = [];
  const add = (where: string, verdict: Verdict, exchanges: readonly ExchangeExcerpt[], replay?: string, at?: { file: string; line: number | undefined }) => {
    if (verdict.outcome.status !== 'fail') return;
    const rule = rules.get(verdict.ruleId);
    const place = at === undefined ? {} : { file: at.file, ...(at.line === undefined ? {} : { line: at.line }) };
    out.push({ where, verdict, outcome: verdict.outcome, rule, failsRun: failsRun(rule?.level, report.options.strict), exchanges, replay, ...place });
  };
  for (const s of report.scenarios) {
    for (const step of s.steps) for (const v of step.verdicts) add(`${s.name} › ${stepLabel(step)}`, v, step.exchanges, undefined, { file: s.file, line: step.line ?? s.line });
  }
  for (const p of report.properties) for (const v of p.verdicts) add(p.name, v, p.exchanges, p.replay);
  // Failures that fail the run first; tolerated ones (assumed, not strict) after, each in report order.
  return out.sort((a, b) => Number(b.failsRun) - Number(a.failsRun));
}

export function stepLabel(step: { readonly index: number; readonly name: string }): string {
  return `step ${step.index}: ${step.name}`;
}

/** `documented, §3.2`: what a reader needs to find the rule in the document; a `user.` id is the author's own. */
export function ruleRef(rule: RuleSummary | undefined, id?: string): string {
  if (rule !== undefined) return `${rule.level}, ${rule.section}`;
  return id?.startsWith(USER_PREFIX) === true ? 'your own check' : 'not in catalogue';
}

/** One verdict that could not be reached, with where it came from; the reporters list these after the failures. */
export interface Unjudged {
  readonly where: string;
  readonly verdict: Verdict;
  readonly reason: string;
  readonly dependsOn: readonly string[];
  readonly rule: RuleSummary | undefined;
  /** The exchanges it rests on (the evidence-marked ones when the runner marked any). */
  readonly exchanges: readonly ExchangeExcerpt[];
}

/** Every inconclusive verdict of the report (once per place, rule and reason), documented rules first. */
export const inconclusives: (report: RunReport) => readonly Unjudged[] = once(listInconclusives);

function listInconclusives(report: RunReport): Unjudged[] {
  const rules = new Map(report.rules.map((r) => [r.id, r]));
  const seen = new Set<string>();
  const out: Unjudged[] = [];
  const add = (where: string, verdict: Verdict, exchanges: readonly ExchangeExcerpt[]) => {
    if (verdict.outcome.status !== 'inconclusive') return;
    const key = `${where}\u0000${verdict.ruleId}\u0000${verdict.outcome.reason}`;
    if (seen.has(key)) return;
    seen.add(key);
    const { reason, dependsOn } = verdict.outcome;
    out.push({ where, verdict, reason, dependsOn, rule: rules.get(verdict.ruleId), exchanges: evidenceOf(exchanges) });
  };
  for (const s of report.scenarios) for (const step of s.steps) for (const v of step.verdicts) add(`${s.name} › ${stepLabel(step)}`, v, step.exchanges);
  for (const p of report.properties) for (const v of p.verdicts) add(p.name, v, p.exchanges);
  const rank = (u: Unjudged) => (u.rule?.level === 'documented' ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b));
}

/** The exchanges a verdict rests on: those the runner marked as evidence, else all of them. */
export function evidenceOf(exchanges: readonly ExchangeExcerpt[]): readonly ExchangeExcerpt[] {
  const marked = exchanges.filter((x) => x.evidence === true);
  return marked.length > 0 ? marked : exchanges;
}

/** Request lines listed per failing or inconclusive verdict before "and N more". */
export const SHOWN_REQUESTS = 5;

/** `GET /v2/accounts?page[limit]=1 → 401`: the request line a reader can repeat. */
export function requestLine(x: ExchangeExcerpt): string {
  return `${x.method} ${x.url} → ${x.status}`;
}

/** The verdict in a few words: why it failed, or that every documented rule judged holds. */
export function verdictReason(r: RunReport): string {
  const documented = r.summary.documented.fail;
  if (documented > 0) return `${documented} documented rule${documented === 1 ? '' : 's'} failed`;
  const own = r.summary.user.fail;
  if (own > 0) return `${own} of your own check${own === 1 ? '' : 's'} failed`;
  if (r.summary.verdict === 'fail') return 'assumed rules failed (--strict)';
  return judgedLine(r);
}

/**
 * What a pass rests on, in one line: "19 of 34 documented rules judged, all hold; 15 not covered (12 need
 * --allow-writes, 3 need --var client_id)". A PASS never claims more than was judged.
 */
export function judgedLine(r: RunReport): string {
  const documented = r.rules.filter((x) => x.level === 'documented');
  const judged = documented.filter((x) => x.status === 'pass' || x.status === 'fail').length;
  const inconclusive = documented.filter((x) => x.status === 'inconclusive').length;
  const unjudged = documented.length - judged - inconclusive;
  const label = unjudgedLabel(r);
  if (judged === 0) return `no documented rule was judged (${unjudged} ${label}${inconclusive === 0 ? '' : `, ${inconclusive} inconclusive`})`;
  const head = judged === documented.length ? `all ${judged} documented rules judged, all hold` : `${judged} of ${documented.length} documented rules judged, all hold`;
  // In traffic a rule is unjudged because nothing in the traffic touched it: no cause to name.
  const causes = unjudged === 0 || r.traffic !== undefined ? [] : notCoveredCauses(r);
  const why = causes.length === 0 ? '' : ` (${causes.map((c) => `${c.count} ${c.count === 1 ? c.cause.replace(/^need /, 'needs ') : c.cause}`).join(', ')})`;
  return `${head}${unjudged === 0 ? '' : `; ${unjudged} ${label}${why}`}${inconclusive === 0 ? '' : `; ${inconclusive} inconclusive`}`;
}

/** The cause of a case's skip in a few words: the option or variable that would have run it. */
function skipCause(reason: string): string {
  if (/--allow-writes/.test(reason)) return 'need --allow-writes';
  const variable = /--var ([A-Za-z_][A-Za-z0-9_]*)=/.exec(reason);
  if (variable?.[1] === 'admin_token' || /admin API/.test(reason)) return "need the simulator's admin API";
  if (variable !== undefined && variable !== null) return `need --var ${variable[1] ?? ''}`;
  return reason.length > 60 ? `${reason.slice(0, 57)}...` : reason;
}

/**
 * Why the documented rules nothing judged went unjudged, most frequent first: the skip reason of a case
 * that lists the rule (a scenario or a property); else "not in the selection" (--grep, --tag, --shard left
 * out the cases that list it), or "judged by no property here" (the scenarios judge it).
 */
function notCoveredCauses(r: RunReport): { readonly cause: string; readonly count: number }[] {
  const counts = new Map<string, number>();
  for (const rule of r.rules) {
    if (rule.level !== 'documented' || rule.status !== 'not-covered') continue;
    const scenario = r.scenarios.find((s) => s.rules.includes(rule.id) && s.status === 'skip' && s.skipReason !== undefined);
    const property = r.properties.find((p) => p.rules.includes(rule.id) && p.status === 'skip' && p.skipReason !== undefined);
    const listed = r.scenarios.some((s) => s.rules.includes(rule.id)) || r.properties.some((p) => p.rules.includes(rule.id));
    const reason = scenario?.skipReason ?? property?.skipReason;
    const selected = r.options.grep !== undefined || (r.options.tags?.length ?? 0) > 0 || r.options.shard !== undefined;
    const cause =
      reason !== undefined
        ? skipCause(reason)
        : listed
          ? 'nothing to judge in what ran'
          : selected
            ? 'not in the selection'
            : `judged by no ${r.scenarios.length === 0 ? 'property' : 'scenario'} here`;
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  return [...counts].map(([cause, count]) => ({ cause, count })).sort((a, b) => b.count - a.count || (a.cause < b.cause ? -1 : 1));
}

/** What a rule nothing judged is called: "not covered" by a suite, "not observed" in traffic (its count is 0, never a pass). */
export const unjudgedLabel = (report: RunReport): string => (report.traffic === undefined ? 'not covered' : 'not observed');

/** The traffic section's lines, shared by report.md and the job summary: what was observed, and the walks with ground truth. */
export function trafficLines(report: RunReport, maxWalks: number): string[] {
  const t = report.traffic;
  if (t === undefined) return [];
  const judged = t.judged === 'both' ? "the server's answers and the client's requests" : t.judged === 'server' ? "the server's answers" : "the client's requests";
  const lines = [
    `${t.entries.toLocaleString('en-US')} exchanges from ${trafficSubject(report, t)} · ${t.clients} client${t.clients === 1 ? '' : 's'} · ${t.walksTotal.toLocaleString('en-US')} walk${t.walksTotal === 1 ? '' : 's'} · judged: ${judged} · ${t.complete ? 'complete traffic (every request the server received): failures resting on several exchanges stand' : 'not known to be complete: a failure resting on several exchanges is inconclusive (another client may have written between them)'}`,
    '',
    ...(t.shed === undefined
      ? []
      : [
          `**${t.shed.exchanges.toLocaleString('en-US')} exchanges of ${t.shed.clients.toLocaleString('en-US')} client${t.shed.clients === 1 ? '' : 's'} not judged: judge behind.** The proxy relayed them; the judge could not keep up, so whole clients were left unjudged rather than memory growing.`,
          '',
        ]),
  ];
  if (t.deliberate !== undefined) lines.push(deliberateLine(t.deliberate), '');
  const walks = t.walks.filter((w) => w.findings > 0 || w.truth !== undefined).slice(0, maxWalks);
  if (walks.length > 0) {
    lines.push('| walk | client | pages | records | findings | ground truth |', '| --- | --- | ---: | ---: | ---: | --- |');
    for (const w of walks) lines.push(`| ${cellText(`${w.label} (${w.kind}) #${w.n}`)} | ${w.client} | ${w.pages} | ${w.records} | ${w.findings} | ${cellText(w.truth?.summary ?? '—')} |`);
    lines.push('');
  }
  const rereads = t.walks.filter((w) => (w.reread ?? 0) > 0);
  if (rereads.length > 0) lines.push(rereadLine(rereads), '');
  if (t.infrastructure.length > 0) {
    lines.push(`Infrastructure (never a rule failure): ${t.infrastructure.length} note${t.infrastructure.length === 1 ? '' : 's'}`, '');
    for (const n of t.infrastructure.slice(0, 10)) lines.push(`- ${n.kind}: ${cellText(n.message)}${n.at === undefined ? '' : ` (${n.at})`}`);
    lines.push('');
  }
  return lines;
}

/** `Re-read (waste, never a failure): 300 records in 2 walks: accounts by created_at #3 (200), ...` */
export function rereadLine(walks: readonly TrafficWalk[]): string {
  const total = walks.reduce((n, w) => n + (w.reread ?? 0), 0);
  const named = walks
    .slice(0, 5)
    .map((w) => `${w.label} #${w.n} (${(w.reread ?? 0).toLocaleString('en-US')})`)
    .join(', ');
  return `Re-read (waste, never a failure: §4.3 read literally re-reads a run of one timestamp; a retry re-reads its page): ${total.toLocaleString('en-US')} record${total === 1 ? '' : 's'} in ${walks.length} walk${walks.length === 1 ? '' : 's'}: ${named}${walks.length > 5 ? ', ...' : ''}`;
}

/** `12 deliberate client findings, never failures (requests that named the rule they break): client.create.body 3, ...` */
export function deliberateLine(d: TrafficDeliberate): string {
  const rules = Object.entries(d.byRule)
    .map(([id, n]) => `${id} ${n}`)
    .join(', ');
  return `${d.total.toLocaleString('en-US')} deliberate client finding${d.total === 1 ? '' : 's'}, never failures (requests that named the rule they break in x-commerce-sim-expect, or rules named by --expect): ${rules}`;
}

const cellText = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** `readings: N observed, N none of the known, N not observed (readings.json)`, or undefined without readings. */
export function readingsLine(report: RunReport): string | undefined {
  const points = report.readings;
  if (points === undefined) return undefined;
  const count = (status: string) => points.filter((p) => p.status === status).length;
  return `readings: ${count('observed')} observed, ${count('unknown')} none of the known, ${count('not-observed')} not observed (readings.json)`;
}

/** The target as a reader should take it: a URL, or the simulator in the same process (its base URL only names its links: nothing listens there). */
export function targetText(r: RunReport): string {
  return r.target.kind === 'sim' ? 'the embedded simulator (in process)' : r.target.baseUrl;
}
