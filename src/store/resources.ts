/**
 * The list resources the simulator serves (docs/api-notes.md, "Real paths of the list endpoints the document
 * names"; commerce-api.md §4.2), with what each may be filtered and sorted by (docs/api-notes.md, "Accounts",
 * "Filter and sort grammar"). Route templates use `:name` for path parameters.
 */
import type { FilterSpec, FilterOp } from '../engine/filter.js';

export type OffsetLimitKind = 'hard' | 'soft';
/** Accounts and catalogue resources keep timestamps in `meta.timestamps`; authentication records in `meta`. */
export type TimestampPlacement = 'meta.timestamps' | 'meta';

export interface ResourceDef {
  /** Collection key in a project's store. */
  readonly name: string;
  readonly type: string;
  readonly paths: readonly string[];
  /** §8: hard 10,000 on /v2/orders and /v2/files, the project's soft limit elsewhere. */
  readonly offsetLimit: OffsetLimitKind;
  readonly filter: FilterSpec;
  readonly sorts: readonly string[];
  /** String attributes serialised in this order after id and type. */
  readonly attributes: readonly string[];
  readonly timestamps: TimestampPlacement;
  readonly defaultCount: number;
}

const idOps: readonly FilterOp[] = ['eq', 'in', 'gt', 'ge', 'lt', 'le'];
const timeOps: readonly FilterOp[] = ['eq', 'gt', 'ge', 'lt', 'le'];
const SORTS = ['created_at', 'id', 'name', 'updated_at'] as const;

const accountFilter: FilterSpec = {
  id: { kind: 'string', ops: idOps },
  created_at: { kind: 'timestamp', ops: timeOps },
  updated_at: { kind: 'timestamp', ops: timeOps },
  name: { kind: 'string', ops: ['eq', 'like'] },
  legal_name: { kind: 'string', ops: ['eq', 'like'] },
  registration_id: { kind: 'string', ops: ['eq', 'like'] },
  external_ref: { kind: 'string', ops: ['eq', 'like'] },
};

/** Other resources: the public grammar's full operator set on name, so every operator has a home. */
const genericFilter: FilterSpec = {
  id: { kind: 'string', ops: idOps },
  created_at: { kind: 'timestamp', ops: timeOps },
  updated_at: { kind: 'timestamp', ops: timeOps },
  name: { kind: 'string', ops: ['eq', 'like', 'ilike', 'in', 'contains', 'is_null', 'gt', 'ge', 'lt', 'le'] },
};

function generic(name: string, type: string, paths: readonly string[], offsetLimit: OffsetLimitKind = 'soft', defaultCount = 40): ResourceDef {
  return { name, type, paths, offsetLimit, filter: genericFilter, sorts: SORTS, attributes: ['name'], timestamps: 'meta.timestamps', defaultCount };
}

const catalogReads = (prefix: string): readonly string[] => [
  `${prefix}/hierarchies`,
  `${prefix}/hierarchies/:hierarchy/children`,
  `${prefix}/hierarchies/:hierarchy/nodes`,
  `${prefix}/hierarchies/:hierarchy/products`,
  `${prefix}/nodes`,
  `${prefix}/nodes/:node/relationships/products`,
  `${prefix}/products`,
];

export const accounts: ResourceDef = {
  name: 'accounts',
  type: 'account',
  paths: ['/v2/accounts'],
  offsetLimit: 'soft',
  filter: accountFilter,
  sorts: SORTS,
  attributes: ['name', 'legal_name', 'registration_id', 'external_ref'],
  timestamps: 'meta.timestamps',
  defaultCount: 120,
};

/** Every list endpoint with a seeded collection, in the order of the document's list. */
export const listResources: readonly ResourceDef[] = [
  accounts,
  generic('account-members', 'account_member', ['/v2/account-members']),
  generic('entries', 'entry', ['/v2/flows/:slug/entries']),
  generic('customers', 'customer', ['/v2/customers']),
  generic('integration-logs', 'integration-log', ['/v2/integrations/logs', '/v2/integrations/:integration/logs']),
  generic('orders', 'order', ['/v2/orders'], 'hard', 60),
  generic('promotions', 'promotion', ['/v2/promotions']),
  generic('catalogs', 'catalog', ['/pcm/catalogs']),
  generic('catalog-reads', 'catalog_read', [...catalogReads('/catalog'), ...catalogReads('/catalogs/:catalog/releases/:release')]),
  generic('product-nodes', 'node', ['/pcm/products/:product/nodes']),
  generic('node-products', 'product', ['/pcm/hierarchies/:hierarchy/nodes/:node/products']),
  generic('catalog-rules', 'catalog_rule', ['/pcm/catalogs/rules']),
  generic('price-modifiers', 'price_modifier', ['/pcm/pricebooks/:pricebook/modifiers']),
  generic('prices', 'product-price', ['/pcm/pricebooks/:pricebook/prices']),
  generic('inventories', 'stock', ['/v2/inventories']),
  generic('files', 'file', ['/v2/files'], 'hard', 60),
  generic('jobs', 'pim-job', ['/pcm/jobs']),
  generic('promotion-usages', 'promotion_usage', ['/v2/promotions/:promotion/usages', '/v2/promotions/:promotion/codes/:code/usages']),
  generic('rule-promotion-usages', 'promotion_usage', ['/v2/rule-promotions/:promotion/usages', '/v2/rule-promotions/:promotion/codes/:code/usages']),
];

/** Authentication records: timestamps under `meta`; filtered and sorted like the rest. */
const authFilter: FilterSpec = {
  id: { kind: 'string', ops: idOps },
  created_at: { kind: 'timestamp', ops: timeOps },
  updated_at: { kind: 'timestamp', ops: timeOps },
  name: { kind: 'string', ops: ['eq', 'like'] },
  username: { kind: 'string', ops: ['eq', 'like'] },
};

export const realms: ResourceDef = {
  name: 'authentication-realms',
  type: 'authentication-realm',
  paths: ['/v2/authentication-realms'],
  offsetLimit: 'soft',
  filter: authFilter,
  sorts: SORTS,
  attributes: ['name'],
  timestamps: 'meta',
  defaultCount: 2,
};

export const userAuthenticationInfo: ResourceDef = {
  name: 'user-authentication-info',
  type: 'user_authentication_info',
  paths: ['/v2/authentication-realms/:realm/user-authentication-info'],
  offsetLimit: 'soft',
  filter: authFilter,
  sorts: SORTS,
  attributes: ['name', 'email'],
  timestamps: 'meta',
  defaultCount: 3,
};

export const passwordProfileInfo: ResourceDef = {
  name: 'user-authentication-password-profile-info',
  type: 'user_authentication_password_profile_info',
  paths: ['/v2/authentication-realms/:realm/user-authentication-info/:uai/user-authentication-password-profile-info'],
  offsetLimit: 'soft',
  filter: authFilter,
  sorts: ['created_at', 'id', 'updated_at', 'username'],
  attributes: ['username', 'password_profile_id'],
  timestamps: 'meta',
  defaultCount: 0,
};

/** Fields a read may order or cut by: every sort, and the range fields filters answer from indexes. */
export const indexedFields = (resource: ResourceDef): readonly string[] => [...new Set(['id', 'created_at', 'updated_at', ...resource.sorts])];
