/**
 * Which rules explain a diff's behavioural differences, and which only follow from them, the way `run`
 * tells a failing rule from its knock-ons (report/summarise.ts failingRules). One broken page count
 * shows in every step that reads a page, under every rule of those steps; the rule the compared feature
 * is direct evidence of explains it, and the step's other rules follow. Pure.
 */
import type { Difference } from './difference.js';

/** A rule that explains differences: those it explains, and the rules that differ only because of it. */
interface Cause {
  readonly id: string;
  readonly differences: readonly Difference[];
  readonly knockOns: readonly string[];
}

/** A rule with differences that a cause explains; `follows` is that cause. */
interface KnockOn {
  readonly id: string;
  readonly follows: string;
}

export interface Explanation {
  /** Causes, the most differences first, then by id. */
  readonly causes: readonly Cause[];
  /** Knock-ons, by id. */
  readonly knockOns: readonly KnockOn[];
}

/** Rules of a procedure built on filters, sorts and paging: beside a failing building block, a knock-on (as in run). */
const PROCEDURE_FAMILY = 'large-data.';
export const NO_RULE = '(no rule)';

const placeOf = (d: Difference): string => `${d.scenario}\u0000${d.stepIndex ?? ''}`;
const exchangeOf = (d: Difference): string => `${placeOf(d)}\u0000${d.exchange ?? ''}`;
const reportedUnder = (d: Difference): readonly string[] => (d.rules.length > 0 ? d.rules : [NO_RULE]);

/**
 * The rules that could explain one difference: where the status differs, those of the status
 * difference (every other member of that answer follows from it being another answer); else the rule
 * its feature is direct evidence of; else its rules outside the procedure family, or all of them.
 */
function candidates(differences: readonly Difference[]): Map<Difference, readonly string[]> {
  const statusAt = new Map<string, Difference>();
  for (const d of differences) if (d.aspect === 'status' && d.exchange !== undefined) statusAt.set(exchangeOf(d), d);
  const naming = statusNaming(differences);
  const own = (d: Difference): readonly string[] => {
    if (d.direct !== undefined) return [d.direct];
    const named = d.aspect === 'status' ? naming.get(changeOf(d)) : undefined;
    if (named !== undefined) return named;
    const blocks = reportedUnder(d).filter((id) => !id.startsWith(PROCEDURE_FAMILY));
    return blocks.length > 0 ? blocks : reportedUnder(d);
  };
  const out = new Map<Difference, readonly string[]>();
  for (const d of differences) {
    const status = d.exchange === undefined ? undefined : statusAt.get(exchangeOf(d));
    out.set(d, status !== undefined && status !== d ? own(status) : own(d));
  }
  return out;
}

const changeOf = (d: Difference): string => `${d.a}\u0000${d.b}`;

/**
 * A status has no feature of its own rule, but a rule may name it (`create.status.201`,
 * `auth.missing-401`): for each change of status (201 on a, 200 on b), the rules of its steps that
 * name either status. The same change in a step without such a rule is the same behaviour, so it
 * follows them too.
 */
function statusNaming(differences: readonly Difference[]): Map<string, readonly string[]> {
  const out = new Map<string, Set<string>>();
  for (const d of differences) {
    if (d.aspect !== 'status') continue;
    const codes = [d.a, d.b].filter((s) => /^\d{3}$/.test(s));
    for (const id of d.rules) if (codes.some((code) => id.split(/[.-]/).includes(code))) out.set(changeOf(d), (out.get(changeOf(d)) ?? new Set()).add(id));
  }
  return new Map([...out].map(([k, ids]) => [k, [...ids].sort()]));
}

/**
 * The fewest rules that explain every difference: those a feature evidences directly, then, for a
 * difference that only names its step's rules, one already chosen, else the rule that would explain
 * the most of what is left (ties: the one its scenario lists first). Greedy, so small, not minimal.
 */
