/**
 * The client rules: how a client sends a create (commerce-api.md §2.1, §4.1, §5, §9), uses the large-data
 * pattern (§4.3) and the limits of §8,
 * judged on observed traffic (src/traffic/judge/), never on a server; no simulator deviation breaks them.
 * Each rule sits with its listeners in its family's file; this is the list.
 */
import { idStop, runAbandoned, sharedTimestamp, sortMatchesFilter, timestampGe } from './keyset.js';
import { clamped, clampedStop } from './limits.js';
import { changingData, hardLimit, softLimit } from './offsets.js';
import { retryAfter } from './retry.js';
import { buffer } from './sync.js';
import { createRules } from './create.js';
import { CLIENT_RULE_IDS, type ClientRuleId } from '../../rules/ids.js';
import type { ClientRule, ClientRuleMeta } from './rule.js';

export { CLIENT_RULE_IDS, type ClientRuleId };
export type { ClientRule, ClientRuleMeta };

export const clientRules: readonly ClientRule[] = [
  timestampGe,
  sharedTimestamp,
  sortMatchesFilter,
  idStop,
  clamped,
  hardLimit,
  buffer,
  softLimit,
  changingData,
  retryAfter,
  clampedStop,
  runAbandoned,
  ...createRules,
];

/** What each rule is, in the list's order: the rows of `commerce-sim rules --client`, reports and tallies. */
export const clientRuleMetas: readonly ClientRuleMeta[] = clientRules.map((r) => r.meta);
