/**
 * Every rule id, typed: a typo in a rule, a deviation site or a property's rule list fails to compile;
 * a scenario file naming an unknown id fails to load. The catalogue holds exactly these ids
 * (test/rules/catalogue.test.ts), in this order.
 */
/** The documented rules (commerce-api.md states them), in the order of the catalogue's families; each has a deviation. */
export const DOCUMENTED_RULE_IDS = [
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
] as const;

/** The assumed rules (the document is silent; docs/api-notes.md chose). */
const ASSUMED_RULE_IDS = [
  'create.password-profile-id.echo',
  'create.type.hyphen-accepted',
  'create.errors.validation-400',
  'create.errors.malformed-json-400',
  'create.errors.unknown-parent-404',
  'password-profile.get',
  'password-profile.list',
  'password-profile.update',
  'password-profile.delete',
  'password-profile.password-never-returned',
  'pagination.meta.position',
  'pagination.limit.clamp',
  'pagination.params.invalid-400',
  'pagination.page.total-empty',
  'pagination.page.current',
  'pagination.links.present',
  'pagination.links.consistent',
  'pagination.offset-limit.hard-400',
  'pagination.offset-limit.soft-400',
  'pagination.endpoints.public-paths',
  'settings.page-length',
  'sort.descending',
  'sort.attributes',
  'sort.ties-by-id',
  'sort.invalid-400',
  'filter.operators',
  'filter.attributes',
  'filter.and',
  'filter.invalid-400',
  'large-data.updates-reappear',
  'large-data.deletes-immediate',
  'large-data.consistency-window',
  'accounts.writes',
  'rate-limit.retry-after',
  'auth.missing-401',
  'auth.token.response',
  'auth.implicit-read-only',
  'errors.format',
  'errors.no-5xx',
  'versioning.item-links-v2',
] as const;

export const RULE_IDS = [...DOCUMENTED_RULE_IDS, ...ASSUMED_RULE_IDS] as const;

export type RuleId = (typeof RULE_IDS)[number];

const known: ReadonlySet<string> = new Set(RULE_IDS);

export function isRuleId(id: string): id is RuleId {
  return known.has(id);
}

/** The client rules' ids (src/traffic/client-rules/), stable: reports, annotations, users' filters and a request's `x-commerce-sim-expect` name them. */
export const CLIENT_RULE_IDS = [
  'client.keyset.timestamp-ge',
  'client.keyset.shared-timestamp',
  'client.keyset.sort-matches-filter',
  'client.keyset.id-stop',
  'client.limit.clamped',
  'client.offset.hard-limit',
  'client.sync.buffer',
  'client.offset.soft-limit',
  'client.offset.changing-data',
  'client.retry.retry-after',
  'client.limit.clamped-stop',
  'client.keyset.run-abandoned',
  'client.create.path',
  'client.create.authorization',
  'client.create.body',
  'client.create.fields',
  'client.create.type',
  'client.create.password-length',
  'client.create.content-type',
] as const;

export type ClientRuleId = (typeof CLIENT_RULE_IDS)[number];

/**
 * The request header naming the client rules a request breaks on purpose (a test of the server's
 * refusals), comma-separated: a traffic judge counts those findings as deliberate, never as failures.
 */
export const EXPECT_HEADER = 'x-commerce-sim-expect';

const knownClient: ReadonlySet<string> = new Set(CLIENT_RULE_IDS);

export function isClientRuleId(id: string): id is ClientRuleId {
  return knownClient.has(id);
}
