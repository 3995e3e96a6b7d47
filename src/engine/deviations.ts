/**
 * Deviation mode: the simulator breaks exactly the named rules on purpose, so the kit can prove it
 * catches each break. Every call site is `deviates(dev, '<rule id>')`, so `grep` for a rule id finds it.
 */
import { DOCUMENTED_RULE_IDS, type RuleId } from '../rules/ids.js';

type DocumentedRuleId = (typeof DOCUMENTED_RULE_IDS)[number];
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

/** What the simulator does under `--deviate <id>`, one line each, for the catalogue's table (docs/rule-ids.md). */
export const DEVIATION_NOTES: Readonly<Record<DocumentedRuleId, string>> = {
  'create.status.201': 'answers 200',
  'create.response.fields': 'username missing',
  'create.type.underscore-echo': 'answers the hyphen form',
  'create.timestamps.format': 'no milliseconds',
  'create.timestamps.equal': 'updated_at 1 ms later',
  'create.password.not-returned': 'data.password echoed',
  'create.links.self': 'path carries /v2',
  'create.path.trailing-slash': '404 on trailing slash',
  'create.password.min-length': 'minimum is 6',
  'create.required-fields': 'password_profile_id not required',
  'pagination.meta.present': 'meta.page.current missing on non-empty pages',
  'pagination.meta.present-when-empty': 'meta omitted on empty results',
  'pagination.limit.default': 'default 20',
  'pagination.limit.project-setting': 'setting ignored',
  'pagination.limit.per-call': 'limits below 25 ignored',
  'pagination.limit.max': 'no clamping',
  'pagination.offset.records': 'offset read as a page number',
  'pagination.offset.echo': 'always 0',
  'pagination.page.total': 'floor',
  'pagination.results.total': 'results.total one too high',
  'pagination.offset-limit.hard': 'they do',
  'pagination.offset-limit.soft': 'soft limit 5,000',
  'pagination.endpoints.listed': '/v2/inventories answers without meta',
  'sort.ascending': 'sort by name ignored',
  'filter.gt': 'gt behaves as ge',
  'filter.ge': 'ge behaves as gt',
  'filter.results-total': 'counts all records',
  'large-data.keyset.id': 'the highest id never appears under a gt(id) filter',
  'large-data.keyset.timestamp': 'with a ge filter on a timestamp the order ignores the sort, ties unordered by id',
  'large-data.shared-timestamp': 'page[offset] ignored on uniform pages',
  'large-data.updates-during-traversal': 'an update moves updated_at to the epoch, so a record not yet seen is lost',
  'large-data.deletes-invisible': 'a delete leaves the record listed with updated_at moved to now',
  'auth.required': 'create without a token succeeds',
  'versioning.v2-prefix': '/v2/files not routed',
};
