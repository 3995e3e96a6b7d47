/**
 * Page planning (commerce-api.md §2.3, §4.2, §8; docs/api-notes.md "Page limits", "Response envelope"):
 * reading page[limit]/page[offset], the offset limits, and the meta and links of a list response.
 */
import { deviates, type Deviations } from './deviations.js';
import { apiError, ok, refuse, type Decision } from './api-errors.js';
import { encodeValue, type QueryParams } from './query.js';

import { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH, OFFSET_LIMIT } from '../limits.js';

export { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH, OFFSET_LIMIT } from '../limits.js';

/** What a deployment does where §8 is silent (rules/readings.ts): above the maximum, zero, past an offset limit. */
export interface PageReadings {
  /** Whether an offset equal to the limit is within it (`inclusive`) or past it. */
  readonly edge: 'inclusive' | 'exclusive';
  readonly aboveMax: 'clamp' | 'refuse';
  readonly zero: 'refuse' | 'default' | 'one';
  readonly pastHard: 'refuse' | 'empty';
  readonly pastSoft: 'refuse' | 'empty' | 'serve';
}

/** The public API's (docs/api-notes.md "Page limits"). */
export const PUBLIC_PAGE_READINGS: PageReadings = { edge: 'inclusive', aboveMax: 'clamp', zero: 'refuse', pastHard: 'refuse', pastSoft: 'refuse' };

export interface PageContext {
  /** The project's page_length setting. */
  readonly pageLength: number;
  readonly offsetLimit: { readonly kind: 'hard' | 'soft'; readonly max: number };
  readonly deviations: Deviations;
  readonly readings?: PageReadings;
}

export interface PagePlan {
  readonly limit: number;
  readonly offset: number;
  /** Past the offset limit, answered with no records (the reading `empty`) instead of a refusal. */
  readonly pastLimit?: true;
  /** Fewer records than `limit` taken: a hard limit read as "no record past the 10,000th" cuts the page there. */
  readonly take?: number;
}

const DIGITS = /^[0-9]+$/;

function readCount(name: string, raw: string, allowZero: boolean): Decision<number> {
  const text = raw.trim();
  if (!DIGITS.test(text)) return refuse(apiError('bad-request', `${name} must be a ${allowZero ? 'non-negative' : 'positive'} whole number`, name));
  // Long digit strings would lose precision; anything that long is above every limit anyway.
  const value = text.length > 15 ? Number.MAX_SAFE_INTEGER : Number(text);
  if (!allowZero && value === 0) return refuse(apiError('bad-request', `${name} must be a positive whole number`, name));
  return ok(value);
}

export function planPage(query: QueryParams, ctx: PageContext): Decision<PagePlan> {
  const readings = ctx.readings ?? PUBLIC_PAGE_READINGS;
  const rawLimit = query.one('page[limit]');
  if (!rawLimit.ok) return rawLimit;
  const rawOffset = query.one('page[offset]');
  if (!rawOffset.ok) return rawOffset;

  let limit = defaultLimit(ctx);
  // `page[limit]=0` read as absent (the reading `limit.zero=default`) or as 1 (`limit.zero=one`).
  const zero = rawLimit.value !== undefined && readings.zero !== 'refuse' && /^\s*0+\s*$/.test(rawLimit.value);
  const limitText = zero ? (readings.zero === 'one' ? '1' : undefined) : rawLimit.value;
  if (limitText !== undefined) {
    const asked = readCount('page[limit]', limitText, false);
    if (!asked.ok) return asked;
    const breaksMax = deviates(ctx.deviations, 'pagination.limit.max');
    // §2.3 "settable up to 100": the public API clamps; the reading `refuse` answers 400.
    if (asked.value > MAX_PAGE_LENGTH && readings.aboveMax === 'refuse' && !breaksMax) {
      return refuse(apiError('bad-request', `page[limit] must not exceed ${MAX_PAGE_LENGTH}`, 'page[limit]'));
    }
    limit = breaksMax ? asked.value : Math.min(asked.value, MAX_PAGE_LENGTH);
    if (deviates(ctx.deviations, 'pagination.limit.per-call') && asked.value < DEFAULT_PAGE_LENGTH) limit = defaultLimit(ctx);
  }

  let offset = 0;
  if (rawOffset.value !== undefined) {
    const asked = readCount('page[offset]', rawOffset.value, true);
    if (!asked.ok) return asked;
    offset = asked.value;
  }
  const hard = ctx.offsetLimit.kind === 'hard';
  // The deviation refuses offsets the document allows, whatever the reading past the limit.
  const breaksSoft = !hard && deviates(ctx.deviations, 'pagination.offset-limit.soft') && offset > Math.min(5_000, ctx.offsetLimit.max) && offset <= ctx.offsetLimit.max;
  const max = effectiveOffsetLimit(ctx);
  if (offset > max || (offset === max && readings.edge === 'exclusive' && max < Number.MAX_SAFE_INTEGER)) {
    const past = hard ? readings.pastHard : readings.pastSoft;
    if (past === 'empty' && !breaksSoft) return ok({ limit, offset, pastLimit: true });
    if (past === 'serve' && !breaksSoft) return ok({ limit, offset });
    const detail = hard
      ? `page[offset] must not exceed ${max} on this endpoint (hard limit); use sort and filter, e.g. sort=id&filter=gt(id,<last id>), to read further`
      : `page[offset] must not exceed the project's page_offset_limit of ${max}; use sort and filter, e.g. sort=id&filter=gt(id,<last id>), to read further`;
    return refuse(apiError('bad-request', detail, 'page[offset]'));
  }
  // "A hard limit of 10,000 records" read as no record past the 10,000th: a page reaching past it is cut.
  if (hard && readings.edge === 'exclusive' && offset + limit > max) return ok({ limit, offset, take: max - offset });
  return ok({ limit, offset });
}

