/**
 * The explicit registry of rules, in the order of docs/rule-ids.md. Nothing is loaded by globbing:
 * a new rule is added to its family file and that family is listed here.
 */
import { authRules } from './auth.js';
import { createRules } from './password-profile-create.js';
import { errorRules } from './error-answers.js';
import { largeDataRules } from './large-data.js';
import { paginationRules } from './pagination.js';
import { passwordProfileRules } from './password-profile.js';
import { settingsRules } from './settings.js';
import { sortFilterRules } from './sort-filter.js';
import type { Rule } from './rule.js';
import { versioningRules } from './versioning.js';

export const catalogue: readonly Rule[] = [
  ...createRules,
  ...passwordProfileRules,
  ...paginationRules,
  ...settingsRules,
  ...sortFilterRules,
  ...largeDataRules,
  ...authRules,
  ...errorRules,
  ...versioningRules,
];

const byId = new Map<string, Rule>();
for (const rule of catalogue) {
  if (byId.has(rule.id)) throw new Error(`duplicate rule id in the catalogue: ${rule.id}`);
  byId.set(rule.id, rule);
}

export function ruleById(id: string): Rule | undefined {
  return byId.get(id);
}

/** Ids of the `documented` rules: the ones whose failure fails conformance (exit code 1). */
export const documentedRuleIds: readonly string[] = catalogue.filter((r) => r.level === 'documented').map((r) => r.id);
