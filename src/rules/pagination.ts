/**
 * The pagination family (commerce-api.md §2.3, §4.2, §8), in the order of docs/rule-ids.md.
 * The checks live in pagination-meta.ts, pagination-limits.ts and pagination-offset.ts.
 */
import { paginationLimitRules as l } from './pagination-limits.js';
import { paginationMetaRules as m } from './pagination-meta.js';
import { paginationOffsetRules as o } from './pagination-offset.js';
import type { Rule } from './rule.js';

export const paginationRules: readonly Rule[] = [
  m.metaPresent,
  m.metaPresentWhenEmpty,
  m.metaPosition,
  l.limitDefault,
  l.limitProjectSetting,
  l.limitPerCall,
  l.limitMax,
  l.limitClamp,
  l.paramsInvalid400,
  o.offsetRecords,
  m.offsetEcho,
  m.pageTotal,
  m.pageTotalEmpty,
  m.pageCurrent,
  m.resultsTotal,
  m.linksPresent,
  m.linksConsistent,
  o.hardLimit,
  o.hardLimit400,
  o.softLimit,
  o.softLimit400,
  m.endpointsListed,
  m.endpointsPublicPaths,
];
