/** The client rules' ids, stable: reports, annotations and users' filters name them. */
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
] as const;

export type ClientRuleId = (typeof CLIENT_RULE_IDS)[number];
