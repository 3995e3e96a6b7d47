/**
 * What each rule needs to see to be judged on traffic nobody scripted (commerce-sim proxy, check): the
 * checks themselves read from each request when they apply (path, method, page[limit], page[offset],
 * sort, filter, body) and skip the rest; this table says how much history to hand them.
 * - `exchange`: one exchange at a time is enough.
 * - `walk`: the pages of one walk (one query paged by offset or keyset), with the writes of the same
 *   client made while it was open: order across pages, ge at the boundary, totals across pages.
 * - `session`: one client's exchanges in order (a create then a read of it, a delete then a list).
 * - `scripted`: only a scenario can judge it: it needs what the kit set up (the simulator's operator
 *   API), or it takes observations handed on from a documented rule (a surface cover). Traffic reports
 *   it as not observed.
 * A `Record` over every id: a new rule does not compile until it says which.
 */
import type { RuleId } from './ids.js';

export type TrafficScope = 'exchange' | 'walk' | 'session' | 'scripted';

export const RULE_SCOPES: Readonly<Record<RuleId, TrafficScope>> = {
  'create.status.201': 'exchange',
  'create.response.fields': 'exchange',
  'create.type.underscore-echo': 'exchange',
  'create.timestamps.format': 'exchange',
  'create.timestamps.equal': 'exchange',
  'create.password.not-returned': 'exchange',
  'create.links.self': 'exchange',
  'create.path.trailing-slash': 'exchange',
  'create.password.min-length': 'exchange',
  'create.required-fields': 'exchange',
  'pagination.meta.present': 'exchange',
  'pagination.meta.present-when-empty': 'exchange',
  'pagination.limit.default': 'exchange',
  'pagination.limit.project-setting': 'session',
  'pagination.limit.per-call': 'exchange',
  'pagination.limit.max': 'exchange',
  'pagination.offset.records': 'walk',
  'pagination.offset.echo': 'exchange',
  'pagination.page.total': 'exchange',
  'pagination.results.total': 'exchange',
  'pagination.offset-limit.hard': 'exchange',
  'pagination.offset-limit.soft': 'exchange',
  'pagination.endpoints.listed': 'exchange',
  'sort.ascending': 'exchange',
  'filter.gt': 'exchange',
  'filter.ge': 'walk',
  'filter.results-total': 'walk',
  'large-data.keyset.id': 'walk',
  'large-data.keyset.timestamp': 'walk',
  'large-data.shared-timestamp': 'walk',
  'large-data.updates-during-traversal': 'walk',
  'large-data.deletes-invisible': 'session',
  'auth.required': 'exchange',
  'versioning.v2-prefix': 'exchange',
  'create.password-profile-id.echo': 'exchange',
  'create.type.hyphen-accepted': 'exchange',
  'create.errors.validation-400': 'exchange',
  'create.errors.malformed-json-400': 'exchange',
  'create.errors.unknown-parent-404': 'exchange',
  'password-profile.get': 'session',
  'password-profile.list': 'session',
  'password-profile.update': 'session',
  'password-profile.delete': 'session',
  'password-profile.password-never-returned': 'exchange',
  'pagination.meta.position': 'exchange',
  'pagination.limit.clamp': 'exchange',
  'pagination.params.invalid-400': 'exchange',
  'pagination.page.total-empty': 'exchange',
  'pagination.page.current': 'exchange',
  'pagination.links.present': 'exchange',
  'pagination.links.consistent': 'exchange',
  'pagination.offset-limit.hard-400': 'exchange',
  'pagination.offset-limit.soft-400': 'scripted',
  'pagination.endpoints.public-paths': 'exchange',
  'settings.page-length': 'exchange',
  'sort.descending': 'exchange',
  'sort.attributes': 'scripted',
  'sort.ties-by-id': 'exchange',
  'sort.invalid-400': 'exchange',
  'filter.operators': 'exchange',
  'filter.attributes': 'scripted',
  'filter.and': 'exchange',
  'filter.invalid-400': 'exchange',
  'large-data.updates-reappear': 'walk',
  'large-data.deletes-immediate': 'session',
  'large-data.consistency-window': 'scripted',
  'accounts.writes': 'exchange',
  'rate-limit.retry-after': 'exchange',
  'auth.missing-401': 'exchange',
  'auth.token.response': 'exchange',
  'auth.implicit-read-only': 'session',
  'errors.format': 'exchange',
  'errors.no-5xx': 'exchange',
  'versioning.item-links-v2': 'exchange',
};