function defaultLimit(ctx: PageContext): number {
  if (deviates(ctx.deviations, 'pagination.limit.project-setting')) return DEFAULT_PAGE_LENGTH;
  if (deviates(ctx.deviations, 'pagination.limit.default') && ctx.pageLength === DEFAULT_PAGE_LENGTH) return 20;
  return ctx.pageLength;
}

function effectiveOffsetLimit(ctx: PageContext): number {
  if (ctx.offsetLimit.kind === 'hard') return deviates(ctx.deviations, 'pagination.offset-limit.hard') ? Number.MAX_SAFE_INTEGER : OFFSET_LIMIT;
  return deviates(ctx.deviations, 'pagination.offset-limit.soft') ? Math.min(5_000, ctx.offsetLimit.max) : ctx.offsetLimit.max;
}

/** The page arithmetic of §2.3, written once: the simulator's meta and links, and the drift tool's expectations. */
export const pageCount = (total: number, limit: number): number => Math.ceil(total / limit);
export const currentPage = (offset: number, limit: number, counting: PageCounting['current'] = 'one-based'): number => Math.floor(offset / limit) + (counting === 'one-based' ? 1 : 0);
export const recordsOnPage = (total: number, offset: number, limit: number): number => Math.min(limit, Math.max(0, total - offset));
export const lastPageOffset = (total: number, limit: number): number => Math.max(0, (pageCount(total, limit) - 1) * limit);
export const previousOffset = (offset: number, limit: number): number => Math.max(0, offset - limit);

/** How many records to skip: §2.3, the offset counts records, zero-based. */
export function skipCount(plan: PagePlan, deviations: Deviations): number {
  return deviates(deviations, 'pagination.offset.records') ? plan.offset * plan.limit : plan.offset;
}

export interface PageMeta {
  readonly page: { readonly limit: number; readonly offset: number; readonly current?: number; readonly total: number };
  readonly results: { readonly total: number };
}

/** How pages are counted where §2.3 is silent (rules/readings.ts `page.current`, `page.total-empty`, `page.grid`, `page.current-past-end`). */
export interface PageCounting {
  readonly current: 'one-based' | 'zero-based';
  readonly emptyTotal: 'zero' | 'one';
  /** Pages start at multiples of the limit, or at the offset (a partial page before it). */
  readonly grid: 'data-set' | 'offset';
  /** page.current of a read past the last page: counted on, or the last page. */
  readonly pastEnd: 'counted' | 'capped';
}

const PUBLIC_PAGE_COUNTING: PageCounting = { current: 'one-based', emptyTotal: 'zero', grid: 'data-set', pastEnd: 'counted' };

