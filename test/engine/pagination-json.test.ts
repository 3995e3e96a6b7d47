/**
 * A served page's meta and links are written directly (pageMetaJson, pageLinksJson), not through
 * JSON.stringify of the objects: the same text, whatever the origin, path, query, page and total.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_DEVIATIONS } from '../../src/engine/deviations.js';
import { pageLinks, pageLinksJson, pageMeta, pageMetaJson, type PageCounting } from '../../src/engine/pagination.js';
import { parseQuery } from '../../src/engine/query.js';

/** Text with what JSON must escape: quotes, backslashes, control characters, lone and paired surrogates. */
const awkward = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\u0000', '\u001f', '\ud800', '\udc00', '\u{1F600}', 'é', '%22', '+'));
const plan = fc.record({ limit: fc.integer({ min: 1, max: 100 }), offset: fc.integer({ min: 0, max: 20_000 }) });
const counting: fc.Arbitrary<PageCounting> = fc.record({
  current: fc.constantFrom('one-based', 'zero-based'),
  emptyTotal: fc.constantFrom('zero', 'one'),
  grid: fc.constantFrom('data-set', 'offset'),
  pastEnd: fc.constantFrom('counted', 'capped'),
});

/** The text, or the error thrown. */
function outcome(f: () => string): { text: string } | { error: string } {
  try {
    return { text: f() };
  } catch (e) {
    return { error: String(e) };
  }
}

/** encodeURIComponent, with a lone surrogate kept raw (it cannot be encoded). */
const escape = (text: string): string => {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
};

describe('meta and links written directly', () => {
  it('pageLinksJson is JSON.stringify(pageLinks(...))', () => {
    fc.assert(
      fc.property(awkward, awkward, fc.array(fc.tuple(awkward, awkward), { maxLength: 4 }), fc.boolean(), plan, fc.integer({ min: 0, max: 2_000_000 }), (origin, path, pairs, raw, p, total) => {
        // The query as sent: escaped, or raw (lone surrogates too, which links cannot encode: both throw alike).
        const sent = pairs.map(([k, v]) => (raw ? `${k}=${v}` : `${escape(k)}=${escape(v)}`)).join('&');
        const query = parseQuery(`${sent}&page[limit]=${p.limit}`);
        if (!query.ok) return;
        expect(outcome(() => pageLinksJson(origin, path, query.value, p, total))).toEqual(outcome(() => JSON.stringify(pageLinks(origin, path, query.value, p, total))));
      }),
      { numRuns: 2000 },
    );
  });

  it('pageMetaJson is JSON.stringify(pageMeta(...)), with and without page.current', () => {
    fc.assert(
      fc.property(plan, fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 100 }), counting, fc.boolean(), (p, total, returned, c, bent) => {
        const deviations = bent ? new Set(['pagination.meta.present', 'pagination.results.total']) : NO_DEVIATIONS;
        const meta = pageMeta(p, total, returned, deviations, c);
        expect(pageMetaJson(meta)).toBe(JSON.stringify(meta));
      }),
      { numRuns: 2000 },
    );
  });

  it('pageMetaJson writes what JSON writes for numbers JSON cannot hold', () => {
    const meta = { page: { limit: 25, offset: Number.NaN, total: Number.POSITIVE_INFINITY }, results: { total: -0 } };
    expect(pageMetaJson(meta)).toBe(JSON.stringify(meta));
  });
});
