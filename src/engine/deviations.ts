/**
 * Deviation mode: the simulator breaks exactly the named rules on purpose, so the kit can prove it
 * catches each break. Every call site is `deviates(dev, '<rule id>')`, so `grep` for a rule id finds it.
 */
import { DOCUMENTED_RULE_IDS, type RuleId } from '../rules/ids.js';
export type Deviations = ReadonlySet<string>;

export const NO_DEVIATIONS: Deviations = new Set();

/** `ruleId` is typed: a deviation site naming a rule that does not exist fails to compile. */
export function deviates(deviations: Deviations, ruleId: RuleId): boolean {
  return deviations.size > 0 && deviations.has(ruleId);
}

/** Every rule the simulator can break on purpose (all documented rules). */
export const DEVIATION_IDS: readonly RuleId[] = DOCUMENTED_RULE_IDS;

/** A deviation id given as text (a command-line option), checked. */
export function isDeviationId(id: string): id is RuleId {
  return (DEVIATION_IDS as readonly string[]).includes(id);
}