export function pageMeta(plan: PagePlan, total: number, returned: number, deviations: Deviations, counting: PageCounting = PUBLIC_PAGE_COUNTING): PageMeta {
  const reportedTotal = deviates(deviations, 'pagination.results.total') ? total + 1 : total;
  // The offset's own grid: the records before it make pages of their own (a partial one first).
  const ownGrid = counting.grid === 'offset' && plan.offset % plan.limit !== 0 && plan.offset > 0 && plan.offset < reportedTotal;
  // The records before the offset, a partial page first (an offset inside the data: past it, the grid is moot).
  const before = ownGrid ? Math.ceil(plan.offset / plan.limit) : 0;
  const counted = deviates(deviations, 'pagination.page.total')
    ? Math.floor(reportedTotal / plan.limit)
    : ownGrid
      ? before + pageCount(Math.max(0, reportedTotal - plan.offset), plan.limit)
      : pageCount(reportedTotal, plan.limit);
  const pages = counted === 0 && reportedTotal === 0 && counting.emptyTotal === 'one' ? 1 : counted;
  const offset = deviates(deviations, 'pagination.offset.echo') ? 0 : plan.offset;
  const base = counting.current === 'one-based' ? 1 : 0;
  const counted0 = ownGrid ? before : Math.floor(plan.offset / plan.limit);
  // Capped: past the last page, the last page (none for an empty result: the first).
  const current = (counting.pastEnd === 'capped' ? Math.min(counted0, Math.max(0, pages - 1)) : counted0) + base;
  const page = deviates(deviations, 'pagination.meta.present') && returned > 0 ? { limit: plan.limit, offset, total: pages } : { limit: plan.limit, offset, current, total: pages };
  return { page, results: { total: reportedTotal } };
}

export interface PageLinks {
  readonly current: string;
  readonly first: string;
  readonly last: string | null;
  readonly next: string | null;
  readonly prev: string | null;
}

/** A link is `head + offset + tail`: the caller's other parameters (filter, sort) kept in the tail. */
function linkParts(baseUrl: string, path: string, query: QueryParams, limit: number): { readonly head: string; readonly tail: string } {
  let tail = '';
  for (const [k, v] of query.pairs) if (k !== 'page[limit]' && k !== 'page[offset]') tail += `&${encodeValue(k).replace(/%5B/gi, '[').replace(/%5D/gi, ']')}=${encodeValue(v)}`;
  return { head: `${baseUrl}${path}?page[limit]=${limit}&page[offset]=`, tail };
}

/** The offsets of a page's links: null where there is no such page. */
function linkOffsets(plan: PagePlan, total: number): { readonly last: number | null; readonly next: number | null; readonly prev: number | null } {
  return {
    last: pageCount(total, plan.limit) > 1 ? lastPageOffset(total, plan.limit) : null,
    next: plan.offset + plan.limit < total ? plan.offset + plan.limit : null,
    prev: plan.offset > 0 ? previousOffset(plan.offset, plan.limit) : null,
  };
}

/** Absolute links with /v2 and page parameters; the caller's other parameters (filter, sort) are kept. */
export function pageLinks(baseUrl: string, path: string, query: QueryParams, plan: PagePlan, total: number): PageLinks {
  const { head, tail } = linkParts(baseUrl, path, query, plan.limit);
  const at = (offset: number | null) => (offset === null ? null : `${head}${offset}${tail}`);
  const { last, next, prev } = linkOffsets(plan, total);
  return { current: `${head}${plan.offset}${tail}`, first: `${head}0${tail}`, last: at(last), next: at(next), prev: at(prev) };
}

/**
 * `JSON.stringify(pageLinks(...))`, the same text, for a served page: the links differ only in their
 * offset, so the JSON escapes of what they share are made once (the cut falls between ASCII characters,
 * `=` and `&`, so no escape is split), not five times over with the object.
 */
export function pageLinksJson(baseUrl: string, path: string, query: QueryParams, plan: PagePlan, total: number): string {
  const parts = linkParts(baseUrl, path, query, plan.limit);
  const head = JSON.stringify(parts.head).slice(0, -1);
  const tail = JSON.stringify(parts.tail).slice(1);
  const at = (offset: number | null) => (offset === null ? 'null' : `${head}${offset}${tail}`);
  const { last, next, prev } = linkOffsets(plan, total);
  return `{"current":${at(plan.offset)},"first":${at(0)},"last":${at(last)},"next":${at(next)},"prev":${at(prev)}}`;
}

/** `JSON.stringify(meta)`, the same text, for a served page: numbers only, written directly. */
export function pageMetaJson(meta: PageMeta): string {
  const { page } = meta;
  const current = page.current === undefined ? '' : `,"current":${jsonNumber(page.current)}`;
  return `{"page":{"limit":${jsonNumber(page.limit)},"offset":${jsonNumber(page.offset)}${current},"total":${jsonNumber(page.total)}},"results":{"total":${jsonNumber(meta.results.total)}}}`;
}

/** A number as JSON writes it (`null` for NaN and the infinities). */
const jsonNumber = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');