function cover(candidatesOf: ReadonlyMap<Difference, readonly string[]>): Set<string> {
  const chosen = new Set<string>();
  for (const ids of candidatesOf.values()) if (ids.length === 1 && ids[0] !== undefined) chosen.add(ids[0]);
  let open = [...candidatesOf.values()].filter((ids) => !ids.some((id) => chosen.has(id)));
  while (open.length > 0) {
    const score = new Map<string, { count: number; position: number }>();
    for (const ids of open)
      ids.forEach((id, position) => {
        const s = score.get(id) ?? { count: 0, position };
        score.set(id, { count: s.count + 1, position: Math.min(s.position, position) });
      });
    const best = [...score].sort(([a, x], [b, y]) => y.count - x.count || x.position - y.position || compareText(a, b))[0]?.[0];
    if (best === undefined) break;
    chosen.add(best);
    open = open.filter((ids) => !ids.includes(best));
  }
  return chosen;
}

/** Each difference's explaining rules; a procedure rule alone, in a step where a building block differs, follows that block (as in run). */
function explainers(differences: readonly Difference[]): Map<Difference, readonly string[]> {
  const candidatesOf = candidates(differences);
  const chosen = cover(candidatesOf);
  const first = new Map<Difference, readonly string[]>();
  for (const [d, ids] of candidatesOf)
    first.set(
      d,
      ids.filter((id) => chosen.has(id)),
    );
  const blocksAt = new Map<string, Set<string>>();
  for (const [d, ids] of first) for (const id of ids) if (!id.startsWith(PROCEDURE_FAMILY) && id !== NO_RULE) blocksAt.set(placeOf(d), (blocksAt.get(placeOf(d)) ?? new Set()).add(id));
  const out = new Map<Difference, readonly string[]>();
  for (const [d, ids] of first) {
    const blocks = blocksAt.get(placeOf(d));
    const procedureOnly = ids.every((id) => id.startsWith(PROCEDURE_FAMILY));
    out.set(d, procedureOnly && blocks !== undefined ? [...blocks].sort() : ids);
  }
  return out;
}

/** Groups behavioural differences under the rules that explain them; every other rule they bear on is a knock-on. */
export function explain(differences: readonly Difference[]): Explanation {
  const behaviour = differences.filter((d) => d.kind === 'behaviour');
  const byDifference = explainers(behaviour);
  const explained = new Map<string, Difference[]>();
  for (const d of behaviour) for (const id of byDifference.get(d) ?? []) explained.set(id, [...(explained.get(id) ?? []), d]);
  const causeIds = new Set(explained.keys());

  // A rule nothing explains by itself follows the cause that explains most of its differences.
  const under = new Map<string, Difference[]>();
  for (const d of behaviour) for (const id of reportedUnder(d)) if (!causeIds.has(id)) under.set(id, [...(under.get(id) ?? []), d]);
  const knockOns: KnockOn[] = [...under]
    .map(([id, list]) => ({ id, follows: mostShared(list, byDifference) }))
    .filter((k): k is KnockOn => k.follows !== undefined)
    .sort((a, b) => compareText(a.id, b.id));

  const causes = [...explained]
    .map(([id, list]) => ({ id, differences: list, knockOns: knockOns.filter((k) => k.follows === id).map((k) => k.id) }))
    .sort((a, b) => b.differences.length - a.differences.length || compareText(a.id, b.id));
  return { causes, knockOns };
}

function mostShared(list: readonly Difference[], byDifference: ReadonlyMap<Difference, readonly string[]>): string | undefined {
  const counts = new Map<string, number>();
  for (const d of list) for (const id of byDifference.get(d) ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || compareText(a, b))[0]?.[0];
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `explained by 1 rule: pagination.page.total (and 8 rules that follow from it)`. */
export function causesText(e: Explanation): string {
  const n = e.causes.length;
  const names = e.causes.map((c) => c.id).join(', ');
  const k = e.knockOns.length;
  const follow = k === 0 ? '' : ` (and ${k} rule${k === 1 ? '' : 's'} that follow${k === 1 ? 's' : ''} from ${n === 1 ? 'it' : 'them'})`;
  return `explained by ${n} rule${n === 1 ? '' : 's'}: ${names}${follow}`;
}
