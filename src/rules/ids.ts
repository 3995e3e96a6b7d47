/**
 * Every rule id, typed: a typo in a rule, a deviation site or a property's rule list fails to compile;
 * a scenario file naming an unknown id fails to load. The catalogue holds exactly these ids
 * (test/rules/catalogue.test.ts), in this order.
 */
export const RULE_IDS = [
  // create (commerce-api.md §2.1, §4.1)
  'create.status.201',
  'create.response.fields',
  'create.password-profile-id.echo',
  'create.type.underscore-echo',
  'create.type.hyphen-accepted',
  'create.timestamps.format',
  'create.timestamps.equal',
  'create.password.not-returned',
  'create.links.self',
  'create.path.trailing-slash',
  'create.password.min-length',
  'create.required-fields',
  'create.errors.validation-400',
  'create.errors.malformed-json-400',
  'create.errors.unknown-parent-404',
  // password profile operations beyond create (API-NOTES)
  'password-profile.get',
  'password-profile.list',
  'password-profile.update',
  'password-profile.delete',
  'password-profile.password-never-returned',
  // pagination (§2.3, §4.2, §8)
  'pagination.meta.present',
  'pagination.meta.present-when-empty',
  'pagination.meta.position',
  'pagination.limit.default',
  'pagination.limit.project-setting',
  'pagination.limit.per-call',
  'pagination.limit.max',
  'pagination.limit.clamp',
  'pagination.params.invalid-400',
  'pagination.offset.records',
  'pagination.offset.echo',
  'pagination.page.total',
  'pagination.page.total-empty',
  'pagination.page.current',
  'pagination.results.total',
  'pagination.links.present',
  'pagination.links.consistent',
  'pagination.offset-limit.hard',
  'pagination.offset-limit.hard-400',
  'pagination.offset-limit.soft',
  'pagination.offset-limit.soft-400',
  'pagination.endpoints.listed',
  'pagination.endpoints.public-paths',
  // settings (API-NOTES)
  'settings.page-length',
  // sort and filter (§4.2, §4.3)
  'sort.ascending',
  'sort.descending',
  'sort.attributes',
  'sort.ties-by-id',
  'sort.invalid-400',
  'filter.gt',
  'filter.ge',
  'filter.operators',
  'filter.attributes',
  'filter.and',
  'filter.results-total',
  'filter.invalid-400',
  // large data (§4.3)
  'large-data.keyset.id',
  'large-data.keyset.timestamp',
  'large-data.shared-timestamp',
  'large-data.updates-during-traversal',
  'large-data.updates-reappear',
  'large-data.deletes-invisible',
  'large-data.deletes-immediate',
  'large-data.consistency-window',
  'accounts.writes',
  'rate-limit.retry-after',
  // auth (§5)
  'auth.required',
  'auth.missing-401',
  'auth.token.response',
  'auth.implicit-read-only',
  // errors (API-NOTES)
  'errors.format',
  'errors.no-5xx',
  // versioning (§9)
  'versioning.v2-prefix',
  'versioning.item-links-v2',
] as const;

export type RuleId = (typeof RULE_IDS)[number];

const known: ReadonlySet<string> = new Set(RULE_IDS);

export function isRuleId(id: string): id is RuleId {
  return known.has(id);
}
