/**
 * Generators the suites share: values of page parameters (valid, boundary and hostile), list paths,
 * and query strings written the ways clients write them (raw or percent-encoded brackets).
 */
import * as fc from 'fast-check';
import { MAX_PAGE_LENGTH } from '../limits.js';

/** List endpoints the document names whose paths need no parent ids (docs/api-notes.md paths table). */
export const LIST_PATHS: readonly string[] = ['/v2/accounts', '/v2/orders', '/v2/files', '/v2/customers', '/v2/promotions', '/v2/inventories', '/v2/account-members'];
export const HARD_LIMIT_PATHS: readonly string[] = ['/v2/orders', '/v2/files'];
export const SOFT_LIMIT_PATHS: readonly string[] = ['/v2/accounts', '/v2/customers', '/v2/promotions'];

/** Text of a page parameter that a client might send. */
const junkNumberText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '-1', '-0', '+5', ' 7', '8 ', '2.5', '10.0', '1e2', '0x10', '1_000', 'NaN', 'Infinity', 'null', '[]', 'ten', '٣', '99999999999999999999', '9007199254740993'),
  fc.integer({ min: -1000, max: -1 }).map(String),
  fc
    .double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true })
    .filter((d) => !Number.isInteger(d))
    .map(String),
  fc.string({ maxLength: 8 }),
);

/** page[limit]: mostly whole numbers around the interesting values, sometimes junk. */
const limitText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: MAX_PAGE_LENGTH }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '24', '25', '26', '99', '100', '101', '1000', '1000000') },
  { weight: 2, arbitrary: fc.integer({ min: 101, max: 100_000 }).map(String) },
  { weight: 2, arbitrary: junkNumberText },
);

/** page[offset]: small, around the data's end, around the offset limit, huge, or junk. */
const offsetText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 150 }).map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 150, max: 20_000 }).map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 9_995, max: 10_005 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('0', '10000', '10001', '2147483648', '99999999999999999999') },
  { weight: 2, arbitrary: junkNumberText },
);

/** A query parameter: name, value, and whether the brackets of the name go percent-encoded. */
export interface QueryParam {
  readonly name: string;
  readonly value: string;
  readonly encodeName?: boolean;
}

/** `?a=b&c=d`, values percent-encoded (so any text is a valid request target), '' when empty. */
export function queryString(params: readonly QueryParam[]): string {
  if (params.length === 0) return '';
  const parts = params.map((p) => `${p.encodeName === true ? encodeURIComponent(p.name) : p.name}=${encodeValue(p.value)}`);
  return `?${parts.join('&')}`;
}

/** Percent-encoding that leaves the filter grammar's `,` `:` `*` readable (they are valid in a query). */
export const encodeValue = (value: string): string => encodeURIComponent(value).replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2A/g, '*');

/** Page parameters as one optional value each, maybe repeated, maybe with encoded brackets. */
export interface PageParams {
  readonly limit: string | undefined;
  readonly offset: string | undefined;
  /** A second value of page[limit] (the same or another) after the first. */
  readonly repeatLimit: string | undefined;
  readonly encodeNames: boolean;
}

export const pageParams: fc.Arbitrary<PageParams> = fc.record({
  limit: fc.option(limitText, { freq: 4, nil: undefined }),
  offset: fc.option(offsetText, { freq: 3, nil: undefined }),
  repeatLimit: fc.option(fc.oneof(limitText, fc.constant('same')), { freq: 12, nil: undefined }),
  encodeNames: fc.boolean(),
});

export function pageQuery(p: PageParams): QueryParam[] {
  const out: QueryParam[] = [];
  if (p.limit !== undefined) out.push({ name: 'page[limit]', value: p.limit, encodeName: p.encodeNames });
  if (p.repeatLimit !== undefined && p.limit !== undefined) out.push({ name: 'page[limit]', value: p.repeatLimit === 'same' ? p.limit : p.repeatLimit, encodeName: p.encodeNames });
  if (p.offset !== undefined) out.push({ name: 'page[offset]', value: p.offset, encodeName: p.encodeNames });
  return out;
}

/** Whether page[limit] is given twice with different values (what a server does then is not documented). */
export const conflictingLimits = (p: PageParams): boolean => p.limit !== undefined && p.repeatLimit !== undefined && p.repeatLimit !== 'same' && p.repeatLimit !== p.limit;

/** Text without the characters the filter grammar gives a meaning to (so a value stays one value). */
export const plainText = (maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -._'), minLength: 1, maxLength });
