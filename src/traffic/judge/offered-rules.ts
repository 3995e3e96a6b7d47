/**
 * Which of the catalogue's rules the traffic judge offers an exchange, a walk, a session: by each rule's
 * scope and, for exchange rules, by the kinds of request it applies to (each rule's `onTraffic`). A rule still
 * skips what it does not judge; this only spares calls that could not apply.
 */
import type { Exchange } from '../../port.js';
import { catalogue } from '../../rules/catalogue.js';
import { isCreatePath, isSettingsPath, methodIs, pathOf, profilePath } from '../../rules/inspect.js';
import type { RequestKind, Rule, RuleId, TrafficScope } from '../../rules/rule.js';

/** Each rule's scope on traffic, by id (as each rule's `onTraffic.scope` says). */
export const RULE_SCOPES: Readonly<Record<RuleId, TrafficScope>> = Object.fromEntries(catalogue.map((r) => [r.id, r.onTraffic.scope])) as Record<RuleId, TrafficScope>;

const exchangeRules = catalogue.filter((r) => r.onTraffic.scope === 'exchange');
/** The exchange-scope rules offered an exchange of each kind (each rule's `onTraffic.kinds`). */
const rulesByKind = new Map<RequestKind | 'any', readonly Rule[]>(
  (['read', 'create', 'profile', 'settings', 'token', 'write'] as const).map((k) => [k, exchangeRules.filter((r) => r.onTraffic.kinds?.includes(k) === true)]),
);
const forEvery = exchangeRules.filter((r) => r.onTraffic.kinds === undefined);

/** The kinds of a request (one may be several), for choosing the rules offered it. */
function kindsOf(ex: Exchange): RequestKind[] {
  const path = pathOf(ex.request.url);
  const kinds: RequestKind[] = [];
  if (methodIs(ex, 'GET', 'HEAD')) kinds.push('read');
  else kinds.push('write');
  if (methodIs(ex, 'POST') && isCreatePath(path)) kinds.push('create');
  if (profilePath(path) !== undefined) kinds.push('profile');
  if (isSettingsPath(path)) kinds.push('settings');
  if (path.startsWith('/oauth/')) kinds.push('token');
  return kinds;
}

/** Each rule offered an exchange once, in catalogue order. */
export function rulesFor(ex: Exchange): readonly Rule[] {
  const kinds = kindsOf(ex);
  const key = kinds.join(' ');
  let rules = byKinds.get(key);
  if (rules === undefined) {
    const chosen = new Set<Rule>(forEvery);
    for (const k of kinds) for (const r of rulesByKind.get(k) ?? []) chosen.add(r);
    byKinds.set(key, (rules = exchangeRules.filter((r) => chosen.has(r))));
  }
  return rules;
}

/** The rules offered each combination of kinds, worked out once (a handful of combinations exist). */
const byKinds = new Map<string, readonly Rule[]>();
export const walkRules = catalogue.filter((r) => r.onTraffic.scope === 'walk');
export const sessionRules = catalogue.filter((r) => r.onTraffic.scope === 'session');
