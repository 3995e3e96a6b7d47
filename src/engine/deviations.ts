/**
 * Deviation mode: the simulator breaks exactly the named rules on purpose, so the kit can prove it
 * catches each break. Every call site is `deviates(dev, '<rule id>')`, so `grep` for a rule id finds it.
 */
import type { RuleId } from '../rules/ids.js';
export type Deviations = ReadonlySet<string>;

export const NO_DEVIATIONS: Deviations = new Set();

/** `ruleId` is typed: a deviation site naming a rule that does not exist fails to compile. */
export function deviates(deviations: Deviations, ruleId: RuleId): boolean {
  return deviations.size > 0 && deviations.has(ruleId);
}

/** Every rule the simulator can break on purpose (all documented rules). */
export const DEVIATION_IDS: readonly RuleId[] = [
  'create.status.201',
  'create.response.fields',
  'create.type.underscore-echo',
  'create.timestamps.format',
  'create.timestamps.equal',
  'create.password.not-returned',
  'create.links.self',
  'create.path.trailing-slash',
  'create.password.min-length',
  'create.required-fields',
  'pagination.meta.present',
  'pagination.meta.present-when-empty',
  'pagination.limit.default',
  'pagination.limit.project-setting',
  'pagination.limit.per-call',
  'pagination.limit.max',
  'pagination.offset.records',
  'pagination.offset.echo',
  'pagination.page.total',
  'pagination.results.total',
  'pagination.offset-limit.hard',
  'pagination.offset-limit.soft',
  'pagination.endpoints.listed',
  'sort.ascending',
  'filter.gt',
  'filter.ge',
  'filter.results-total',
  'large-data.keyset.id',
  'large-data.keyset.timestamp',
  'large-data.shared-timestamp',
  'large-data.updates-during-traversal',
  'large-data.deletes-invisible',
  'auth.required',
  'versioning.v2-prefix',
];

/** A deviation id given as text (a command-line option), checked. */
export function isDeviationId(id: string): id is RuleId {
  return (DEVIATION_IDS as readonly string[]).includes(id);
}
